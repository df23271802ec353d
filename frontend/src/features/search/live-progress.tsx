import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import type { Contacts } from '../../lib/contacts';
import { Spinner } from '../../components/ui/spinner';
import type { SearchProgress } from '../../api/gen/model/searchProgress';
import { progressText } from './search-format';
import { LIVE_NAMES_NOTE_THRESHOLD } from './search-reducer';

export interface LiveProgressProps {
  typeLabel: string;
  location: string;
  names: string[];
  found: number;
  total: number;
  /** A full search's areas, leads and cost so far (its `progress` events). */
  progress?: SearchProgress | null;
  /** An enriched search: the place ids of `names`, in order, and what their sites published so far. */
  liveIds?: string[];
  contacts?: Record<string, Contacts> | null;
  /** Cancels the search, from the card itself (issue #26 item 6); absent: no button. */
  onCancel?: () => void;
  /** The cancel request is on its way. */
  cancelling?: boolean;
}

/** The running search: spinner, count and the latest names (spec section 4). */
export function LiveProgress({
  typeLabel,
  location,
  names,
  found,
  total,
  progress,
  liveIds = [],
  contacts = null,
  onCancel,
  cancelling = false,
}: LiveProgressProps) {
  // A full search measures its way through the areas it has planned (more may be planned later).
  const [done, all] = progress ? [progress.areasFetched, progress.areasPlanned] : [found, total];
  const percent = all > 0 ? Math.min(100, Math.round((done / all) * 100)) : 0;
  return (
    <Card aria-live="polite" aria-busy="true">
      <div className="flex items-start gap-3">
        <Spinner className="mt-1 size-5 text-indigo-600" />
        <div className="min-w-0 flex-1">
          <h2 className="text-lg font-semibold text-slate-900">
            Searching for {typeLabel} in {location}...
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {found > 0 ? `Found ${found}${total > 0 ? ` of ${total}` : ''} businesses so far` : 'Connecting to Google Places...'}
          </p>
          {progress && <p className="mt-1 text-sm text-slate-700 tabular-nums">{progressText(progress)}</p>}
          {onCancel && (
            <Button variant="danger" size="sm" className="mt-3" onClick={onCancel} disabled={cancelling} aria-label={`Cancel search for ${typeLabel} in ${location}`}>
              {cancelling && <Spinner />}
              {cancelling ? 'Cancelling...' : 'Cancel search'}
            </Button>
          )}
          <div className="mt-3 h-2 w-full overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
            <div
              className={all > 0 ? 'h-full rounded-full bg-indigo-600 transition-all' : 'h-full w-1/3 animate-pulse rounded-full bg-indigo-300'}
              style={all > 0 ? { width: `${percent}%` } : undefined}
            />
          </div>
        </div>
      </div>
      {names.length > 0 && (
        <div className="mt-5">
          {names.length > LIVE_NAMES_NOTE_THRESHOLD && (
            <p className="mb-2 text-xs font-medium tracking-wide text-slate-500 uppercase">Showing latest businesses found</p>
          )}
          <ul className="grid gap-1.5 sm:grid-cols-2" aria-label="Businesses found">
            {names.map((name, index) => (
              <li key={`${index}-${name}`} className="flex items-center gap-2 truncate rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-800">
                <span className="size-1.5 shrink-0 rounded-full bg-green-500" aria-hidden="true" />
                <span className="truncate">{name}</span>
                {contacts && <LiveEmail contacts={contacts[liveIds[index] ?? '']} />}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}

/** Beside a streamed name: the first email its website published, as soon as it was read. */
function LiveEmail({ contacts }: { contacts?: Contacts }) {
  const [first, ...more] = contacts?.emails ?? [];
  if (!first) return null;
  return (
    <span className="ml-auto shrink-0 truncate text-xs text-indigo-700" data-testid="live-email">
      {first}
      {more.length > 0 && ` +${more.length}`}
    </span>
  );
}
