import type { SearchEvent } from '../api/gen/model/searchEvent';
import { toContacts, type Contacts } from './contacts';

// The events of a search stream (spec section 4): declared once, in the server's core
// (`SearchEvent`), stated in openapi.json as a union told apart by `type`, and typed
// here by the client orval generates from it.
export type { SearchEvent };

/** The event of one kind, e.g. `EventOf<'progress'>`. */
export type EventOf<K extends SearchEvent['type']> = Extract<SearchEvent, { type: K }>;

// Every kind the contract lists, and no other: the compiler holds this to the union.
const KINDS: Record<SearchEvent['type'], true> = {
  start: true,
  business_found: true,
  lead_enriched: true,
  progress: true,
  complete: true,
  error: true,
  reconnect: true,
};

/**
 * A stream payload as a search event, or null to ignore it: not an object, or a kind
 * this web app does not know (a newer server may add kinds; old pages skip them).
 */
export function toSearchEvent(data: unknown): SearchEvent | null {
  if (typeof data !== 'object' || data === null) return null;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' && Object.hasOwn(KINDS, type) ? (data as SearchEvent) : null;
}

/**
 * What a `lead_enriched` event says the lead's site publishes (flat on the wire). The
 * links come from third-party sites, so only http(s) addresses are kept ({@link toContacts}).
 */
export function enrichedContacts(event: EventOf<'lead_enriched'>): Contacts {
  return toContacts(event) ?? { emails: [], socials: {} };
}
