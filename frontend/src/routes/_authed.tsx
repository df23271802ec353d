import { createFileRoute, Outlet } from '@tanstack/react-router';
import { PageLoading } from '../components/ui/spinner';
import { AuthRequired } from '../features/auth/auth-required';
import { useAuth } from '../lib/session/auth-context';

/**
 * Pathless layout guarding the signed-in pages. The guard is UX only: the API
 * authorises every call. It renders in place rather than redirecting, so the
 * address stays and sign-in can return here.
 */
export const Route = createFileRoute('/_authed')({
  component: AuthedLayout,
});

function AuthedLayout() {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <PageLoading message="Checking authentication..." />;
  if (!isAuthenticated) return <AuthRequired />;
  return <Outlet />;
}
