import { createFileRoute, Outlet } from '@tanstack/react-router';
import { AfterFirstPaint } from '../components/after-first-paint';
import { requireSession } from '../features/auth/session-guard';
import { SignedInOnly } from '../features/auth/signed-in-only';
import { SearchFinishedNotices } from '../features/history/search-finished-notice';

/**
 * Pathless layout guarding the signed-in pages: a signed-out visitor is redirected to
 * `/auth/sign-in?redirect=<the page>` before any of its loaders run. The guard is UX
 * only: the API authorises every call.
 */
export const Route = createFileRoute('/_authed')({
  beforeLoad: ({ context, location }) => requireSession(context.auth, location.href),
  component: () => (
    <SignedInOnly>
      <Outlet />
      <AfterFirstPaint>
        <SearchFinishedNotices />
      </AfterFirstPaint>
    </SignedInOnly>
  ),
});
