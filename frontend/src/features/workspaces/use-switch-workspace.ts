import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import { workspaceSearchFor } from './current-workspace';

/**
 * Opens the same page in another workspace (or the personal one) (its `ws` in the address; the layout's
 * `beforeLoad` does the rest). `page` 'dashboard' goes to the dashboard instead, for
 * when the current page means nothing there (a workspace just deleted or left).
 */
export function useSwitchWorkspace() {
  const navigate = useNavigate();
  return useCallback(
    (workspace: Pick<WorkspaceInfo, 'id' | 'personal'> | 'personal', page: 'same' | 'dashboard' = 'same') => {
      const { ws } = workspace === 'personal' ? { ws: undefined } : workspaceSearchFor(workspace);
      if (page === 'dashboard') return navigate({ to: '/dashboard', search: { ws } });
      return navigate({ to: '.', search: (prev: Record<string, unknown>) => ({ ...prev, ws }) });
    },
    [navigate],
  );
}
