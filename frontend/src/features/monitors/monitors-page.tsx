import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import {
  getListSavedSearchesQueryKey,
  useDeleteSavedSearch,
  useGetSearch,
  useListSavedSearches,
  useRunSavedSearch,
  useUpdateSavedSearch,
} from '../../api/gen/leads/leads';
import type { SavedSearchInfo } from '../../api/gen/model/savedSearchInfo';
import { Badge } from '../../components/ui/badge';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { EditMonitorDialog } from './save-monitor-dialog';
import { scheduleInWords } from './schedule';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The Monitors page (issue #29 item 7): each saved search with its schedule in words, its
 * last run and what it found, and run now, pause or resume, delete.
 */
export function MonitorsPage() {
  const monitors = useListSavedSearches({ query: { staleTime: 10_000 } });

  return (
    <section aria-labelledby="monitors-heading" className="space-y-4">
      <div>
        <h2 id="monitors-heading" className="text-xl font-semibold text-slate-900">
          Monitors
        </h2>
        <p className="mt-1 text-sm text-slate-600">Saved searches that run again by themselves and report what is new.</p>
      </div>
      {monitors.isPending && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner /> Loading monitors...
        </p>
      )}
      {monitors.isError && (
        <Banner tone="error" title="Could not load your monitors">
          {monitors.error.message}
        </Banner>
      )}
      {monitors.data && monitors.data.savedSearches.length === 0 && <EmptyMonitors />}
      {monitors.data && monitors.data.savedSearches.length > 0 && (
        <ul className="space-y-4">
          {monitors.data.savedSearches.map((monitor) => (
            <li key={monitor.id}>
              <MonitorCard monitor={monitor} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** What monitors are, and how to make one, while there is none. */
export function EmptyMonitors() {
  return (
    <Card>
      <h3 className="text-base font-semibold text-slate-900">No monitors yet</h3>
      <p className="mt-2 text-sm text-slate-600">
        A monitor is a saved search that runs again on a schedule, daily, weekly or monthly, and sends you only the places that are
        new since it last ran, paying only for them. Set up a search on the dashboard, then choose <strong>Save as monitor</strong>.
      </p>
      <Link to="/dashboard" className="mt-4 inline-block text-sm font-semibold text-indigo-700 hover:text-indigo-600">
        Go to the search form →
      </Link>
    </Card>
  );
}

/** How each channel's last delivery went ("Email: sent, to ada@example.com"), as the API recorded it. */
function LastDeliveries({ monitor }: { monitor: SavedSearchInfo }) {
  const last = monitor.lastDelivery ?? {};
  const channels = [
    ['Email', last.email],
    ['Webhooks', last.webhook],
    ['Google Sheet', last.sheet],
  ] as const;
  const shown = channels.filter(([, outcome]) => outcome);
  if (shown.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5" aria-label={`Last deliveries of ${monitor.name}`}>
      {shown.map(([label, outcome]) => (
        <li key={label} className={outcome!.status === 'failed' ? 'text-red-700' : undefined}>
          {label}: {outcome!.status}
          {outcome!.detail ? `, ${outcome!.detail}` : ''}
        </li>
      ))}
    </ul>
  );
}

function deliveryWords(monitor: SavedSearchInfo): string {
  const ways: string[] = [];
  if (monitor.delivery.email) ways.push(typeof monitor.delivery.email === 'string' ? `email to ${monitor.delivery.email}` : 'email');
  if (monitor.delivery.webhook) ways.push('webhooks');
  if (monitor.delivery.sheet) ways.push('Google Sheet');
  return ways.length ? ways.join(', ') : 'none (see the results in your search history)';
}

/** One monitor: what it searches, when, its last run, and its actions. */
export function MonitorCard({ monitor }: { monitor: SavedSearchInfo }) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: getListSavedSearchesQueryKey() });
  const run = useRunSavedSearch({ mutation: { onSuccess: refresh } });
  const update = useUpdateSavedSearch({ mutation: { onSuccess: refresh } });
  const remove = useDeleteSavedSearch({ mutation: { onSuccess: refresh } });
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const headingId = `monitor-${monitor.id}`;
  const search = monitor.search;

  function togglePause() {
    update.mutate({
      id: monitor.id,
      data: {
        name: monitor.name,
        search: monitor.search,
        schedule: monitor.schedule ?? null,
        onlyNew: monitor.onlyNew,
        delivery: monitor.delivery,
        paused: !monitor.paused,
      },
    });
  }

  const failure = run.error ?? update.error;
  return (
    <Card aria-labelledby={headingId} role="group">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={headingId} className="flex flex-wrap items-center gap-2 text-base font-semibold text-slate-900">
            {monitor.name}
            {monitor.paused && <Badge tone="yellow">Paused</Badge>}
            {monitor.onlyNew && <Badge tone="indigo">Only new places</Badge>}
          </h3>
          <p className="mt-1 text-sm text-slate-600">
            {search.businessType ?? 'Places'}
            {search.location ? ` in ${search.location}` : ''}
            {search.coverage === 'full' ? ' · full area' : ''}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={run.isPending} onClick={() => run.mutate({ id: monitor.id })}>
            {run.isPending && <Spinner />}
            Run now
          </Button>
          {monitor.schedule && (
            <Button variant="secondary" size="sm" disabled={update.isPending} onClick={togglePause}>
              {update.isPending && <Spinner />}
              {monitor.paused ? 'Resume' : 'Pause'}
            </Button>
          )}
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)} aria-label={`Edit ${monitor.name}`}>
            Edit
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setConfirming(true)}>
            Delete
          </Button>
        </div>
      </div>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="font-medium text-slate-800">Schedule</dt>
          <dd className="text-slate-600">
            {scheduleInWords(monitor.schedule)}
            {monitor.nextRunAt && !monitor.paused && <span className="block">Next: {when(monitor.nextRunAt)}</span>}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Last run</dt>
          <dd className="text-slate-600">
            {monitor.lastRunAt ? when(monitor.lastRunAt) : 'Not run yet'}
            {monitor.lastSearchId && <LastRun searchId={monitor.lastSearchId} onlyNew={monitor.onlyNew} />}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-800">Deliveries</dt>
          <dd className="text-slate-600">
            {deliveryWords(monitor)}
            <LastDeliveries monitor={monitor} />
          </dd>
        </div>
      </dl>
      {run.isSuccess && (
        <div role="status" className="mt-3 text-sm text-slate-700">
          <p>
            Started. Follow it in the{' '}
            <Link to="/dashboard" className="font-semibold text-indigo-700 hover:text-indigo-600">
              search history on the dashboard
            </Link>
            .
          </p>
          <div className="flex gap-1">
            This run: <LastRun searchId={run.data.searchId} onlyNew={monitor.onlyNew} />
          </div>
        </div>
      )}
      {failure && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {failure.message}
        </p>
      )}
      {editing && <EditMonitorDialog monitor={monitor} onClose={() => setEditing(false)} />}
      <Modal open={confirming} onClose={() => setConfirming(false)} title={`Delete ${monitor.name}?`}>
        <div className="space-y-4 text-sm text-slate-700">
          <p>It stops running. Its past searches stay in your history.</p>
          {remove.isError && <Banner tone="error">{remove.error.message}</Banner>}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => remove.mutate({ id: monitor.id })}>
              {remove.isPending && <Spinner />}
              Delete monitor
            </Button>
          </div>
        </div>
      </Modal>
    </Card>
  );
}

/**
 * The last run's outcome from the history: its status, and how many (new) places it sent;
 * for a run that left out places it had seen, also how many it found ("3 new of 120 found").
 */
function LastRun({ searchId, onlyNew }: { searchId: string; onlyNew: boolean }) {
  const search = useGetSearch(searchId, {
    query: { refetchInterval: (q) => (q.state.data && (q.state.data.status === 'queued' || q.state.data.status === 'running') ? 3000 : false) },
  });
  const item = search.data;
  if (!item) return null;
  if (item.status === 'queued' || item.status === 'running') return <span className="block">Running...</span>;
  if (item.status === 'failed') return <span className="block text-red-700">Failed{item.errorMessage ? `: ${item.errorMessage}` : ''}</span>;
  if (item.status === 'cancelled') return <span className="block">Cancelled</span>;
  const leads = item.newCount ?? item.leads ?? 0;
  const found = item.foundCount;
  return (
    <span className="block">
      {leads.toLocaleString()} {onlyNew || item.newCount != null ? 'new ' : ''}
      {leads === 1 ? 'place' : 'places'}
      {found != null && ` of ${found.toLocaleString()} found`}
      {item.delivery && <span className="block">Delivery by {item.delivery.kind}: {item.delivery.status}</span>}
    </span>
  );
}
