import type { Lead } from './lead';
import { enrichedContacts, toSearchEvent } from './search-event';
import { getSse, StreamError } from './sse-stream';

// A search's events again (issue #13): `GET /api/leads/searches/{id}/events`, tagged
// Stream in openapi.json like the search itself, so read by hand (orval mistypes
// `text/event-stream` bodies). The server keeps them in memory for a few minutes only.

/** Streams search `searchId`'s events after `lastEventId` (from the start without it). */
export function streamSearchEvents(
  searchId: string,
  lastEventId: string | undefined,
  onData: (data: unknown, id: string | undefined) => void,
  signal?: AbortSignal,
): Promise<void> {
  return getSse({
    url: `/api/leads/searches/${encodeURIComponent(searchId)}/events`,
    lastEventId,
    signal,
    onEvent: onData,
  });
}

/**
 * Reads a finished search's events to gather its leads (for a CSV download): the
 * `complete` event's results, or, if the search ended otherwise, each lead streamed
 * (once per place). Throws a {@link StreamError} with the server's words (410 once the
 * results are gone) or when the search failed.
 */
export async function collectSearchLeads(searchId: string, signal?: AbortSignal): Promise<Lead[]> {
  const streamed = new Map<string, Lead>();
  let results: Lead[] | null = null;
  let failure: string | null = null;
  await streamSearchEvents(
    searchId,
    undefined,
    (data) => {
      const event = toSearchEvent(data);
      if (event?.type === 'business_found') {
        streamed.set(event.lead.placeId || `${streamed.size}`, event.lead);
      } else if (event?.type === 'lead_enriched') {
        // An enriched search that ended early: its leads keep what their sites published.
        const lead = streamed.get(event.placeId);
        if (lead) streamed.set(event.placeId, { ...lead, contacts: enrichedContacts(event) });
      } else if (event?.type === 'complete') {
        results = event.results;
      } else if (event?.type === 'error') {
        failure = event.message || 'Search failed';
      }
    },
    signal,
  );
  if (results) return results;
  if (streamed.size > 0) return [...streamed.values()];
  throw new StreamError(failure ?? 'This search has no results to download.');
}
