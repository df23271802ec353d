import { createFileRoute, Outlet } from '@tanstack/react-router';
import { AuthGate } from '../features/auth/auth-gate';
import { SearchFinishedNotices } from '../features/history/search-finished-notice';

/**
 * Pathless layout guarding the signed-in pages. The guard is UX only: the API
 * authorises every call. It renders in place rather than redirecting, so the
 * address stays and the user returns to the page they asked for.
 */
export const Route = createFileRoute('/_authed')({
  component: () => (
    <AuthGate>
      <Outlet />
      <SearchFinishedNotices />
    </AuthGate>
  ),
});
