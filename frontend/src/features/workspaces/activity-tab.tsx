import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditEventInfo } from '../../api/gen/model/auditEventInfo';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import type { WorkspaceRole } from '../../api/gen/model/workspaceRole';
import { getListAuditEventsQueryKey, listAuditEvents } from '../../api/gen/workspaces/workspaces';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { useWorkspaces } from './current-workspace';
import { formatTime, personName } from './invitations-section';
import { atLeast, roleLabel } from './workspace-rules';

/** Events asked for a page. */
export const ACTIVITY_PAGE_SIZE = 50;

/**
 * Settings > Workspace > Activity (issue #28 items 6 and 9): the workspace's audit log,
 * newest first, each event in words; "Load more" follows the API's cursor. Admins and
 * owners only (the API's rule; a member is told so rather than shown a refusal).
 */
export function ActivityTab() {
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
  if (!atLeast(current.role, 'admin')) {
    return (
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Activity</h2>
        <p className="mt-1 text-sm text-slate-600">Only the workspace&apos;s admins and owners see its activity.</p>
      </Card>
    );
  }
  return <ActivityLog workspace={current} />;
}

function ActivityLog({ workspace }: { workspace: WorkspaceInfo }) {
  const events = useInfiniteQuery({
    queryKey: [...getListAuditEventsQueryKey(workspace.id), 'pages'],
    queryFn: ({ pageParam, signal }) =>
      listAuditEvents(workspace.id, { limit: ACTIVITY_PAGE_SIZE, ...(pageParam ? { before: pageParam } : {}) }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const all = events.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Activity</h2>
      <p className="mt-1 text-sm text-slate-600">Who did what in {workspace.name}, newest first. Kept a year.</p>
      {events.isPending && (
        <p role="status" className="mt-4 flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading the activity...
        </p>
      )}
      {events.isError && (
        <Banner tone="error" className="mt-4">
          {events.error.message}
        </Banner>
      )}
      {events.isSuccess && all.length === 0 && <p className="mt-4 text-sm text-slate-600">Nothing yet.</p>}
      {all.length > 0 && (
        <ol aria-label="Activity" className="mt-4 divide-y divide-slate-100">
          {all.map((event) => (
            <li key={event.id} className="py-3">
              <p className="text-sm text-slate-900">{eventSentence(event)}</p>
              <p className="text-xs text-slate-600">
                <time dateTime={event.at}>{formatTime(event.at)}</time>
              </p>
            </li>
          ))}
        </ol>
      )}
      {events.hasNextPage && (
        <Button variant="secondary" className="mt-4" disabled={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
          {events.isFetchingNextPage ? 'Loading...' : 'Load more'}
        </Button>
      )}
    </Card>
  );
}

function text(details: Record<string, unknown>, key: string): string | undefined {
  const value = details[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function role(details: Record<string, unknown>, key: string): string {
  const value = text(details, key);
  return value && ['member', 'admin', 'owner'].includes(value) ? roleLabel(value as WorkspaceRole).toLowerCase() : (value ?? 'a role');
}

/** One audit event in words: who did what to what (never a lead's data: the API keeps none). */
export function eventSentence(event: AuditEventInfo): string {
  const who = event.actor ? personName(event.actor) : 'The billing provider';
  const details = (typeof event.details === 'object' && event.details !== null ? event.details : {}) as Record<string, unknown>;
  const target = event.target;
  switch (event.action) {
    case 'key_saved':
      return `${who} saved the Google Places key`;
    case 'key_removed':
      return `${who} removed the Google Places key`;
    case 'invitation_created':
      return `${who} invited ${target} as ${role(details, 'role')}`;
    case 'invitation_revoked':
      return `${who} revoked the invitation of ${target}`;
    case 'invitation_accepted':
      return `${who} joined as ${role(details, 'role')} (invited as ${target})`;
    case 'member_role_changed':
      return `${who} changed the role of ${target} from ${role(details, 'from')} to ${role(details, 'to')}`;
    case 'member_removed':
      return `${who} removed ${target}`;
    case 'member_left':
      return `${who} left the workspace`;
    case 'token_created':
      return `${who} made the API token ${target}`;
    case 'token_revoked':
      return `${who} revoked the API token ${target}`;
    case 'webhook_created':
      return `${who} added the webhook ${target}`;
    case 'webhook_deleted':
      return `${who} deleted the webhook ${target}`;
    case 'plan_changed':
      return `${who} changed the plan to ${text(details, 'plan') ?? target}`;
    case 'search_started': {
      const what = [text(details, 'type'), text(details, 'location') && `in ${text(details, 'location')}`].filter(Boolean).join(' ');
      const client = text(details, 'client');
      return `${who} started a search${what ? ` for ${what}` : ''}${client ? ` (client ${client})` : ''}`;
    }
    case 'export_made': {
      const rows = typeof details.rows === 'number' ? `${details.rows} ` : '';
      const where: Record<string, string> = { google_sheets: ' to Google Sheets', email: ' by email' };
      const to = where[text(details, 'to') ?? ''] ?? '';
      // The worker's deliveries of a finished search (the member's delivery setting).
      const automatic = details.automatic === true ? ' (automatic delivery)' : '';
      return `${who} exported ${rows}leads${to}${automatic}`;
    }
    case 'workspace_created':
      return `${who} created the workspace ${target}`;
    case 'saved_search_created':
      return `${who} saved the search ${text(details, 'name') ?? target}`;
    case 'saved_search_updated':
      return `${who} changed the saved search ${text(details, 'name') ?? target}`;
    case 'saved_search_deleted':
      return `${who} deleted the saved search ${text(details, 'name') ?? target}`;
    case 'saved_search_run':
      return `${event.actor ? who : 'The schedule'} ran the saved search ${text(details, 'name') ?? target}`;
    case 'workspace_renamed':
      return `${who} renamed the workspace${text(details, 'from') ? ` from ${text(details, 'from')}` : ''} to ${target}`;
    case 'place_memory_changed':
      return `${who} turned the place memory ${target === 'off' ? 'off' : 'on'}`;
    case 'place_memory_forgotten': {
      const places = typeof details.places === 'number' ? `${details.places} ` : '';
      return `${who} made the place memory forget ${places}places`;
    }
    default:
      return `${who}: ${String(event.action).replaceAll('_', ' ')} ${target}`;
  }
}
