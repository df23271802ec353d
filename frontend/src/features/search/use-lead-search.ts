import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { Lead, SearchQuery } from '../../lib/lead';
import { StreamError } from '../../lib/sse-stream';
import { streamLeadSearch } from './search-api';
import { toSearchEvent, type SearchEvent } from './search-events';
import { initialSearchState, restoredSearchState, searchReducer, type SearchState } from './search-reducer';

export type StreamFn = (query: SearchQuery, onData: (data: unknown) => void, signal?: AbortSignal) => Promise<void>;

export interface UseLeadSearchOptions {
  /** Called once a search completes (e.g. to refresh usage). */
  onComplete?: (event: Extract<SearchEvent, { type: 'complete' }>) => void;
  /** The stream reader; injectable for tests. */
  stream?: StreamFn;
  /** Finished results to show at first (kept across a re-authentication redirect). */
  restored?: { results: Lead[]; search: SearchQuery } | null;
}

function failureMessage(error: unknown): string {
  if (error instanceof StreamError) return error.message;
  // fetch itself rejected: the request never got an answer.
  if (error instanceof TypeError) return 'Failed to start streaming search';
  if (error instanceof Error && error.message) return error.message;
  return 'Search failed';
}

/** Runs a streaming search and keeps its state (spec section 4, Search). */
export function useLeadSearch({ onComplete, stream = streamLeadSearch, restored = null }: UseLeadSearchOptions = {}): {
  state: SearchState;
  start: (query: SearchQuery) => Promise<void>;
  /** Drops finished results (spec section 4: they clear after a successful export). */
  clearResults: () => void;
} {
  const [state, dispatch] = useReducer(searchReducer, restored, (r) =>
    r ? restoredSearchState(r.results, r.search) : initialSearchState,
  );
  const abortRef = useRef<AbortController | null>(null);
  const onCompleteRef = useRef(onComplete);
  useEffect(() => {
    onCompleteRef.current = onComplete;
  }, [onComplete]);

  // Leaving the page stops the stream; the server cancels a search nobody reads.
  useEffect(() => () => abortRef.current?.abort(), []);

  const start = useCallback(
    async (query: SearchQuery) => {
      abortRef.current?.abort();
      const controller = new AbortController();
      abortRef.current = controller;
      dispatch({ type: 'begin', query });
      let finished = false;
      try {
        await stream(
          query,
          (data) => {
            if (controller.signal.aborted || finished) return;
            const event = toSearchEvent(data);
            if (!event) return;
            if (event.type === 'complete' || event.type === 'error') finished = true;
            dispatch({ type: 'event', event });
            if (event.type === 'complete') onCompleteRef.current?.(event);
          },
          controller.signal,
        );
        if (!finished && !controller.signal.aborted) {
          dispatch({ type: 'fail', message: 'Stream processing failed' });
        }
      } catch (error) {
        if (controller.signal.aborted || finished) return;
        dispatch({ type: 'fail', message: failureMessage(error) });
      }
    },
    [stream],
  );

  const clearResults = useCallback(() => dispatch({ type: 'clearResults' }), []);

  return { state, start, clearResults };
}
