import { useListWorkspaces } from '../../api/gen/workspaces/workspaces';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import { useCurrentWorkspaceId, type WorkspaceSearch } from '../../lib/workspace/current-workspace';

/**
 * The workspace `ws` names in `workspaces` (the personal one when `ws` is absent), or
 * `undefined` when the list has no such workspace (or is not loaded).
 */
export function findWorkspace(workspaces: readonly WorkspaceInfo[] | undefined, ws: string | undefined): WorkspaceInfo | undefined {
  if (!workspaces) return undefined;
  if (ws === undefined) return workspaces.find((w) => w.personal);
  const id = ws.toLowerCase();
  return workspaces.find((w) => w.id.toLowerCase() === id);
}

/** The address's `ws` for a workspace: none for the personal one (the API's default too). */
export function workspaceSearchFor(workspace: Pick<WorkspaceInfo, 'id' | 'personal'>): WorkspaceSearch {
  return { ws: workspace.personal ? undefined : workspace.id };
}

/**
 * The caller's workspaces (`list_workspaces`) and the current one. `enabled` false waits
 * (the header's switcher asks only once the page is idle or opened, so the dashboard's
 * first render waits for nothing more).
 */
export function useWorkspaces(enabled = true) {
  const ws = useCurrentWorkspaceId();
  const list = useListWorkspaces({ query: { enabled } });
  return { list, ws, current: findWorkspace(list.data?.workspaces, ws) };
}
