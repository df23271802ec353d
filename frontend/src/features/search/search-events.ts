import type { CostItem } from '../../api/gen/model/costItem';
import { toContacts, type Contacts } from '../../lib/contacts';
import type { Lead, SearchQuery } from '../../lib/lead';
import type { SearchProgress } from './search-format';

/** Events of the streaming search (spec section 4; design "Events and SSE"; openapi `StreamEvent`). */
export type SearchEvent =
  /** `searchId` (issue #13) names the search for reconnecting, cancelling and the history. */
  | { type: 'start'; businessType: string; location: string; searchId?: string }
  | { type: 'business_found'; name: string; found: number; total: number; lead?: Lead }
  | ({ type: 'progress' } & SearchProgress)
  /** An enriched search (issue #14): what a lead's own website publishes. */
  | { type: 'lead_enriched'; placeId: string; contacts: Contacts }
  | {
      type: 'complete';
      results: Lead[];
      search: SearchQuery;
      usage?: unknown;
      /** What the search cost the user's Google key. */
      cost?: CostItem;
      /** Why it ended before covering everything (`max_cost`, `allowance`). */
      stopReason?: string;
      /** What the user should know about the results, in plain words. */
      notice?: string;
    }
  | { type: 'error'; message: string };

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined);

function toCost(value: unknown): CostItem | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const cost = value as Partial<CostItem>;
  if (typeof cost.costUsd !== 'number' || typeof cost.billableRequests !== 'number') return undefined;
  const requests = (cost.requests ?? {}) as Partial<CostItem['requests']>;
  return {
    costUsd: cost.costUsd,
    billableRequests: cost.billableRequests,
    requests: { idsOnly: count(requests.idsOnly), pro: count(requests.pro), enterprise: count(requests.enterprise) },
  };
}

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
        ...(text(event.searchId) ? { searchId: text(event.searchId) } : {}),
      };
    case 'business_found':
      return {
        type: 'business_found',
        name: String(event.name ?? ''),
        found: Number(event.found ?? 0),
        total: Number(event.total ?? 0),
        lead: event.lead as Lead | undefined,
      };
    case 'progress':
      return {
        type: 'progress',
        areasProbed: count(event.areasProbed),
        areasFetched: count(event.areasFetched),
        areasPlanned: count(event.areasPlanned),
        leads: count(event.leads),
        placesFound: count(event.placesFound),
        billableRequests: count(event.billableRequests),
        costUsd: count(event.costUsd),
        estimatedCostUsd: count(event.estimatedCostUsd),
        estimatedPlaces: count(event.estimatedPlaces),
      };
    case 'lead_enriched': {
      const contacts = toContacts(event);
      const placeId = text(event.placeId);
      return contacts && placeId ? { type: 'lead_enriched', placeId, contacts } : null;
    }
    case 'complete': {
      const cost = toCost(event.cost);
      const stopReason = text(event.stopReason);
      const notice = text(event.notice);
      return {
        type: 'complete',
        results: Array.isArray(event.results) ? (event.results as Lead[]) : [],
        search: (event.search as SearchQuery) ?? { businessType: '', location: '' },
        usage: event.usage,
        ...(cost ? { cost } : {}),
        ...(stopReason ? { stopReason } : {}),
        ...(notice ? { notice } : {}),
      };
    }
    case 'error':
      return {
        type: 'error',
        message: typeof event.message === 'string' && event.message ? event.message : 'Search failed',
      };
    default:
      return null;
  }
}
