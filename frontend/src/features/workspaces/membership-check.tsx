import type { ReactNode } from 'react';
import { useListWorkspaces } from '../../api/gen/workspaces/workspaces';
import { findWorkspace } from './current-workspace';

/**
 * `children` unless the caller's workspaces, once read, do not include `ws`: then
 * `unavailable`. While the list loads the page shows (its reads answer a non-member 404).
 */
export function MembershipCheck({ ws, unavailable, children }: { ws: string; unavailable: ReactNode; children: ReactNode }) {
  const workspaces = useListWorkspaces();
  const list = workspaces.data?.workspaces;
  if (list && !findWorkspace(list, ws)) return <>{unavailable}</>;
  return <>{children}</>;
}
