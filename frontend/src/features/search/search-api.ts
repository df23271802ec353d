import type { SearchQuery } from '../../lib/lead';
import { postSse } from '../../lib/sse-stream';

// The streaming search is the one call orval does not generate (it mistypes
// `text/event-stream` bodies): it is read by hand in lib/sse-stream.ts.

/** `POST /api/leads/search-stream`: raw JSON payloads and their event ids go to `onData`. */
export function streamLeadSearch(
  query: SearchQuery,
  onData: (data: unknown, id?: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  return postSse({ url: '/api/leads/search-stream', body: query, signal, onEvent: onData });
}
