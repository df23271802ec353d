import { describe, expect, it } from 'vitest';
import type { UsageStats } from '../../api/gen/model/usageStats';
import type { Lead } from '../../lib/lead';
import { toSearchEvent, type EventOf } from '../../lib/search-event';
import { initialSearchState, MAX_LIVE_NAMES, restoredSearchState, searchReducer, type SearchState } from './search-reducer';

const query = { businessType: 'cafe', location: 'Paris' };
const searching = searchReducer(initialSearchState, { type: 'begin', query });
const bizLead = (n: number): Lead => ({ name: `Biz ${n}`, address: 'x', phone: '', website: '', placeId: `p${n}` });
const found = (state: SearchState, n: number) =>
  searchReducer(state, { type: 'event', event: { type: 'business_found', name: `Biz ${n}`, found: n, total: 20, lead: bizLead(n) } });
const usage: UsageStats = {
  usage: { current: 1, limit: 100, remaining: 99, percentage: 1, leadsThisMonth: 0, leadsToday: 0, dailyLeadLimit: null },
  period: { resetDate: '2025-02-01', daysUntilReset: 9 },
  apiKey: { configured: true, lastUpdated: null },
  tier: { current: 'free', name: 'Free' },
  status: { isOverLimit: false, isNearLimit: false, isApproachingLimit: false },
  recommendations: [],
};
/** A `complete` event as the server writes one. */
const complete = (results: Lead[], search: { businessType: string; location: string } = query): EventOf<'complete'> => ({
  type: 'complete',
  results,
  search,
  usage,
});

describe('searchReducer', () => {
  it('keeps what each lead\'s site published and gives it to the results', () => {
    const enriched = searchReducer(initialSearchState, { type: 'begin', query: { ...query, enrich: true } });
    const lead = { name: 'A', address: 'x', phone: '', website: 'https://a.example', placeId: 'pa' };
    let state = searchReducer(enriched, { type: 'event', event: { type: 'business_found', name: 'A', found: 1, total: 1, lead } });
    expect(state.liveIds).toEqual(['pa']);
    const raw = { type: 'lead_enriched', placeId: 'pa', emails: ['hi@a.example', 7], socials: { x: 'https://x.com/a', foo: 'bar' }, contactPage: null };
    const event = toSearchEvent(raw);
    expect(event).toBe(raw);
    state = searchReducer(state, { type: 'event', event: event! });
    // Only what the contract allows is kept: text emails, known networks, no null page.
    expect(state.contacts.pa).toEqual({ emails: ['hi@a.example'], socials: { x: 'https://x.com/a' } });
    state = searchReducer(state, {
      type: 'event',
      event: complete([lead], { businessType: 'cafe', location: 'Paris' }),
    });
    expect(state.results?.[0].contacts?.emails).toEqual(['hi@a.example']);
    expect(state.search).toEqual({ businessType: 'cafe', location: 'Paris', enrich: true });
  });

  it('collects the streamed leads for the live table, a batch at a time, and drops them at complete', () => {
    const lead = (n: number) => ({ name: `Biz ${n}`, address: 'x', phone: '', website: '', placeId: `p${n}` });
    const batch = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => ({ type: 'business_found' as const, name: `Biz ${from + i}`, found: from + i, total: 20, lead: lead(from + i) }));
    let state = searchReducer(searching, { type: 'events', events: batch(1, 12) });
    expect(state.leads.map((l) => l.placeId)).toEqual(batch(1, 12).map((e) => e.lead.placeId));
    expect(state).toMatchObject({ found: 12, names: batch(3, 12).map((e) => e.name) });
    const before = state.leads;
    state = searchReducer(state, { type: 'events', events: [...batch(13, 14), complete([lead(1)]), ...batch(15, 15)] });
    // The earlier array is left as it was (React compares by reference).
    expect(before).toHaveLength(12);
    expect(state).toMatchObject({ status: 'complete', found: 1, leads: [] });
  });

  it("keeps the completeness meter's last reading from `complete`", () => {
    const searching = searchReducer(initialSearchState, { type: 'begin', query });
    const meter = { found: 1487, expected: 1500, source: 'google_aggregate' as const };
    const state = searchReducer(searching, { type: 'event', event: { ...complete([]), completeness: meter } });
    expect(state.completeness).toEqual(meter);
    expect(searchReducer(state, { type: 'begin', query }).completeness).toBeNull();
  });

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
      event: complete([lead], { businessType: 'cafe', location: 'Paris, FR' }),
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
  it('passes the contract\'s kinds through and ignores others', () => {
    const found = { type: 'business_found', name: 'A', found: 1, total: 2 };
    expect(toSearchEvent(found)).toBe(found);
    for (const type of ['start', 'lead_enriched', 'progress', 'complete', 'error']) expect(toSearchEvent({ type })).not.toBeNull();
    // A kind a newer server adds, names inherited from Object, and non-objects.
    for (const data of [{ type: 'ping' }, { type: 'toString' }, { type: 'constructor' }, {}, 'nope', null, 7]) expect(toSearchEvent(data)).toBeNull();
  });
});

describe('full coverage events', () => {
  const progress = {
    type: 'progress',
    areasProbed: 30,
    areasFetched: 4,
    areasPlanned: 10,
    leads: 80,
    placesFound: 300,
    billableRequests: 5,
    costUsd: 0.18,
    estimatedCostUsd: 2.7,
    estimatedPlaces: 1500,
  } as const;

  it('keeps the latest progress; complete keeps the cost and the notice', () => {
    const event = toSearchEvent(progress);
    expect(event).toEqual(progress);
    const running = searchReducer(searching, { type: 'event', event: event! });
    expect(running.progress).toMatchObject({ areasFetched: 4, areasPlanned: 10, costUsd: 0.18 });

    const complete = toSearchEvent({
      type: 'complete',
      results: [],
      search: query,
      cost: { requests: { idsOnly: 30, pro: 1, enterprise: 4 }, billableRequests: 5, costUsd: 0.18 },
      stopReason: 'max_cost',
      notice: 'Stopped at your $0.20 budget: the search covered part of the area.',
    });
    const done = searchReducer(running, { type: 'event', event: complete! });
    expect(done).toMatchObject({
      status: 'complete',
      cost: { billableRequests: 5, costUsd: 0.18, requests: { idsOnly: 30, pro: 1, enterprise: 4 } },
      notice: 'Stopped at your $0.20 budget: the search covered part of the area.',
    });
    // A new search forgets them.
    expect(searchReducer(done, { type: 'begin', query })).toMatchObject({ progress: null, cost: null, notice: null });
  });

  it('a quick search: cost without notice; an older server\'s complete without cost', () => {
    const cost = { requests: { idsOnly: 0, pro: 0, enterprise: 1 }, billableRequests: 1, costUsd: 0.035 };
    const quick = searchReducer(searching, { type: 'event', event: toSearchEvent({ type: 'complete', results: [], search: query, cost })! });
    expect(quick).toMatchObject({ status: 'complete', cost, notice: null });
    const older = searchReducer(searching, { type: 'event', event: toSearchEvent({ type: 'complete', results: [], search: query })! });
    expect(older).toMatchObject({ status: 'complete', cost: null, notice: null });
  });

  it('3,000 business_found and progress events reduce in well under a second', () => {
    const lead = (n: number) => ({ name: `Dentist ${n}`, address: `${n} Main St`, phone: '', website: '', placeId: `p${n}` });
    const events = Array.from({ length: 3000 }, (_, i) => ({ type: 'business_found', name: `Dentist ${i + 1}`, found: i + 1, total: 3000, lead: lead(i + 1) }));
    const started = performance.now();
    let state = searching;
    events.forEach((data, i) => {
      state = searchReducer(state, { type: 'event', event: toSearchEvent(data)! });
      if (i % 20 === 0) state = searchReducer(state, { type: 'event', event: toSearchEvent({ ...progress, leads: i + 1 })! });
    });
    state = searchReducer(state, {
      type: 'event',
      event: toSearchEvent({ type: 'complete', results: events.map((e) => e.lead), search: query })!,
    });
    const elapsed = performance.now() - started;
    expect(state.results).toHaveLength(3000);
    expect(state.found).toBe(3000);
    expect(state.names).toHaveLength(MAX_LIVE_NAMES);
    expect(elapsed).toBeLessThan(250);
  });
});

describe('searchReducer: exclusions (issue #29)', () => {
  it('keeps how many were new of how many found when complete says, and nothing otherwise', () => {
    const lead = { name: 'A', address: '1 St', phone: '', website: '', placeId: 'a' };
    const running = searchReducer(initialSearchState, { type: 'begin', query: { ...query, exclude: 'seen' } });
    const done = searchReducer(running, { type: 'event', event: { ...complete([lead]), newCount: 1, foundCount: 40 } });
    expect(done.newOfFound).toEqual({ newCount: 1, foundCount: 40 });
    const plain = searchReducer(searchReducer(initialSearchState, { type: 'begin', query }), { type: 'event', event: complete([lead]) });
    expect(plain.newOfFound).toBeNull();
  });
});
