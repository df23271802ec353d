import { toContacts } from './contacts';
import type { Lead } from './lead';
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
      if (typeof data !== 'object' || data === null) return;
      const event = data as { type?: unknown; lead?: unknown; results?: unknown; message?: unknown; placeId?: unknown };
      if (event.type === 'business_found' && event.lead && typeof event.lead === 'object') {
        const lead = event.lead as Lead;
        streamed.set(lead.placeId || `${streamed.size}`, lead);
      } else if (event.type === 'lead_enriched' && typeof event.placeId === 'string') {
        // An enriched search that ended early: its leads keep what their sites published.
        const lead = streamed.get(event.placeId);
        const contacts = toContacts(data);
        if (lead && contacts) streamed.set(event.placeId, { ...lead, contacts });
      } else if (event.type === 'complete' && Array.isArray(event.results)) {
        results = event.results as Lead[];
      } else if (event.type === 'error') {
        failure = typeof event.message === 'string' && event.message ? event.message : 'Search failed';
      }
    },
    signal,
  );
  if (results) return results;
  if (streamed.size > 0) return [...streamed.values()];
  throw new StreamError(failure ?? 'This search has no results to download.');
}
