import { useRef, type ReactNode } from 'react';
import { PageLoading } from '../../components/ui/spinner';
import { useAuth } from '../../lib/session/auth-context';
import { AuthRequired } from './auth-required';

/**
 * Shows `children` only to a signed-in user (spec section 2): 'Checking
 * authentication...' while the session is checked at start, else the
 * 'Authentication Required' screen (or `fallback`).
 */
export function AuthGate({ children, fallback }: { children: ReactNode; fallback?: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  // The checking message is for the start-up check only. A later loading state is
  // a sign-in under way, which the sign-in button itself shows.
  const settled = useRef(false);
  if (!isLoading) settled.current = true;

  if (isLoading && !settled.current) return <PageLoading message="Checking authentication..." />;
  if (!isAuthenticated) return <>{fallback ?? <AuthRequired />}</>;
  return <>{children}</>;
}
