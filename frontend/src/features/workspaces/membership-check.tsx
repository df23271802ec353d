import { useEffect } from 'react';
import { useListWorkspaces } from '../../api/gen/workspaces/workspaces';
import { findWorkspace } from './current-workspace';

/**
 * Reads the caller's workspaces and calls `onOutside(ws)` when they do not include `ws`.
 * Draws nothing; while the list loads the page shows (its reads answer a non-member 404).
 */
export function MembershipCheck({ ws, onOutside }: { ws: string; onOutside: (ws: string) => void }) {
  const list = useListWorkspaces().data?.workspaces;
  const outside = list !== undefined && !findWorkspace(list, ws);
  useEffect(() => {
    if (outside) onOutside(ws);
  }, [outside, ws, onOutside]);
  return null;
}
