import type { Lead } from '../../lib/lead';

// The results table's own sorting and filtering (issue #26 item 7): over what the page
// already holds, nothing sent to the server. Pure functions, so a 3,000-lead search is
// one pass to filter and one sort, recomputed only when the view's settings change.

/** A column the results can be sorted by. */
export type SortKey = 'name' | 'address' | 'phone' | 'website' | 'rating' | 'reviews' | 'email';
export type SortDirection = 'ascending' | 'descending';

/** The order shown: null is the search's own (Google's relevance, then areas in order). */
export type LeadSort = { key: SortKey; direction: SortDirection } | null;

/** Column labels, also the sort choices on a phone. */
export const SORT_LABELS: Record<SortKey, string> = {
  name: 'Name',
  address: 'Address',
  phone: 'Phone',
  website: 'Website',
  rating: 'Rating',
  reviews: 'Reviews',
  email: 'Email',
};

/** Numbers read best high to low first; text A to Z. */
export const FIRST_DIRECTION: Record<SortKey, SortDirection> = {
  name: 'ascending',
  address: 'ascending',
  phone: 'ascending',
  website: 'ascending',
  rating: 'descending',
  reviews: 'descending',
  email: 'ascending',
};

/**
 * The sort after a click on `key`'s header: its first direction, then the other, then
 * back to the search's own order.
 */
export function nextSort(current: LeadSort, key: SortKey): LeadSort {
  if (current?.key !== key) return { key, direction: FIRST_DIRECTION[key] };
  if (current.direction === FIRST_DIRECTION[key]) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return null;
}

/** The table's filters. */
export interface LeadFilter {
  /** Words to find in the name, address, phone, website or emails ('' for all). */
  text: string;
  /** Lowest rating shown (0 for any); unrated leads are left out when set. */
  minRating: number;
  hasWebsite: boolean;
  hasPhone: boolean;
  /** Enriched searches only: at least one email found on the lead's site. */
  hasEmail: boolean;
}

export const NO_FILTER: LeadFilter = { text: '', minRating: 0, hasWebsite: false, hasPhone: false, hasEmail: false };

export function isFiltering(filter: LeadFilter): boolean {
  return filter.text.trim() !== '' || filter.minRating > 0 || filter.hasWebsite || filter.hasPhone || filter.hasEmail;
}

const emailsOf = (lead: Lead): string[] => lead.contacts?.emails ?? [];

/** What the text filter searches in, lower-cased. */
export function searchableText(lead: Lead): string {
  return [lead.name, lead.address, lead.phone, lead.website, ...emailsOf(lead)].join('\n').toLowerCase();
}

/**
 * The leads `filter` keeps, in their order. `haystacks` (from {@link searchableText},
 * one per lead) saves lower-casing every lead on each keystroke.
 */
export function filterLeads(leads: readonly Lead[], filter: LeadFilter, haystacks?: readonly string[]): Lead[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  return leads.filter((lead, index) => {
    if (filter.hasWebsite && !lead.website) return false;
    if (filter.hasPhone && !lead.phone) return false;
    if (filter.hasEmail && emailsOf(lead).length === 0) return false;
    if (filter.minRating > 0 && !(lead.rating != null && lead.rating >= filter.minRating)) return false;
    if (words.length > 0) {
      const haystack = haystacks?.[index] ?? searchableText(lead);
      if (!words.every((word) => haystack.includes(word))) return false;
    }
    return true;
  });
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
/** Digit strings compared digit by digit (a phone's digits are not one number). */
const plainOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function sortValue(lead: Lead, key: SortKey): string | number | null {
  switch (key) {
    case 'rating':
      return lead.rating ?? null;
    case 'reviews':
      return lead.reviewCount ?? null;
    case 'email':
      return emailsOf(lead)[0] || null;
    case 'phone':
      // By the digits, so `(512) 555-0100` and `512-555-0100` sort together.
      return lead.phone ? lead.phone.replace(/\D/g, '') : null;
    case 'website':
      return lead.website ? lead.website.replace(/^https?:\/\/(www\.)?/i, '') : null;
    default:
      return lead[key] || null;
  }
}

/**
 * The leads in `sort`'s order; leads without a value (no phone, unrated) last in either
 * direction, and ties in the search's own order.
 */
export function sortLeads(leads: readonly Lead[], sort: LeadSort): Lead[] {
  if (!sort) return [...leads];
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const keyed = leads.map((lead, index) => ({ lead, index, value: sortValue(lead, sort.key) }));
  keyed.sort((a, b) => {
    if (a.value === null || b.value === null) {
      if (a.value === b.value) return a.index - b.index;
      return a.value === null ? 1 : -1;
    }
    const order =
      typeof a.value === 'number' && typeof b.value === 'number'
        ? a.value - b.value
        : sort.key === 'phone'
          ? plainOrder(String(a.value), String(b.value))
          : collator.compare(String(a.value), String(b.value));
    return order === 0 ? a.index - b.index : sign * order;
  });
  return keyed.map(({ lead }) => lead);
}
