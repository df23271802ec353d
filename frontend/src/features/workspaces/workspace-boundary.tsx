import { Fragment, lazy, Suspense, useState, type ReactNode } from 'react';
import { PageLoading } from '../../components/ui/spinner';
import { isWorkspaceId, useCurrentWorkspaceId } from '../../lib/workspace/current-workspace';

/** What the boundary shows instead of a page while the workspace changes. */
export const OPENING_WORKSPACE = 'Opening the workspace...';

// Only for a shared workspace's address, or one that cannot be opened: the personal
// dashboard's first load carries neither.
const MembershipCheck = lazy(() => import('./membership-check').then((m) => ({ default: m.MembershipCheck })));
const LazyUnavailable = lazy(() => import('./workspace-unavailable').then((m) => ({ default: m.WorkspaceUnavailable })));

function WorkspaceUnavailable() {
  return (
    <Suspense fallback={<PageLoading message={OPENING_WORKSPACE} />}>
      <LazyUnavailable />
    </Suspense>
  );
}

/**
 * The signed-in pages of one workspace: `ws` is the address's (absent: personal).
 * - A malformed id, or one the caller's workspaces do not include (a link from someone
 *   else's workspace, a workspace they left), shows a clear message and the way back to
 *   their personal workspace. Membership is read from `list_workspaces`, asked only when
 *   `ws` names a workspace, and without holding the page: the API answers a non-member
 *   404 meanwhile, so nothing of another workspace can show.
 * - While the current workspace (which the layout's `beforeLoad` changes, see
 *   lib/workspace) is not yet the address's, the page is replaced by a loading state, and
 *   the pages are keyed by workspace: nothing mounted in one workspace (a live search, a
 *   form half filled) survives into another.
 */
export function WorkspaceBoundary({ ws, children }: { ws: string | undefined; children: ReactNode }) {
  const current = useCurrentWorkspaceId();
  // The workspace the membership check found the caller outside of (by id, so it says
  // nothing about another address).
  const [outside, setOutside] = useState<string>();
  // Another address: forget it, so coming back (invited since) checks again.
  if (outside !== undefined && outside !== ws) setOutside(undefined);
  if ((ws !== undefined && !isWorkspaceId(ws)) || (ws !== undefined && outside === ws)) return <WorkspaceUnavailable />;
  if (current !== ws) return <PageLoading message={OPENING_WORKSPACE} />;
  return (
    <>
      <Fragment key={ws ?? 'personal'}>{children}</Fragment>
      {ws !== undefined && (
        // Beside the pages, not around them: its code arriving must not mount them again.
        <Suspense fallback={null}>
          <MembershipCheck ws={ws} onOutside={setOutside} />
        </Suspense>
      )}
    </>
  );
}
