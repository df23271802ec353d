import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import {
  getListWorkspacesQueryKey,
  useForgetPlaceMemory,
  useUpdateWorkspace,
} from '../../api/gen/workspaces/workspaces';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { ConfirmDialog } from './confirm-dialog';

/**
 * Settings > Workspace > General, place memory (issue #29): whether the workspace's searches
 * remember the Google place IDs they send (IDs only), so a search can leave them out; an
 * admin turns it on or off and makes it forget everything.
 */
export function PlaceMemoryCard({ workspace }: { workspace: WorkspaceInfo }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [forgotten, setForgotten] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListWorkspacesQueryKey() });
  const update = useUpdateWorkspace({ mutation: { onSuccess: refresh } });
  const forget = useForgetPlaceMemory({
    mutation: {
      onSuccess: (answer) => {
        setForgotten(answer.forgotten);
        setConfirming(false);
      },
    },
  });
  const admin = workspace.role !== 'member';
  const on = workspace.placeMemory;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Place memory</h2>
      <p className="mt-1 text-sm text-slate-600">
        {on ? 'On' : 'Off'}: searches {on ? 'remember' : 'do not remember'} the Google place IDs they find, so a search
        can leave out places already found or exported. Only the IDs and when they were seen are kept, never a name,
        address or phone number.
      </p>
      {update.error && (
        <Banner tone="error" className="mt-3">
          {update.error.message}
        </Banner>
      )}
      {forgotten !== null && (
        <p role="status" className="mt-3 text-sm text-slate-700">
          Forgot {forgotten.toLocaleString('en-US')} {forgotten === 1 ? 'place' : 'places'}.
        </p>
      )}
      {admin ? (
        <div className="mt-4 flex flex-wrap gap-2">
          <Button
            variant="secondary"
            disabled={update.isPending}
            onClick={() => update.mutate({ id: workspace.id, data: { placeMemory: !on } })}
          >
            {update.isPending && <Spinner />}
            {on ? 'Turn off' : 'Turn on'}
          </Button>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Forget everything
          </Button>
        </div>
      ) : (
        <p className="mt-3 text-sm text-slate-600">Only an admin changes the place memory.</p>
      )}
      <ConfirmDialog
        open={confirming}
        title="Forget every remembered place?"
        confirmLabel="Forget everything"
        pending={forget.isPending}
        error={forget.error}
        onConfirm={() => forget.mutate({ id: workspace.id })}
        onClose={() => {
          setConfirming(false);
          forget.reset();
        }}
      >
        <p>Searches that leave out known places will send them all again, for every member.</p>
      </ConfirmDialog>
    </Card>
  );
}
