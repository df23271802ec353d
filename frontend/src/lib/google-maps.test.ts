import { describe, expect, it } from 'vitest';
import { googleMapsUrl } from './google-maps';

describe('googleMapsUrl', () => {
  it("is Google's documented search URL with the name and the place id", () => {
    expect(googleMapsUrl({ name: 'Joe’s Diner & Bar', placeId: 'ChIJN1t_tDeuEmsRUsoyG83frY4' })).toBe(
      'https://www.google.com/maps/search/?api=1&query=Joe%E2%80%99s%20Diner%20%26%20Bar&query_place_id=ChIJN1t_tDeuEmsRUsoyG83frY4',
    );
  });

  it('encodes what would break the query: + # ? = and slashes', () => {
    const url = new URL(googleMapsUrl({ name: 'A+B #1 / C?=D', placeId: 'p1' }));
    expect(url.searchParams.get('query')).toBe('A+B #1 / C?=D');
    expect(url.searchParams.get('query_place_id')).toBe('p1');
    expect(url.searchParams.get('api')).toBe('1');
  });
});
