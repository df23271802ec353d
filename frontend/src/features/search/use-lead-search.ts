import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { Lead, SearchQuery } from '../../lib/lead';
import { clearLiveSearch, readLiveSearch, watchedSearches, writeLiveSearch } from '../../lib/live-search-store';
import { streamSearchEvents } from '../../lib/search-replay';
import { StreamError } from '../../lib/sse-stream';
import { streamLeadSearch } from './search-api';
import { toSearchEvent, type EventOf, type SearchEvent } from '../../lib/search-event';
import { initialSearchState, restoredSearchState, searchReducer, type SearchAction, type SearchState } from './search-reducer';

type OnData = (data: unknown, id?: string) => void;
type OnSearchId = (searchId: string) => void;
/** Starts a search; `onSearchId` hears its id as soon as the server names it (before any event). */
export type StreamFn = (query: SearchQuery, onData: OnData, signal?: AbortSignal, onSearchId?: OnSearchId) => Promise<void>;
/** Reads a search's events again after `lastEventId` (`GET /api/leads/searches/{id}/events`). */
export type ResumeFn = (searchId: string, lastEventId: string | undefined, onData: OnData, signal?: AbortSignal) => Promise<void>;

/**
 * Runs `flush` soon (the next animation frame) and returns a function that cancels it.
 * Events that arrive meanwhile are handed over together: one render a frame, however
 * many leads the stream sent (issue #26 item 6).
 */
export type ScheduleFlush = (flush: () => void) => () => void;

/** The longest a batch waits when no frame comes (a background tab pauses frames), ms. */
const FLUSH_FALLBACK_MS = 100;

/** The next animation frame, or {@link FLUSH_FALLBACK_MS} when frames are paused, whichever comes first. */
export const nextFrame: ScheduleFlush = (flush) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    flush();
  };
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(once) : null;
  const timer = setTimeout(once, FLUSH_FALLBACK_MS);
  return () => {
    done = true;
    if (frame !== null) cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};

/** Waits before each reconnection attempt, ms; after the last one the search is reported failed. */
export const RECONNECT_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 15000];

export interface UseLeadSearchOptions {
  /** Called once a search completes (e.g. to refresh usage). */
  onComplete?: (event: EventOf<'complete'>) => void;
  /** The stream reader; injectable for tests. */
  stream?: StreamFn;
  /** The events reader used to reconnect; injectable for tests. */
  resume?: ResumeFn;
  /** Delays between reconnection attempts (tests pass zeros). */
  reconnectDelaysMs?: readonly number[];
  /** Finished results to show at first (kept across a re-authentication redirect). */
  restored?: { results: Lead[]; search: SearchQuery } | null;
  /** When queued events are handed to the state (tests count renders with their own). */
  scheduleFlush?: ScheduleFlush;
}

function failureMessage(error: unknown): string {
  if (error instanceof StreamError) return error.message;
  // fetch itself rejected: the request never got an answer.
  if (error instanceof TypeError) return 'Failed to start streaming search';
  if (error instanceof Error && error.message) return error.message;
  return 'Search failed';
}

/**
 * Whether reading the events again may help: the network dropped (fetch or the body read
 * rejected), the stream ended without an outcome, or a server or proxy error (5xx). An
 * answer such as 410 (results gone), 404 or a malformed event is final.
 */
function canRetry(error: unknown): boolean {
  if (error instanceof StreamError) return error.status !== undefined && error.status >= 500;
  return true;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Runs a streaming search and keeps its state (spec section 4, Search). A dropped stream
 * (or a reload: the search id and last event number live in sessionStorage) is read
 * again from `GET .../events` after `Last-Event-ID`, so each lead shows once (issue #13).
 * So is a stream that ends with `reconnect` (its API server is stopping: the search goes
 * on elsewhere). The id comes from the answer's `X-Search-Id` header, so even a search
 * still waiting in the queue (no `start` yet) is picked up again.
 */
export function useLeadSearch({
  onComplete,
  stream = streamLeadSearch,
  resume = streamSearchEvents,
  reconnectDelaysMs = RECONNECT_DELAYS_MS,
  restored = null,
  scheduleFlush = nextFrame,
}: UseLeadSearchOptions = {}): {
  state: SearchState;
  start: (query: SearchQuery) => Promise<void>;
  /** Shows a search that is running (or finished a moment ago) from its events. */
  attach: (searchId: string, query: SearchQuery, lastEventId?: string) => Promise<void>;
  /** Drops finished results (spec section 4: they clear after a successful export). */
  clearResults: () => void;
  /** Stops showing search `searchId` (the user cancelled it): the stream closes, the page goes back to idle. */
  stop: (searchId: string) => void;
} {
  const [state, dispatchNow] = useReducer(searchReducer, restored, (r) =>
    r ? restoredSearchState(r.results, r.search) : initialSearchState,
  );
  const abortRef = useRef<AbortController | null>(null);
  const onCompleteRef = useRef(onComplete);
  const delaysRef = useRef(reconnectDelaysMs);
  const scheduleRef = useRef(scheduleFlush);
  useEffect(() => {
    onCompleteRef.current = onComplete;
    delaysRef.current = reconnectDelaysMs;
    scheduleRef.current = scheduleFlush;
  }, [onComplete, reconnectDelaysMs, scheduleFlush]);

  // Streamed events wait here for the next frame; any other action hands them over
  // first, so the state sees everything in the order it happened.
  const queueRef = useRef<SearchEvent[]>([]);
  const cancelFlushRef = useRef<(() => void) | null>(null);
  const flush = useCallback(() => {
    cancelFlushRef.current?.();
    cancelFlushRef.current = null;
    const events = queueRef.current;
    if (events.length === 0) return;
    queueRef.current = [];
    dispatchNow({ type: 'events', events });
  }, []);
  const dispatch = useCallback(
    (action: SearchAction) => {
      flush();
      dispatchNow(action);
    },
    [flush],
  );
  const queueEvent = useCallback(
    (event: SearchEvent) => {
      queueRef.current.push(event);
      // An outcome shows at once; anything else waits for the frame.
      if (event.type === 'complete' || event.type === 'error') flush();
      else cancelFlushRef.current ??= scheduleRef.current(flush);
    },
    [flush],
  );
  useEffect(() => () => cancelFlushRef.current?.(), []);

  /** Reads `first`, then the search's events again after each drop, until an outcome. */
  const run = useCallback(
    async (
      query: SearchQuery,
      first: (onData: OnData, signal: AbortSignal, onSearchId: OnSearchId) => Promise<void>,
      known?: { searchId: string; lastEventId: string },
    ) => {
      abortRef.current?.abort();
      const controller = new AbortController();
      abortRef.current = controller;
      dispatch({ type: 'begin', query, searchId: known?.searchId ?? null });
      let searchId = known?.searchId ?? '';
      let lastEventId = known?.lastEventId ?? '';
      let finished = false;
      let attempt = 0;
      // A search that ends on this page stays in `watchedSearches` (the user saw it end:
      // no background notice); one left before its end is dropped from it.
      if (searchId) watchedSearches.add(searchId);
      controller.signal.addEventListener('abort', () => {
        if (!finished && searchId) watchedSearches.delete(searchId);
      });
      const settle = () => {
        finished = true;
        clearLiveSearch();
      };
      /** The search's id, first heard (the answer's header, `start` or `reconnect`). */
      const learnId = (id: string) => {
        if (searchId || !id || controller.signal.aborted || finished) return;
        searchId = id;
        watchedSearches.add(id);
        writeLiveSearch({ searchId, lastEventId, query });
        dispatch({ type: 'identified', searchId: id });
      };

      const onData: OnData = (data, id) => {
        if (controller.signal.aborted || finished) return;
        if (id !== undefined && id !== '') {
          // Already shown (a replay never should resend it, but a lead must never show twice).
          if (lastEventId !== '' && Number(id) <= Number(lastEventId)) return;
          lastEventId = id;
        }
        attempt = 0;
        const event = toSearchEvent(data);
        if (!event) return;
        if (event.type === 'start' && event.searchId) {
          searchId = event.searchId;
          watchedSearches.add(searchId);
        }
        // The server stops; the search goes on: the stream ends next and is picked up below.
        if (event.type === 'reconnect') learnId(event.searchId);
        if (event.type === 'complete' || event.type === 'error') settle();
        else if (searchId) writeLiveSearch({ searchId, lastEventId, query });
        queueEvent(event);
        if (event.type === 'complete') onCompleteRef.current?.(event);
      };

      let connect = first;
      for (;;) {
        let failure: unknown = null;
        try {
          await connect(onData, controller.signal, learnId);
        } catch (error) {
          failure = error;
        }
        if (controller.signal.aborted || finished) return;
        if (searchId && canRetry(failure) && attempt < delaysRef.current.length) {
          dispatch({ type: 'reconnecting' });
          await wait(delaysRef.current[attempt] ?? 0, controller.signal);
          attempt += 1;
          if (controller.signal.aborted) return;
          const id = searchId;
          connect = (handler, signal) => resume(id, lastEventId || undefined, handler, signal);
          continue;
        }
        settle();
        dispatch({ type: 'fail', message: failure === null ? 'Stream processing failed' : failureMessage(failure) });
        return;
      }
    },
    [resume, dispatch, queueEvent],
  );

  const start = useCallback(
    (query: SearchQuery) => run(query, (onData, signal, onSearchId) => stream(query, onData, signal, onSearchId)),
    [run, stream],
  );

  const attach = useCallback(
    (searchId: string, query: SearchQuery, lastEventId = '') =>
      run(query, (onData, signal) => resume(searchId, lastEventId || undefined, onData, signal), { searchId, lastEventId }),
    [run, resume],
  );

  // A reload (or coming back to the page) during a search reads on after the last event
  // shown. Leaving the page stops the stream; the server cancels a quick search nobody
  // reads (a background one runs on, and the sessionStorage entry resumes it on return).
  const attachRef = useRef(attach);
  useEffect(() => {
    attachRef.current = attach;
  }, [attach]);
  const restoredAtFirst = useRef(restored !== null);
  useEffect(() => {
    const stored = restoredAtFirst.current ? null : readLiveSearch();
    if (stored) void attachRef.current(stored.searchId, stored.query, stored.lastEventId);
    return () => abortRef.current?.abort();
  }, []);

  const clearResults = useCallback(() => dispatch({ type: 'clearResults' }), [dispatch]);

  // The server ends a cancelled search without a last event on its stream: stop reading.
  const searchIdRef = useRef<string | null>(null);
  useEffect(() => {
    searchIdRef.current = state.status === 'searching' ? state.searchId : null;
  }, [state.status, state.searchId]);
  const stop = useCallback((searchId: string) => {
    if (searchIdRef.current !== searchId) return;
    abortRef.current?.abort();
    // The user ended it here: no "finished" notice for it either.
    watchedSearches.add(searchId);
    clearLiveSearch();
    dispatch({ type: 'clear' });
  }, [dispatch]);

  return { state, start, attach, clearResults, stop };
}
