import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import type { CreatedInvitation } from '../../api/gen/model/createdInvitation';
import type { InvitationInfo } from '../../api/gen/model/invitationInfo';
import type { PersonInfo } from '../../api/gen/model/personInfo';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import type { WorkspaceRole } from '../../api/gen/model/workspaceRole';
import {
  getListInvitationsQueryKey,
  useCreateInvitation,
  useListInvitations,
  useRevokeInvitation,
} from '../../api/gen/workspaces/workspaces';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input, Label, Select } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { roleChoices, roleLabel } from './workspace-rules';

/** A person as the screens name them: their name, else their email, else "A former member". */
export function personName(person: PersonInfo): string {
  return person.name?.trim() || person.email || 'A former member';
}

/** An RFC 3339 time as the reader's local date and time. */
export function formatTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Members > Invite and Pending invitations (issue #28 item 9), for admins and owners: an
 * invitation's link is shown once (only its hash is kept), with whether it was mailed;
 * what the API refuses (already a member, a role you may not give) is shown as it says.
 */
export function InvitationsSection({ workspace }: { workspace: WorkspaceInfo }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListInvitationsQueryKey(workspace.id) });
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  return (
    <>
      <InviteForm workspace={workspace} onCreated={(invitation) => (setCreated(invitation), refresh())} />
      {created && <CreatedLink invitation={created} onDismiss={() => setCreated(null)} />}
      <PendingInvitations workspace={workspace} onRevoked={refresh} />
    </>
  );
}

function InviteForm({ workspace, onCreated }: { workspace: WorkspaceInfo; onCreated: (invitation: CreatedInvitation) => void }) {
  const id = useId();
  // The roles an invitation may give are those the caller may give a member: owner only from an owner.
  const choices = roleChoices(workspace.role, 'member') ?? [];
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<WorkspaceRole>('member');
  const create = useCreateInvitation();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { id: workspace.id, data: { email: email.trim(), role } },
      {
        onSuccess: (invitation) => {
          setEmail('');
          onCreated(invitation);
        },
      },
    );
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Invite someone</h2>
      <p className="mt-1 text-sm text-slate-600">
        They join {workspace.name} by signing in with this address (verified by their sign-in provider). The link works for 7
        days, once.
      </p>
      <form onSubmit={submit} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input
            id={`${id}-email`}
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            className="mt-1"
          />
        </div>
        <div>
          <Label htmlFor={`${id}-role`}>Role</Label>
          <Select id={`${id}-role`} value={role} onChange={(event) => setRole(event.target.value as WorkspaceRole)} className="mt-1">
            {choices.map((choice) => (
              <option key={choice} value={choice}>
                {roleLabel(choice)}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit" disabled={create.isPending} className="shrink-0">
          {create.isPending ? 'Inviting...' : 'Invite'}
        </Button>
      </form>
      {create.isError && (
        <Banner tone="error" className="mt-3">
          {create.error.message}
        </Banner>
      )}
    </Card>
  );
}

function CreatedLink({ invitation, onDismiss }: { invitation: CreatedInvitation; onDismiss: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(invitation.link);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }
  return (
    <Banner tone="success" title={`Invitation made for ${invitation.email}`} onDismiss={onDismiss} dismissLabel="Close the link">
      <p>
        {invitation.mailed
          ? 'The link was mailed to them. You can also send it yourself:'
          : 'It was not mailed: send them this link yourself.'}{' '}
        It is shown only now.
      </p>
      <label htmlFor={id} className="sr-only">
        Invitation link
      </label>
      <div className="mt-2 flex gap-2">
        <Input id={id} readOnly value={invitation.link} className="font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
        <Button variant="secondary" onClick={copy} className="shrink-0">
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </Banner>
  );
}

function PendingInvitations({ workspace, onRevoked }: { workspace: WorkspaceInfo; onRevoked: () => void }) {
  const invitations = useListInvitations(workspace.id);
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Pending invitations</h2>
      {invitations.isPending && (
        <p role="status" className="mt-4 flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading the invitations...
        </p>
      )}
      {invitations.isError && (
        <Banner tone="error" className="mt-4">
          {invitations.error.message}
        </Banner>
      )}
      {invitations.data &&
        (invitations.data.invitations.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">None: every invitation was accepted, revoked or has expired.</p>
        ) : (
          <ul aria-label="Pending invitations" className="mt-4 divide-y divide-slate-100">
            {invitations.data.invitations.map((invitation) => (
              <PendingRow key={invitation.id} workspace={workspace} invitation={invitation} onRevoked={onRevoked} />
            ))}
          </ul>
        ))}
    </Card>
  );
}

function PendingRow({ workspace, invitation, onRevoked }: { workspace: WorkspaceInfo; invitation: InvitationInfo; onRevoked: () => void }) {
  const revoke = useRevokeInvitation({ mutation: { onSuccess: onRevoked } });
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900">{invitation.email}</p>
        <p className="text-xs text-slate-600">
          {roleLabel(invitation.role)}, invited by {personName(invitation.invitedBy)}, expires {formatTime(invitation.expiresAt)}
        </p>
        {revoke.isError && (
          <Banner tone="error" className="mt-2">
            {revoke.error.message}
          </Banner>
        )}
      </div>
      <Button
        variant="secondary"
        size="sm"
        disabled={revoke.isPending}
        onClick={() => revoke.mutate({ id: workspace.id, invitationId: invitation.id })}
        aria-label={`Revoke the invitation of ${invitation.email}`}
      >
        Revoke
      </Button>
    </li>
  );
}
