import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { MemberInfo } from '../../api/gen/model/memberInfo';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import type { WorkspaceRole } from '../../api/gen/model/workspaceRole';
import {
  getListMembersQueryKey,
  useListMembers,
  useRemoveMember,
  useUpdateMember,
} from '../../api/gen/workspaces/workspaces';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Select } from '../../components/ui/field';
import { Spinner } from '../../components/ui/spinner';
import { useAuth } from '../../lib/session/auth-context';
import { ConfirmDialog } from './confirm-dialog';
import { InvitationsSection } from './invitations-section';
import { useWorkspaces } from './current-workspace';
import { atLeast, canRemove, roleChoices, roleLabel } from './workspace-rules';

/**
 * Settings > Workspace > Members (issue #28 item 9): who is in the current workspace,
 * with their role; an admin changes roles and removes members, only an owner touches
 * owners (as the API holds it). Admins and owners also invite and see pending invitations.
 */
export function MembersTab() {
  const { list, current } = useWorkspaces();
  if (list.isPending) {
    return (
      <Card role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <Spinner /> Loading the workspace...
      </Card>
    );
  }
  if (list.isError) return <Banner tone="error">{list.error.message}</Banner>;
  if (!current) return null;
  return (
    <div className="space-y-6">
      <MembersSection workspace={current} />
      {atLeast(current.role, 'admin') && !current.personal && <InvitationsSection workspace={current} />}
    </div>
  );
}

/** When someone joined, as a date in the reader's locale. */
export function joinedDate(joinedAt: string): string {
  const date = new Date(joinedAt);
  return Number.isNaN(date.getTime()) ? joinedAt : date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

function MembersSection({ workspace }: { workspace: WorkspaceInfo }) {
  const members = useListMembers(workspace.id);
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Members</h2>
      <p className="mt-1 text-sm text-slate-600">
        {workspace.personal
          ? 'Your personal workspace is yours alone.'
          : 'Owners manage billing and the workspace itself; admins the key, members, tokens and webhooks; members run searches and read the history.'}
      </p>
      {members.isPending && (
        <p role="status" className="mt-4 flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading the members...
        </p>
      )}
      {members.isError && (
        <Banner tone="error" className="mt-4">
          {members.error.message}
        </Banner>
      )}
      {members.data && (
        <ul aria-label="Members" className="mt-4 divide-y divide-slate-100">
          {members.data.members.map((member) => (
            <MemberRow key={member.userId} workspace={workspace} member={member} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function MemberRow({ workspace, member }: { workspace: WorkspaceInfo; member: MemberInfo }) {
  const id = useId();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListMembersQueryKey(workspace.id) });
  const update = useUpdateMember({ mutation: { onSettled: refresh } });
  const remove = useRemoveMember({ mutation: { onSuccess: refresh } });
  const isYou = member.userId === user?.id;
  // Your own role is changed by another admin or owner (demoting yourself is leaving's cousin: not offered).
  const choices = isYou ? null : roleChoices(workspace.role, member.role);
  const who = member.name?.trim() || member.email;

  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900">
          {who}
          {isYou && <span className="ml-2 text-sm font-normal text-slate-600">(you)</span>}
        </p>
        {who !== member.email && <p className="truncate text-sm text-slate-600">{member.email}</p>}
        <p className="text-xs text-slate-600">Joined {joinedDate(member.joinedAt)}</p>
        {update.isError && (
          <Banner tone="error" className="mt-2">
            {update.error.message}
          </Banner>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap items-center gap-2">
        {choices ? (
          <>
            <label htmlFor={`${id}-role`} className="sr-only">
              Role of {member.email}
            </label>
            <Select
              id={`${id}-role`}
              className="w-auto"
              value={update.isPending ? update.variables.data.role : member.role}
              disabled={update.isPending}
              onChange={(event) =>
                update.mutate({ id: workspace.id, userId: member.userId, data: { role: event.target.value as WorkspaceRole } })
              }
            >
              {choices.map((role) => (
                <option key={role} value={role}>
                  {roleLabel(role)}
                </option>
              ))}
            </Select>
          </>
        ) : (
          <Badge tone={member.role === 'owner' ? 'indigo' : 'gray'}>{roleLabel(member.role)}</Badge>
        )}
        {!isYou && canRemove(workspace.role, member.role) && (
          <Button variant="secondary" size="sm" onClick={() => setRemoving(true)} aria-label={`Remove ${member.email}`}>
            Remove
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={removing}
        title={`Remove ${who}?`}
        confirmLabel="Remove member"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate({ id: workspace.id, userId: member.userId }, { onSuccess: () => setRemoving(false) })}
        onClose={() => {
          setRemoving(false);
          remove.reset();
        }}
      >
        <p>
          {member.email} loses access to {workspace.name} at once: their API tokens made here are revoked and their running
          searches here are cancelled (the history keeps them).
        </p>
      </ConfirmDialog>
    </li>
  );
}
