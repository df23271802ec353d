import { lazy, Suspense } from 'react';
import { useCurrentWorkspaceId } from '../../lib/workspace/current-workspace';
import { SwitcherButton } from './switcher-button';

const WorkspaceSwitcher = lazy(() => import('./workspace-switcher').then((m) => ({ default: m.WorkspaceSwitcher })));

/**
 * The header's workspace switcher, its code fetched after the page's first render (the
 * dashboard's first load carries only this and the button), meanwhile its button as the
 * switcher itself first shows it.
 */
export function LazyWorkspaceSwitcher() {
  const ws = useCurrentWorkspaceId();
  return (
    <Suspense fallback={<SwitcherButton name={ws === undefined ? 'Personal' : 'Workspace'} aria-expanded={false} aria-disabled />}>
      <WorkspaceSwitcher />
    </Suspense>
  );
}
