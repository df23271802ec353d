import type { LeadItem } from '../api/gen/model/leadItem';
import type { SearchRequest } from '../api/gen/model/searchRequest';

/**
 * One business found by a search (spec section 3): the API's `LeadItem`, which the
 * stream's `business_found` and `complete` events carry too.
 */
export type Lead = LeadItem;

/**
 * What was searched for: the API's `SearchRequest` with the business type and the
 * location given; coverage, budget and filters stay optional (sent only when set).
 */
// The document lets a client send `null` for any optional request field; a query the
// app runs always has both of these as text.
export type SearchQuery = SearchRequest & { businessType: string; location: string };

/** Whether a search read its leads' websites for emails and social profiles (issue #14). */
export function isEnriched(query: SearchRequest | null | undefined): boolean {
  return query?.enrich === true;
}

/** Whether a history entry's stored options (the request's, issue #13) asked for enrichment. */
export function optionsEnriched(options: unknown): boolean {
  return typeof options === 'object' && options !== null && (options as { enrich?: unknown }).enrich === true;
}
