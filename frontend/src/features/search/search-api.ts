import { listBusinessTypes } from '../../api/gen/leads/leads';
import type { SearchQuery } from '../../lib/lead';
import { postSse } from '../../lib/sse-stream';
import type { BusinessTypeGroup } from './business-types';

// The search feature's calls in one place.

export const businessTypesQueryKey = ['/api/leads/business-types'] as const;

/** `GET /api/leads/business-types`, through the generated client. */
export async function fetchBusinessTypes(): Promise<BusinessTypeGroup[]> {
  const answer = await listBusinessTypes();
  return answer.groups;
}

/** `POST /api/leads/search-stream`: raw JSON payloads go to `onData`. */
export function streamLeadSearch(
  query: SearchQuery,
  onData: (data: unknown) => void,
  signal?: AbortSignal,
): Promise<void> {
  return postSse({ url: '/api/leads/search-stream', body: query, signal, onEvent: onData });
}
