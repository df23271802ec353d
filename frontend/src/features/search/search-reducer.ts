import type { CostItem } from '../../api/gen/model/costItem';
import type { SearchCompleteness } from '../../api/gen/model/searchCompleteness';
import type { Contacts } from '../../lib/contacts';
import type { Lead, SearchQuery } from '../../lib/lead';
import type { SearchProgress } from '../../api/gen/model/searchProgress';
import { enrichedContacts, type SearchEvent } from '../../lib/search-event';

/** How many streamed names stay visible (spec section 9). */
export const MAX_LIVE_NAMES = 10;
/** Above this many names the 'Showing latest businesses found' note appears. */
export const LIVE_NAMES_NOTE_THRESHOLD = 5;

export type SearchStatus = 'idle' | 'searching' | 'complete' | 'error';

export interface SearchState {
  status: SearchStatus;
  /** The request being run or last run. */
  query: SearchQuery | null;
  /** Latest streamed business names, oldest first, at most {@link MAX_LIVE_NAMES}. */
  names: string[];
  /** The place ids of {@link names}, in the same order ('' when an event had no lead). */
  liveIds: string[];
  /**
   * Every lead streamed so far, in arrival order: the live table while the search runs
   * (issue #26 item 6). `complete` replaces it with `results`.
   */
  leads: Lead[];
  /** An enriched search: what each lead's website published so far, by place id. */
  contacts: Record<string, Contacts>;
  found: number;
  total: number;
  results: Lead[] | null;
  /** The search the results belong to, as the server echoed it. */
  search: SearchQuery | null;
  error: string | null;
  /** A full search's latest progress (areas, leads, cost so far); null for a quick one. */
  progress: SearchProgress | null;
  /** What the finished search cost the user's Google key. */
  cost: CostItem | null;
  /** Found of Google's count of the area (the completeness meter), when it counted. */
  completeness: SearchCompleteness | null;
  /** The server's words about the results (e.g. why the search stopped early). */
  notice: string | null;
  /**
   * A search with an `exclude` (issue #29): the places new to the workspace (every lead
   * sent) and the matches found, those left out included; null for `exclude: none`.
   */
  newOfFound: { newCount: number; foundCount: number } | null;
  /** The running search's id (the answer's header, or its `start` event), for reconnecting and cancelling. */
  searchId: string | null;
  /** The stream dropped and the hook is reading the search's events again. */
  reconnecting: boolean;
}

export const initialSearchState: SearchState = {
  status: 'idle',
  query: null,
  names: [],
  liveIds: [],
  leads: [],
  contacts: {},
  found: 0,
  total: 0,
  results: null,
  search: null,
  error: null,
  progress: null,
  cost: null,
  completeness: null,
  notice: null,
  newOfFound: null,
  searchId: null,
  reconnecting: false,
};

export type SearchAction =
  | { type: 'begin'; query: SearchQuery; searchId?: string | null }
  /** The stream dropped; the search's events are being read again. */
  | { type: 'reconnecting' }
  /** The server named the running search (before its `start` event, or instead of it). */
  | { type: 'identified'; searchId: string }
  | { type: 'event'; event: SearchEvent }
  /** Several events at once, in order: the hook hands over a frame's worth (issue #26 item 6). */
  | { type: 'events'; events: readonly SearchEvent[] }
  | { type: 'fail'; message: string }
  | { type: 'clear' }
  /** Drops finished results (after an export); a running search is left alone. */
  | { type: 'clearResults' };

/** A finished search shown again, e.g. results kept across a re-authentication redirect. */
export function restoredSearchState(results: Lead[], search: SearchQuery): SearchState {
  return { ...initialSearchState, status: 'complete', query: search, search, results, found: results.length };
}

/** Search state machine: idle -> searching -> complete | error (spec section 4). */
export function searchReducer(state: SearchState, action: SearchAction): SearchState {
  switch (action.type) {
    case 'begin':
      // Starting a search clears the earlier result, error and names.
      return { ...initialSearchState, status: 'searching', query: action.query, searchId: action.searchId ?? null };
    case 'reconnecting':
      return state.status === 'searching' ? { ...state, reconnecting: true } : state;
    case 'identified':
      return state.status === 'searching' && state.searchId === null ? { ...state, searchId: action.searchId } : state;
    case 'fail':
      return { ...state, status: 'error', error: action.message, names: [], reconnecting: false };
    case 'clear':
      return initialSearchState;
    case 'clearResults':
      return state.status === 'complete' ? initialSearchState : state;
    case 'event':
      return applyEvents(state, [action.event]);
    case 'events':
      return applyEvents(state, action.events);
  }
  return state;
}

/**
 * `events` in order. The streamed leads are appended once for the whole batch, so a
 * frame's worth of `business_found` events copies the list once, not once per lead.
 */
function applyEvents(state: SearchState, events: readonly SearchEvent[]): SearchState {
  let next = state;
  const fresh: Lead[] = [];
  for (const event of events) {
    const searching = next.status === 'searching';
    next = applyEvent(next, event);
    if (searching && event.type === 'business_found' && event.lead) fresh.push(event.lead);
  }
  if (fresh.length > 0 && next.status === 'searching') next = { ...next, leads: next.leads.concat(fresh) };
  return next;
}

/** One event of the running search (anything else is ignored). */
function applyEvent(state: SearchState, event: SearchEvent): SearchState {
  if (state.status !== 'searching') return state;
  const base: SearchState = state.reconnecting ? { ...state, reconnecting: false } : state;
  switch (event.type) {
    case 'start':
      return event.searchId && event.searchId !== base.searchId ? { ...base, searchId: event.searchId } : base;
    // Constant work per event (the lead itself is appended by `applyEvents`, once a
    // batch), so a full search's thousands of events cost nothing noticeable.
    case 'business_found':
      return {
        ...base,
        names: [...base.names, event.name].slice(-MAX_LIVE_NAMES),
        liveIds: [...base.liveIds, event.lead?.placeId ?? ''].slice(-MAX_LIVE_NAMES),
        found: event.found,
        total: event.total,
      };
    // One small object per site read; a search has at most a few thousand.
    case 'lead_enriched':
      return { ...base, contacts: { ...base.contacts, [event.placeId]: enrichedContacts(event) } };
    case 'progress': {
      const { type: _type, ...progress } = event;
      return { ...base, progress };
    }
    case 'complete':
      return {
        ...base,
        status: 'complete',
        // `complete` carries each lead's contacts; a lead without them keeps what its
        // `lead_enriched` said.
        results: withContacts(event.results, base.contacts),
        search: event.search.businessType ? { ...base.query, ...event.search } : base.query,
        found: event.results.length,
        cost: event.cost ?? null,
        completeness: event.completeness ?? null,
        notice: event.notice ?? null,
        newOfFound: event.newCount != null && event.foundCount != null ? { newCount: event.newCount, foundCount: event.foundCount } : null,
        leads: [],
      };
    case 'error':
      return { ...base, status: 'error', error: event.message, names: [] };
    // The stream ends, the search goes on (its server is stopping): the hook reconnects.
    case 'reconnect':
      return base.searchId === null ? { ...base, searchId: event.searchId } : base;
  }
}

/** `results` with the contacts streamed for leads that arrived without them. */
export function withContacts(results: Lead[], contacts: Record<string, Contacts>): Lead[] {
  if (Object.keys(contacts).length === 0) return results;
  return results.map((lead) => (lead.contacts || !contacts[lead.placeId] ? lead : { ...lead, contacts: contacts[lead.placeId] }));
}
