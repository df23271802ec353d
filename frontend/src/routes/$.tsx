import { createFileRoute, redirect } from '@tanstack/react-router';

// Catch-all: any path without a route redirects to / (spec section 2).
export const Route = createFileRoute('/$')({
  beforeLoad: () => {
    throw redirect({ to: '/', replace: true });
  },
});
