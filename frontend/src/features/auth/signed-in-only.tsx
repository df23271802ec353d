import type { ReactNode } from 'react';
import { PageLoading } from '../../components/ui/spinner';
import { useAuth } from '../../lib/session/auth-context';
import { CHECKING_SESSION } from './signed-in-only-text';

/**
 * The protected layout's body: `children` once the session is known to be signed in,
 * 'Checking authentication...' before. A signed-out visitor never stays here: the
 * layout's `beforeLoad` guard (session-guard.ts) sends them to the sign-in screen as soon
 * as the start-up check answers, so no protected page renders (or loads data) without a
 * session.
 */
export function SignedInOnly({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return <PageLoading message={CHECKING_SESSION} />;
  return <>{children}</>;
}
