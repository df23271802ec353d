import { useId, useState, type FormEvent } from 'react';
import { useCreateWorkspace } from '../../api/gen/workspaces/workspaces';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Hint, Input, Label } from '../../components/ui/field';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { NAME_MAX, nameProblem } from './workspace-rules';

/** "New workspace": a name, then `create_workspace`; `onCreated` switches to it. */
export function NewWorkspaceDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (workspace: WorkspaceInfo) => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useCreateWorkspace();

  function close() {
    setName('');
    setProblem(null);
    create.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = nameProblem(name);
    setProblem(found);
    if (found) return;
    create.mutate(
      { data: { name: name.trim() } },
      {
        onSuccess: (workspace) => {
          close();
          onCreated(workspace);
        },
      },
    );
  }

  return (
    <Modal open={open} onClose={close} title="New workspace">
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-slate-600">
          A shared workspace has its own Google key, plan, history, tokens and webhooks. You will be its owner.
        </p>
        <div>
          <Label htmlFor={`${id}-name`}>Workspace name</Label>
          <Input
            id={`${id}-name`}
            className="mt-1.5"
            value={name}
            maxLength={NAME_MAX}
            autoComplete="off"
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : `${id}-hint`}
            onChange={(event) => setName(event.target.value)}
          />
          {problem ? (
            <p id={`${id}-problem`} className="mt-1.5 text-sm text-red-700">
              {problem}
            </p>
          ) : (
            <Hint id={`${id}-hint`}>For example the agency's or a team's name; up to {NAME_MAX} characters.</Hint>
          )}
        </div>
        {create.error && <Banner tone="error">{create.error.message}</Banner>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending && <Spinner />}
            Create workspace
          </Button>
        </div>
      </form>
    </Modal>
  );
}
