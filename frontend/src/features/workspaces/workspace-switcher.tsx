import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import { cn } from '../../components/ui/cn';
import { Spinner } from '../../components/ui/spinner';
import { useWhenIdle } from '../../hooks/use-when-idle';
import { useWorkspaces } from './current-workspace';
import { SwitcherButton } from './switcher-button';
import { useSwitchWorkspace } from './use-switch-workspace';
import { roleLabel } from './workspace-rules';

// Loaded when first asked for: the dashboard's first load carries only the switcher.
const NewWorkspaceDialog = lazy(() => import('./new-workspace-dialog').then((m) => ({ default: m.NewWorkspaceDialog })));

/**
 * Set when the switcher switches: the pages are remounted in the new workspace, and its
 * switcher there takes the focus back, so a keyboard user carries on where they were.
 */
let focusAfterSwitch = false;

/**
 * The header's workspace switcher (issue #28 item 4): the current workspace's name; opened,
 * the caller's workspaces (personal first, as the API lists them) with their role, and
 * "New workspace". A disclosure: Tab and Enter reach everything, Escape closes it and
 * returns to its button. The list is asked once the page is idle (or the switcher opened),
 * never before the page's first render.
 */
export function WorkspaceSwitcher() {
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const idle = useWhenIdle();
  const { list, ws, current } = useWorkspaces(idle || open);
  const switchTo = useSwitchWorkspace();
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!focusAfterSwitch) return;
    focusAfterSwitch = false;
    buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    }
    function onPointerDown(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    function onFocusIn(event: FocusEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('focusin', onFocusIn);
    };
  }, [open]);

  function choose(workspace: WorkspaceInfo) {
    setOpen(false);
    if (workspace.id === current?.id) return;
    focusAfterSwitch = true;
    void switchTo(workspace);
  }

  const name = current?.name ?? (ws === undefined ? 'Personal' : 'Workspace');

  return (
    <div ref={rootRef} className="relative min-w-0">
      <SwitcherButton ref={buttonRef} name={name} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((was) => !was)} />
      <div
        id={panelId}
        hidden={!open}
        className="absolute left-0 z-40 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-2 shadow-lg"
      >
        {list.isPending && (
          <p role="status" className="flex items-center gap-2 px-3 py-2 text-sm text-slate-600">
            <Spinner /> Loading your workspaces...
          </p>
        )}
        {list.isError && (
          <p role="alert" className="px-3 py-2 text-sm text-red-700">
            {list.error.message}
          </p>
        )}
        {list.data && (
          <ul aria-label="Your workspaces" className="max-h-72 overflow-y-auto">
            {list.data.workspaces.map((workspace) => {
              const isCurrent = workspace.id === current?.id;
              return (
                <li key={workspace.id}>
                  <button
                    type="button"
                    aria-current={isCurrent ? 'true' : undefined}
                    onClick={() => choose(workspace)}
                    className={cn(
                      'flex w-full items-center justify-between gap-3 rounded-lg px-3 py-2 text-left text-sm',
                      isCurrent ? 'bg-indigo-50 text-indigo-800' : 'text-slate-800 hover:bg-slate-100',
                    )}
                  >
                    <span className="min-w-0 truncate font-medium">{workspace.name}</span>
                    <span className="shrink-0 text-xs text-slate-600">
                      {workspace.personal ? 'Personal · ' : ''}
                      {roleLabel(workspace.role)}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        <div className="mt-1 border-t border-slate-100 pt-1">
          <button
            type="button"
            onClick={() => {
              setOpen(false);
              setCreating(true);
            }}
            className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium text-indigo-700 hover:bg-indigo-50"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
              <path d="M10 4a1 1 0 0 1 1 1v4h4a1 1 0 1 1 0 2h-4v4a1 1 0 1 1-2 0v-4H5a1 1 0 1 1 0-2h4V5a1 1 0 0 1 1-1z" />
            </svg>
            New workspace
          </button>
        </div>
      </div>
      {creating && (
        <Suspense fallback={null}>
          <NewWorkspaceDialog
            open
            onClose={() => {
              setCreating(false);
              // Back to the switcher (the dialog would return focus to "New workspace", hidden now).
              buttonRef.current?.focus();
            }}
            onCreated={(workspace) => {
              focusAfterSwitch = true;
              void switchTo(workspace, 'dashboard');
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
