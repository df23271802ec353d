import { createFileRoute } from '@tanstack/react-router';

export const Route = createFileRoute('/_authed/onboarding')({
  component: () => <div>onboarding</div>,
});
