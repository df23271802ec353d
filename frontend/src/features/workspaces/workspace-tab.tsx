import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import {
  getListWorkspacesQueryKey,
  useDeleteWorkspace,
  useRemoveMember,
  useUpdateWorkspace,
} from '../../api/gen/workspaces/workspaces';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Hint, Input, Label } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { useAuth } from '../../lib/session/auth-context';
import { ConfirmDialog } from './confirm-dialog';
import { PlaceMemoryCard } from './place-memory-section';
import { SpendCard, UsageBreakdownCard } from './spend-section';
import { useWorkspaces } from './current-workspace';
import { useSwitchWorkspace } from './use-switch-workspace';
import { canDelete, canLeave, canRename, NAME_MAX, nameProblem, roleLabel } from './workspace-rules';

/**
 * Settings > Workspace > General (issue #28 item 9): the current workspace's name (an
 * owner renames it), deleting it (an owner, not the personal one) and leaving it (anyone,
 * not the personal one); the month's spend against the cap (an owner sets it) and usage by
 * member and client. The API's refusals (`last_owner`, `role_required`...) are shown
 * as it words them.
 */
export function WorkspaceTab() {
  const { list, current } = useWorkspaces();
  if (list.isPending) {
    return (
      <Card role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the workspace...
      </Card>
    );
  }
  if (list.isError) return <Banner tone="error">{list.error.message}</Banner>;
  // The layout shows the workspace unavailable before this can happen.
  if (!current) return null;
  return (
    <div className="space-y-6">
      <NameCard workspace={current} />
      <SpendCard workspace={current} />
      <UsageBreakdownCard />
      <PlaceMemoryCard workspace={current} />
      {canLeave(current) && <LeaveCard workspace={current} />}
      {canDelete(current) && <DeleteCard workspace={current} />}
    </div>
  );
}

function NameCard({ workspace }: { workspace: WorkspaceInfo }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(workspace.name);
  const [problem, setProblem] = useState<string | null>(null);
  const rename = useUpdateWorkspace({
    mutation: { onSuccess: () => queryClient.invalidateQueries({ queryKey: getListWorkspacesQueryKey() }) },
  });
  useEffect(() => setName(workspace.name), [workspace.name]);
  const editable = canRename(workspace);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = nameProblem(name);
    setProblem(found);
    if (!found) rename.mutate({ id: workspace.id, data: { name: name.trim() } });
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Workspace</h2>
      <p className="mt-1 text-sm text-slate-600">
        {workspace.personal ? 'Your personal workspace. ' : 'A shared workspace. '}
        Your role: {roleLabel(workspace.role)}.
      </p>
      <form onSubmit={submit} noValidate className="mt-5 space-y-3">
        <div>
          <Label htmlFor={`${id}-name`}>Name</Label>
          <div className="mt-1.5 flex flex-col gap-2 sm:flex-row">
            <Input
              id={`${id}-name`}
              value={name}
              maxLength={NAME_MAX}
              readOnly={!editable}
              autoComplete="off"
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${id}-hint`}
              onChange={(event) => {
                setName(event.target.value);
                rename.reset();
              }}
            />
            {editable && (
              <Button type="submit" size="field" disabled={rename.isPending || name.trim() === workspace.name}>
                {rename.isPending && <Spinner />}
                Rename
              </Button>
            )}
          </div>
          <Hint id={`${id}-hint`}>{problem ?? (editable ? `Up to ${NAME_MAX} characters.` : 'Only an owner can rename the workspace.')}</Hint>
        </div>
        {rename.isError && <Banner tone="error">{rename.error.message}</Banner>}
        {rename.isSuccess && <Banner tone="success">Renamed.</Banner>}
      </form>
    </Card>
  );
}

function LeaveCard({ workspace }: { workspace: WorkspaceInfo }) {
  const { user } = useAuth();
  const [confirming, setConfirming] = useState(false);
  const switchTo = useSwitchWorkspace();
  const leave = useRemoveMember({ mutation: { onSuccess: () => void switchTo('personal', 'dashboard') } });
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Leave workspace</h2>
      <p className="mt-1 text-sm text-slate-600">
        You lose access to its key, plan, history and tokens at once; your API tokens made here are revoked.
      </p>
      <Button variant="secondary" className="mt-4" onClick={() => setConfirming(true)}>
        Leave workspace
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Leave ${workspace.name}?`}
        confirmLabel="Leave workspace"
        pending={leave.isPending}
        error={leave.error}
        onConfirm={() => user && leave.mutate({ id: workspace.id, userId: user.id })}
        onClose={() => {
          setConfirming(false);
          leave.reset();
        }}
      >
        <p>To come back, an admin must invite you again.</p>
      </ConfirmDialog>
    </Card>
  );
}

function DeleteCard({ workspace }: { workspace: WorkspaceInfo }) {
  const [confirming, setConfirming] = useState(false);
  const switchTo = useSwitchWorkspace();
  const remove = useDeleteWorkspace({ mutation: { onSuccess: () => void switchTo('personal', 'dashboard') } });
  return (
    <Card className="border-red-200">
      <h2 className="text-lg font-semibold text-slate-900">Delete workspace</h2>
      <p className="mt-1 text-sm text-slate-600">
        Deletes the workspace and everything in it, for every member: its key, plan records, usage, history, tokens and
        webhooks.
      </p>
      <Button variant="danger" className="mt-4" onClick={() => setConfirming(true)}>
        Delete workspace
      </Button>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${workspace.name}?`}
        confirmLabel="Delete for everyone"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate({ id: workspace.id })}
        onClose={() => {
          setConfirming(false);
          remove.reset();
        }}
      >
        <p>This cannot be undone. Export anything you need from its history first.</p>
      </ConfirmDialog>
    </Card>
  );
}
