import { Coverage } from '../../api/gen/model/coverage';
import { Exclude } from '../../api/gen/model/exclude';
import { PhoneChoice } from '../../api/gen/model/phoneChoice';
import { WebsiteChoice } from '../../api/gen/model/websiteChoice';
import { optionsEnriched, type SearchQuery } from '../../lib/lead';
import type { AreaRequest } from './search-area';

// The search form's coverage, budget and filters (issue #11), as typed, and the request
// they make: only what the user set is sent, so a plain quick search stays
// `{businessType, location}`.

export interface SearchOptions {
  coverage: Coverage;
  /** "Stop at (USD)", as typed; full searches only. */
  maxCostUsd: string;
  /** '' (any) or a catalogue of floors: '3', '3.5', '4', '4.5'. */
  minRating: string;
  /** As typed; '' is no minimum. */
  minReviews: string;
  website: WebsiteChoice;
  phone: PhoneChoice;
  /** Read each lead's website for emails and social profiles (issue #14). */
  enrich: boolean;
  /** The client the search is run for (an agency's label, issue #28 item 7), as typed; '' is none. */
  client: string;
  /** Which places the workspace's place memory leaves out (issue #29 item 2). */
  exclude: Exclude;
}

export const defaultSearchOptions: SearchOptions = {
  coverage: Coverage.quick,
  maxCostUsd: '',
  minRating: '',
  minReviews: '',
  website: WebsiteChoice.any,
  phone: PhoneChoice.any,
  enrich: false,
  client: '',
  exclude: Exclude.none,
};

/** The exclusion choices (issue #29 item 7): value sent, and what the select shows. */
export const EXCLUDE_CHOICES = [
  { value: Exclude.none, label: 'All places' },
  { value: Exclude.seen, label: 'Only places not seen before' },
  { value: Exclude.exported, label: 'Only places not exported before' },
] as const;

/** The most characters a client label may have (the contract's rule). */
export const CLIENT_MAX = 80;

/** The minimum-rating choices: value sent, and what the select shows. */
export const MIN_RATING_CHOICES = [
  { value: '', label: 'Any rating' },
  { value: '3', label: '3+ stars' },
  { value: '3.5', label: '3.5+ stars' },
  { value: '4', label: '4+ stars' },
  { value: '4.5', label: '4.5+ stars' },
] as const;

export const BUDGET_MESSAGE = 'Enter an amount above $0, or leave it blank';
export const MIN_REVIEWS_MESSAGE = 'Enter a whole number of reviews (0 or more), or leave it blank';

/** What is wrong with the options as typed, field by field (none when both are null). */
export interface SearchOptionErrors {
  maxCostUsd: string | null;
  minReviews: string | null;
}

const blank = (value: string) => value.trim() === '';

export function searchOptionErrors(options: SearchOptions): SearchOptionErrors {
  const budget = Number(options.maxCostUsd.trim());
  const reviews = Number(options.minReviews.trim());
  return {
    maxCostUsd:
      options.coverage === Coverage.full && !blank(options.maxCostUsd) && !(Number.isFinite(budget) && budget > 0)
        ? BUDGET_MESSAGE
        : null,
    minReviews: !blank(options.minReviews) && !(Number.isInteger(reviews) && reviews >= 0) ? MIN_REVIEWS_MESSAGE : null,
  };
}

export function hasOptionErrors(errors: SearchOptionErrors): boolean {
  return errors.maxCostUsd !== null || errors.minReviews !== null;
}

/**
 * The request body for the search and its estimate: only the fields the user set, and the
 * drawn or typed `area` when there is one (issue #30 item 5; the location, optional then,
 * only names the search).
 */
export function buildSearchQuery(businessType: string, location: string, options: SearchOptions, area: AreaRequest | null = null): SearchQuery {
  const query: SearchQuery = { businessType, location: location.trim() };
  if (area) query.area = area;
  if (options.coverage === Coverage.full) {
    query.coverage = Coverage.full;
    if (!blank(options.maxCostUsd)) query.maxCostUsd = Number(options.maxCostUsd.trim());
  }
  if (options.minRating !== '') query.minRating = Number(options.minRating);
  const reviews = blank(options.minReviews) ? 0 : Number(options.minReviews.trim());
  if (reviews > 0) query.minReviews = reviews;
  if (options.website !== WebsiteChoice.any) query.website = options.website;
  if (options.phone !== PhoneChoice.any) query.phone = options.phone;
  if (options.enrich) query.enrich = true;
  if (!blank(options.client)) query.client = options.client.trim();
  if (options.exclude !== Exclude.none) query.exclude = options.exclude;
  return query;
}

/** Whether filters that the estimate does not count (website, phone, reviews) are set. */
export function narrowsEstimate(query: SearchQuery): boolean {
  return query.website !== undefined || query.phone !== undefined || query.minReviews !== undefined;
}

/** The form's options for a request already made (history "Run again"), the inverse of {@link buildSearchQuery}. */
export function searchOptionsFromQuery(query: SearchQuery): SearchOptions {
  return {
    coverage: query.coverage === Coverage.full ? Coverage.full : Coverage.quick,
    maxCostUsd: query.maxCostUsd !== undefined ? String(query.maxCostUsd) : '',
    minRating: query.minRating !== undefined ? String(query.minRating) : '',
    minReviews: query.minReviews ? String(query.minReviews) : '',
    website: query.website === WebsiteChoice.with || query.website === WebsiteChoice.without ? query.website : WebsiteChoice.any,
    phone: query.phone === PhoneChoice.with ? PhoneChoice.with : PhoneChoice.any,
    enrich: query.enrich === true,
    client: query.client ?? '',
    exclude: query.exclude === Exclude.seen || query.exclude === Exclude.exported ? query.exclude : Exclude.none,
  };
}

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * The request a history entry was made with: its type, location and coverage, and the
 * options it stored (filters flat or under `filters`, the budget in camel or snake case,
 * an explicit area, its client), so "Run again" sends the same search.
 */
export function searchQueryFromHistory(entry: {
  businessType: string;
  location: string;
  coverage: string;
  options: unknown;
  client?: string | null;
}): SearchQuery {
  const options = (typeof entry.options === 'object' && entry.options !== null ? entry.options : {}) as Record<string, unknown>;
  const filters = (typeof options.filters === 'object' && options.filters !== null ? options.filters : options) as Record<string, unknown>;
  const query: SearchQuery = { businessType: entry.businessType, location: entry.location };
  if (entry.coverage === Coverage.full) {
    query.coverage = Coverage.full;
    const budget = num(options.maxCostUsd) ?? num(options.max_cost_usd);
    if (budget !== undefined) query.maxCostUsd = budget;
  }
  const minRating = num(filters.minRating);
  if (minRating !== undefined) query.minRating = minRating;
  const minReviews = num(filters.minReviews);
  if (minReviews) query.minReviews = minReviews;
  if (filters.website === WebsiteChoice.with || filters.website === WebsiteChoice.without) query.website = filters.website;
  if (filters.phone === PhoneChoice.with) query.phone = PhoneChoice.with;
  if (optionsEnriched(options)) query.enrich = true;
  if (typeof options.area === 'object' && options.area !== null) query.area = options.area as SearchQuery['area'];
  if (options.exclude === Exclude.seen || options.exclude === Exclude.exported) query.exclude = options.exclude;
  if (entry.client) query.client = entry.client;
  return query;
}

/**
 * The filters a search was run with, in words, for the chips above its results (issue
 * #26 item 7): minimum rating, minimum reviews, website, phone. Empty when none was set.
 */
export function searchFilterLabels(query: SearchQuery): string[] {
  const labels: string[] = [];
  if (query.minRating != null && query.minRating > 0) {
    const choice = MIN_RATING_CHOICES.find((c) => c.value !== '' && Number(c.value) === query.minRating);
    labels.push(choice ? choice.label : `${query.minRating}+ stars`);
  }
  if (query.minReviews != null && query.minReviews > 0) labels.push(`At least ${query.minReviews.toLocaleString('en-US')} ${query.minReviews === 1 ? 'review' : 'reviews'}`);
  if (query.website === WebsiteChoice.with) labels.push('Has a website');
  if (query.website === WebsiteChoice.without) labels.push('No website');
  if (query.phone === PhoneChoice.with) labels.push('Has a phone number');
  return labels;
}
