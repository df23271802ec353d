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
export type SearchQuery = SearchRequest & Required<Pick<SearchRequest, 'businessType' | 'location'>>;
