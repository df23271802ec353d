import { createFileRoute, redirect } from '@tanstack/react-router';
import { OnboardingPage } from '../../features/onboarding/onboarding-page';

export const Route = createFileRoute('/_authed/onboarding')({
  // Onboarding sets up the person's own workspace: the key it saves must never land on a
  // team's (whose key is shared and set in its settings by an admin), so a `?ws=` kept
  // from a team's page is dropped on the way in.
  beforeLoad: ({ search }) => {
    if (search.ws !== undefined) throw redirect({ to: '/onboarding', search: { ws: undefined }, replace: true });
  },
  component: () => <OnboardingPage />,
});
