import { createFileRoute, Outlet, retainSearchParams } from '@tanstack/react-router';
import { AfterFirstPaint } from '../components/after-first-paint';
import { requireSession } from '../features/auth/session-guard';
import { SignedInOnly } from '../features/auth/signed-in-only';
import { SearchFinishedNotices } from '../features/history/search-finished-notice';
import { WorkspaceBoundary } from '../features/workspaces/workspace-boundary';
import { enterWorkspace, isWorkspaceId, workspaceSearch } from '../lib/workspace/current-workspace';

/**
 * Pathless layout guarding the signed-in pages: a signed-out visitor is redirected to
 * `/auth/sign-in?redirect=<the page>` before any of its loaders run. The guard is UX
 * only: the API authorises every call.
 *
 * It also owns the current workspace (issue #28 item 4, docs/decisions.md): `?ws=<id>`
 * (absent: the personal workspace), kept by every navigation between signed-in pages, so
 * a link to any of them opens in its workspace.
 */
export const Route = createFileRoute('/_authed')({
  validateSearch: workspaceSearch,
  search: { middlewares: [retainSearchParams(['ws'])] },
  beforeLoad: ({ context, location, search, preload }) => {
    requireSession(context.auth, location.href);
    // Before any loader, so theirs are the new workspace's requests. A preload (a link
    // hovered) changes nothing; a malformed id neither (the page says it is wrong).
    if (!preload && (search.ws === undefined || isWorkspaceId(search.ws))) enterWorkspace(search.ws, context.queryClient);
  },
  component: AuthedLayout,
});

function AuthedLayout() {
  const { ws } = Route.useSearch();
  return (
    <SignedInOnly>
      <WorkspaceBoundary ws={ws}>
        <Outlet />
        <AfterFirstPaint>
          <SearchFinishedNotices />
        </AfterFirstPaint>
      </WorkspaceBoundary>
    </SignedInOnly>
  );
}
