import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../lib/money';
import { completenessText, costText, estimateText, formatSeconds, pluralTypeLabel, progressText } from './search-format';

describe('estimateText', () => {
  it('reads "About N <type>s, about $X on your Google key, about S s" with separators and cents', () => {
    expect(estimateText({ estimatedLeads: 1500, estimatedCostUsd: 2.7, estimatedSeconds: 29.6 }, 'Dentist')).toBe(
      'About 1,500 dentists, about $2.70 on your Google key, about 30 s.',
    );
    expect(estimateText({ estimatedLeads: 3012.4, estimatedCostUsd: 1234.567, estimatedSeconds: 300 }, 'Restaurant')).toBe(
      'About 3,012 restaurants, about $1,234.57 on your Google key, about 5 min.',
    );
  });
});

describe('formatting helpers', () => {
  it('rounds seconds, then minutes past a minute and a half', () => {
    expect(formatSeconds(0.2)).toBe('1 s');
    expect(formatSeconds(89.4)).toBe('89 s');
    expect(formatSeconds(95)).toBe('2 min');
  });
  it('shows dollars with two decimals', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.035)).toBe('$0.04');
  });
  it.each([
    ['Dentist', 'dentists'],
    ['Insurance Agency', 'insurance agencies'],
    ['Bus Station', 'bus stations'],
    ['Pharmacy', 'pharmacies'],
    ['Hair Care', 'hair care businesses'],
    ['Computer/Phone Repair', 'computer/phone repair businesses'],
    ['Accounting', 'accounting businesses'],
    ['', 'businesses'],
  ])('names %s in the plural: %s', (label, plural) => {
    expect(pluralTypeLabel(label)).toBe(plural);
  });
});

describe('progressText and costText', () => {
  const progress = {
    areasProbed: 1204,
    areasFetched: 12,
    areasPlanned: 40,
    leads: 680,
    placesFound: 1500,
    billableRequests: 13,
    costUsd: 0.455,
    estimatedCostUsd: 2.7,
    estimatedPlaces: 1500,
  };
  it('says in plain words what is being done: mapping, then fetching of about how many (issue #26 item 6)', () => {
    expect(progressText({ ...progress, areasFetched: 0, leads: 0, costUsd: 0, placesFound: 0, areasProbed: 24 })).toBe('Mapping the area: 24 parts checked');
    expect(progressText({ ...progress, areasFetched: 0, leads: 0, costUsd: 0, areasProbed: 300, placesFound: 960 })).toBe(
      'Mapping the area: 300 parts checked, 960 businesses counted so far',
    );
    expect(progressText(progress)).toBe('Fetching: 680 of about 1,500 · $0.46 so far (about $2.70 in all)');
  });
  it('shows the cost forecast only once it is stable (a quarter of the areas fetched)', () => {
    expect(progressText({ ...progress, areasFetched: 9 })).toBe('Fetching: 680 of about 1,500 · $0.46 so far');
    expect(progressText({ ...progress, areasFetched: 10 })).toBe('Fetching: 680 of about 1,500 · $0.46 so far (about $2.70 in all)');
  });
  it("uses Google's count of the area once it answered: found N of about M (issue #30 item 3)", () => {
    const meter = { found: 702, expected: 1488, source: 'google_aggregate' as const };
    expect(progressText({ ...progress, completeness: meter })).toBe('Fetching: found 702 of about 1,488 · $0.46 so far (about $2.70 in all)');
    expect(completenessText({ found: 1487, expected: 1500 }, 'Dentist')).toBe("Found 1,487 of about 1,500 dentists here, by Google's count");
  });
  it('says what a search cost', () => {
    expect(costText({ costUsd: 2.695, billableRequests: 1077 })).toBe('This search cost $2.70 on your Google key (1,077 billable requests)');
    expect(costText({ costUsd: 0.035, billableRequests: 1 })).toBe('This search cost $0.04 on your Google key (1 billable request)');
  });
});

describe('cancelledSummary (issue #26 item 6)', () => {
  it('says what a cancelled search kept and what it spent', async () => {
    const { cancelledSummary } = await import('./search-format');
    expect(cancelledSummary(680, 1.234)).toBe(
      'It stopped with 680 leads found ($1.23 spent on your Google key). They are kept for a few minutes: open or export them from Your searches below.',
    );
    expect(cancelledSummary(0)).toBe('It stopped before finding any lead.');
  });
});
