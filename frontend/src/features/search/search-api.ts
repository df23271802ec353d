import type { SearchQuery } from '../../lib/lead';
import { postSse } from '../../lib/sse-stream';

// The streaming search is the one call orval does not generate (it mistypes
// `text/event-stream` bodies): it is read by hand in lib/sse-stream.ts.

/** The answer header naming the search before any event (even while it waits in the queue). */
export const SEARCH_ID_HEADER = 'X-Search-Id';

/**
 * `POST /api/leads/search-stream`: raw JSON payloads and their event ids go to `onData`;
 * the search's id (the `X-Search-Id` header) to `onSearchId` as soon as the answer comes,
 * so a stream that ends before the search's `start` can still be picked up again.
 */
export function streamLeadSearch(
  query: SearchQuery,
  onData: (data: unknown, id?: string) => void,
  signal?: AbortSignal,
  onSearchId?: (searchId: string) => void,
): Promise<void> {
  return postSse({
    url: '/api/leads/search-stream',
    body: query,
    signal,
    onEvent: onData,
    onOpen: (headers) => {
      const searchId = headers.get(SEARCH_ID_HEADER);
      if (searchId) onSearchId?.(searchId);
    },
  });
}
