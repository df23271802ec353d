import type { Lead, SearchQuery } from '../../lib/lead';

/** Events of the streaming search (spec section 4; design "Events and SSE"). */
export type SearchEvent =
  | { type: 'start'; businessType: string; location: string }
  | { type: 'business_found'; name: string; found: number; total: number; lead?: Lead }
  | { type: 'complete'; results: Lead[]; search: SearchQuery; usage?: unknown }
  | { type: 'error'; message: string };

/** Narrows an untrusted stream payload to a known event, or null to ignore it. */
export function toSearchEvent(data: unknown): SearchEvent | null {
  if (typeof data !== 'object' || data === null) return null;
  const event = data as Record<string, unknown>;
  switch (event.type) {
    case 'start':
      return {
        type: 'start',
        businessType: String(event.businessType ?? ''),
        location: String(event.location ?? ''),
      };
    case 'business_found':
      return {
        type: 'business_found',
        name: String(event.name ?? ''),
        found: Number(event.found ?? 0),
        total: Number(event.total ?? 0),
        lead: event.lead as Lead | undefined,
      };
    case 'complete':
      return {
        type: 'complete',
        results: Array.isArray(event.results) ? (event.results as Lead[]) : [],
        search: (event.search as SearchQuery) ?? { businessType: '', location: '' },
        usage: event.usage,
      };
    case 'error':
      return {
        type: 'error',
        message: typeof event.message === 'string' && event.message ? event.message : 'Search failed',
      };
    default:
      return null;
  }
}
