/** One business found by a search (spec section 3). */
export interface Lead {
  name: string;
  address: string;
  /** May be empty. */
  phone?: string | null;
  /** May be empty. */
  website?: string | null;
  placeId: string;
  rating?: number | null;
  reviewCount?: number | null;
}

/** What was searched for. */
export interface SearchQuery {
  businessType: string;
  location: string;
}
