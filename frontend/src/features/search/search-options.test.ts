import { describe, expect, it } from 'vitest';
import { buildSearchQuery, defaultSearchOptions, searchFilterLabels, searchOptionsFromQuery } from './search-options';

describe('searchFilterLabels', () => {
  it('names each filter a search was run with, and nothing else', () => {
    expect(searchFilterLabels({ businessType: 'dentist', location: 'Austin' })).toEqual([]);
    expect(searchFilterLabels({ businessType: 'dentist', location: 'Austin', coverage: 'full', maxCostUsd: 3, enrich: true })).toEqual([]);
    expect(
      searchFilterLabels({ businessType: 'dentist', location: 'Austin', minRating: 4.5, minReviews: 1200, website: 'with', phone: 'with' }),
    ).toEqual(['4.5+ stars', 'At least 1,200 reviews', 'Has a website', 'Has a phone number']);
    expect(searchFilterLabels({ businessType: 'dentist', location: 'Austin', minRating: 3.7, minReviews: 1, website: 'without' })).toEqual([
      '3.7+ stars',
      'At least 1 review',
      'No website',
    ]);
  });
});

describe('the exclusion choice (issue #29 item 7)', () => {
  it('sends exclude only when it leaves something out, and reads it back for Run again', () => {
    expect(buildSearchQuery('dentist', 'Austin', defaultSearchOptions)).toEqual({ businessType: 'dentist', location: 'Austin' });
    const seen = buildSearchQuery('dentist', 'Austin', { ...defaultSearchOptions, exclude: 'seen' });
    expect(seen.exclude).toBe('seen');
    expect(searchOptionsFromQuery(seen).exclude).toBe('seen');
    expect(searchOptionsFromQuery({ businessType: 'dentist', location: 'Austin', exclude: 'exported' }).exclude).toBe('exported');
    expect(searchOptionsFromQuery({ businessType: 'dentist', location: 'Austin' }).exclude).toBe('none');
  });
});
