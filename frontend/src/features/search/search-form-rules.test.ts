import { describe, expect, it } from 'vitest';
import { canStartSearch, MISSING_AREA_MESSAGE, MISSING_FIELDS_MESSAGE, MISSING_KEY_MESSAGE, searchSubmitError } from './search-form-rules';

const ok = { businessType: 'restaurant', location: 'Austin, TX', hasApiKey: true, isSearching: false };

describe('canStartSearch', () => {
  it('is true when every rule holds', () => {
    expect(canStartSearch(ok)).toBe(true);
  });
  it.each([
    ['no business type', { businessType: '' }],
    ['blank location', { location: '   ' }],
    ['no API key', { hasApiKey: false }],
    ['a search running', { isSearching: true }],
  ])('is false with %s', (_label, change) => {
    expect(canStartSearch({ ...ok, ...change })).toBe(false);
  });
});

describe('searchSubmitError', () => {
  it('asks for type and location first', () => {
    expect(searchSubmitError({ businessType: '', location: 'x', hasApiKey: false })).toBe(MISSING_FIELDS_MESSAGE);
    expect(searchSubmitError({ businessType: 'cafe', location: ' ', hasApiKey: true })).toBe(
      'Please select a business type and enter a location',
    );
  });
  it('then asks for the API key', () => {
    expect(searchSubmitError({ businessType: 'cafe', location: 'Paris', hasApiKey: false })).toBe(
      'Please add your Google Places API key in Settings before searching',
    );
    expect(MISSING_KEY_MESSAGE).toBe('Please add your Google Places API key in Settings before searching');
  });
  it('passes a complete form', () => {
    expect(searchSubmitError({ businessType: 'cafe', location: 'Paris', hasApiKey: true })).toBeNull();
  });
});

describe('with an area drawn on a map (issue #30 item 5)', () => {
  it('needs the area, not the location', () => {
    expect(canStartSearch({ ...ok, location: '', drawing: { hasArea: true } })).toBe(true);
    expect(canStartSearch({ ...ok, drawing: { hasArea: false } })).toBe(false);
    expect(searchSubmitError({ businessType: 'cafe', location: 'Paris', hasApiKey: true, drawing: { hasArea: false } })).toBe(MISSING_AREA_MESSAGE);
    expect(searchSubmitError({ businessType: 'cafe', location: '', hasApiKey: true, drawing: { hasArea: true } })).toBeNull();
    expect(searchSubmitError({ businessType: 'cafe', location: '', hasApiKey: false, drawing: { hasArea: true } })).toBe(MISSING_KEY_MESSAGE);
  });
});
