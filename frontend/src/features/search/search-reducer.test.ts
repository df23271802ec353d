import { describe, expect, it } from 'vitest';
import { toSearchEvent } from './search-events';
import { initialSearchState, MAX_LIVE_NAMES, restoredSearchState, searchReducer, type SearchState } from './search-reducer';

const query = { businessType: 'cafe', location: 'Paris' };
const searching = searchReducer(initialSearchState, { type: 'begin', query });
const found = (state: SearchState, n: number) =>
  searchReducer(state, { type: 'event', event: { type: 'business_found', name: `Biz ${n}`, found: n, total: 20 } });

describe('searchReducer', () => {
  it('clears the earlier result, error and names when a search begins', () => {
    const old: SearchState = { ...initialSearchState, status: 'error', error: 'boom', names: ['A'], results: [] };
    expect(searchReducer(old, { type: 'begin', query })).toEqual({ ...initialSearchState, status: 'searching', query });
  });

  it('keeps only the last 10 names', () => {
    let state = searching;
    for (let n = 1; n <= 13; n += 1) state = found(state, n);
    expect(state.names).toHaveLength(MAX_LIVE_NAMES);
    expect(state.names[0]).toBe('Biz 4');
    expect(state.names[9]).toBe('Biz 13');
    expect(state.found).toBe(13);
    expect(state.total).toBe(20);
  });

  it('completes with the results and the echoed search', () => {
    const lead = { name: 'A', address: 'x', phone: '', website: '', placeId: 'p' };
    const state = searchReducer(found(searching, 1), {
      type: 'event',
      event: { type: 'complete', results: [lead], search: { businessType: 'cafe', location: 'Paris, FR' } },
    });
    expect(state.status).toBe('complete');
    expect(state.results).toEqual([lead]);
    expect(state.search).toEqual({ businessType: 'cafe', location: 'Paris, FR' });
  });

  it('an error event shows its message and clears the names', () => {
    const state = searchReducer(found(searching, 1), { type: 'event', event: { type: 'error', message: 'Quota exhausted' } });
    expect(state).toMatchObject({ status: 'error', error: 'Quota exhausted', names: [] });
  });

  it('ignores events once the search is over', () => {
    const failed = searchReducer(searching, { type: 'fail', message: 'x' });
    expect(found(failed, 1)).toBe(failed);
  });

  it('shows restored results as a finished search, which clearResults drops', () => {
    const lead = { name: 'A', address: 'x', phone: '', website: '', placeId: 'p' };
    const restored = restoredSearchState([lead], { businessType: 'cafe', location: 'Austin' });
    expect(restored).toMatchObject({ status: 'complete', results: [lead], found: 1, search: { businessType: 'cafe', location: 'Austin' } });
    expect(searchReducer(restored, { type: 'clearResults' })).toEqual(initialSearchState);
  });

  it('clearResults leaves a running search alone', () => {
    expect(searchReducer(searching, { type: 'clearResults' })).toBe(searching);
  });
});

describe('toSearchEvent', () => {
  it('narrows known events and ignores others', () => {
    expect(toSearchEvent({ type: 'business_found', name: 'A', found: 1, total: 2 })).toMatchObject({ type: 'business_found', name: 'A' });
    expect(toSearchEvent({ type: 'error' })).toEqual({ type: 'error', message: 'Search failed' });
    expect(toSearchEvent({ type: 'ping' })).toBeNull();
    expect(toSearchEvent('nope')).toBeNull();
  });
});
