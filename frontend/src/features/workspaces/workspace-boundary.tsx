import { Link } from '@tanstack/react-router';
import { Fragment, type ReactNode } from 'react';
import { useListWorkspaces } from '../../api/gen/workspaces/workspaces';
import { buttonClasses } from '../../components/ui/button';
import { Logo } from '../../components/ui/logo';
import { PageLoading } from '../../components/ui/spinner';
import { isWorkspaceId, useCurrentWorkspaceId } from '../../lib/workspace/current-workspace';
import { findWorkspace } from './current-workspace';

/** What the boundary shows instead of a page while the workspace changes. */
export const OPENING_WORKSPACE = 'Opening the workspace...';

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
  const wellFormed = ws === undefined || isWorkspaceId(ws);
  const workspaces = useListWorkspaces({ query: { enabled: ws !== undefined && wellFormed } });
  const list = workspaces.data?.workspaces;
  if (!wellFormed || (ws !== undefined && list && !findWorkspace(list, ws))) return <WorkspaceUnavailable />;
  if (current !== ws) return <PageLoading message={OPENING_WORKSPACE} />;
  return <Fragment key={ws ?? 'personal'}>{children}</Fragment>;
}

/** A workspace the address names that the caller cannot open. */
export function WorkspaceUnavailable() {
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center px-4 sm:px-6 lg:px-8">
          <Logo />
        </div>
      </header>
      <main className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 className="text-2xl font-bold text-slate-900">This workspace is not available</h1>
        <p className="mt-3 text-slate-600">
          The link names a workspace you are not a member of, or one that no longer exists. Ask its owner to invite you, or
          carry on in your personal workspace.
        </p>
        <Link to="/dashboard" search={{ ws: undefined }} className={buttonClasses('primary', 'md', 'mt-6')}>
          Go to your personal workspace
        </Link>
      </main>
    </div>
  );
}
