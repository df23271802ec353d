import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { getGetSearchQueryOptions, useListSearches } from '../../api/gen/leads/leads';
import type { SearchItem } from '../../api/gen/model/searchItem';
import { Button } from '../../components/ui/button';
import { useWhenIdle } from '../../hooks/use-when-idle';
import { watchedSearches } from '../../lib/live-search-store';

// Telling the user when a background search finishes (issue #13): the signed-in layout
// looks at the running searches (often while one runs, rarely otherwise); one that stops
// running and that no page is streaming gets an in-app notice, and the browser's
// notification when the user allowed it (asked only from the toggle, on a click).

const RUNNING = { status: 'running', limit: 20 } as const;

function canNotify(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** What the notice says about a finished search. */
export function finishedText(item: SearchItem): string {
  const what = `${item.businessType.replace(/_/g, ' ')} in ${item.location}`;
  const leads = (item.leads ?? 0).toLocaleString();
  if (item.status === 'complete' && item.stopReason === 'allowance')
    return `Your search for ${what} stopped at today's lead limit: ${leads} leads.`;
  if (item.status === 'complete' && item.stopReason === 'max_cost') return `Your search for ${what} stopped at its budget: ${leads} leads.`;
  if (item.status === 'complete') return `Your search for ${what} finished: ${leads} leads.`;
  if (item.status === 'cancelled') return `Your search for ${what} was cancelled.`;
  return `Your search for ${what} failed${item.errorMessage ? `: ${item.errorMessage}` : '.'}`;
}

/** Watches running searches and shows a notice when one finishes while nobody streams it. */
export function SearchFinishedNotices({
  intervalMs = 5000,
  idleIntervalMs = 30000,
  startAfterMs = 3000,
}: {
  intervalMs?: number;
  idleIntervalMs?: number;
  /** Longest wait for the page to be idle before the first look. */
  startAfterMs?: number;
}) {
  const queryClient = useQueryClient();
  // Not part of a page's first load: the first look waits until the page has painted.
  const idle = useWhenIdle(startAfterMs);
  const running = useListSearches(RUNNING, {
    query: {
      enabled: idle,
      refetchInterval: (query) => ((query.state.data?.searches.length ?? 0) > 0 ? intervalMs : idleIntervalMs),
      refetchIntervalInBackground: true,
      retry: false,
    },
  });
  const known = useRef<Set<string> | null>(null);
  const [notices, setNotices] = useState<SearchItem[]>([]);

  useEffect(() => {
    const data = running.data;
    if (!data) return;
    const now = new Set(data.searches.map((item) => item.id));
    const before = known.current;
    known.current = now;
    if (!before) return;
    for (const id of before) {
      if (now.has(id) || watchedSearches.has(id)) continue;
      void queryClient.fetchQuery({ ...getGetSearchQueryOptions(id), staleTime: 0 }).then(
        (item) => {
          if (item.status === 'running' || item.status === 'queued' || watchedSearches.has(id)) return;
          setNotices((list) => (list.some((n) => n.id === id) ? list : [...list, item]));
          if (canNotify() && Notification.permission === 'granted') {
            try {
              new Notification('Leadgen search finished', { body: finishedText(item), tag: `search-${id}` });
            } catch {
              // Some browsers only notify from a service worker: the in-app notice stays.
            }
          }
        },
        () => undefined,
      );
    }
  }, [running.data, queryClient]);

  if (notices.length === 0) return null;
  return (
    <aside aria-label="Search notices" className="fixed right-4 bottom-4 z-40 w-[min(24rem,calc(100vw-2rem))] space-y-2">
      {notices.map((item) => (
        <div key={item.id} role="status" className="rounded-xl bg-white p-4 shadow-lg ring-1 ring-slate-200">
          <p className="text-sm font-medium text-slate-900">{finishedText(item)}</p>
          <div className="mt-2 flex items-center gap-3">
            <Link to="/dashboard" className="text-sm font-semibold text-indigo-700 hover:text-indigo-600">
              View in history
            </Link>
            <Button variant="ghost" size="sm" onClick={() => setNotices((list) => list.filter((n) => n.id !== item.id))}>
              Dismiss
            </Button>
          </div>
        </div>
      ))}
    </aside>
  );
}

/** Asks for the browser's notifications, on a click only, while the user has not chosen. */
export function NotifyToggle() {
  const [permission, setPermission] = useState(() => (canNotify() ? Notification.permission : 'denied'));
  if (permission !== 'default') return null;
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={() => {
        void Notification.requestPermission().then(setPermission, () => undefined);
      }}
    >
      Notify me when searches finish
    </Button>
  );
}
