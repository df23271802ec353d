import { useRef } from 'react';
import { PageLoading } from '../../components/ui/spinner';
import { useAuth } from '../../lib/session/auth-context';
import { AuthRequired } from './auth-required';

/**
 * `/auth/sign-in`, where the guard sends a signed-out visitor of a protected page (spec
 * section 2): 'Checking authentication...' while the start-up session check runs, then
 * the 'Authentication Required' screen, whose button brings the user back to `returnTo`.
 */
export function SignInPage({ returnTo }: { returnTo?: string }) {
  const { isLoading } = useAuth();
  // The checking message is for the start-up check only. A later loading state is a
  // sign-in under way, which the sign-in button itself shows.
  const settled = useRef(false);
  if (!isLoading) settled.current = true;
  if (isLoading && !settled.current) return <PageLoading message="Checking authentication..." />;
  return <AuthRequired returnTo={returnTo} />;
}
