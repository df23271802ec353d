import { createFileRoute } from '@tanstack/react-router';
import { leaveSignInWhenSignedIn, signInSearch } from '../../features/auth/session-guard';
import { SignInPage } from '../../features/auth/sign-in-page';

export const Route = createFileRoute('/auth/sign-in')({
  validateSearch: signInSearch,
  beforeLoad: ({ context, search }) => leaveSignInWhenSignedIn(context.auth, search),
  component: SignInRoute,
});

function SignInRoute() {
  return <SignInPage returnTo={Route.useSearch().redirect} />;
}
