import { describe, expect, it } from 'vitest';
import { formatPrice, formatUsd, toCents } from './money';

// The same table as `leadgen_core::money`'s tests: both sides round alike.
const SHARED: Array<[number, string]> = [
  [0, '$0.00'],
  [0.004, '$0.00'],
  [0.005, '$0.01'],
  [0.105, '$0.11'],
  [1.005, '$1.01'],
  [2.832, '$2.83'],
  [2.835, '$2.84'],
  [1234.5, '$1,234.50'],
  [1000000, '$1,000,000.00'],
];

describe('money', () => {
  it.each(SHARED)('%s dollars read %s', (usd, text) => {
    expect(formatUsd(usd)).toBe(text);
  });

  it('rounds half up where toFixed and Intl disagree', () => {
    expect((0.105).toFixed(2)).toBe('0.10');
    expect(toCents(0.105)).toBe(11);
    expect(formatUsd(-0.105)).toBe('-$0.11');
    expect(formatUsd(Number.NaN)).toBe('$0.00');
  });

  it('writes prices without cents when they are whole', () => {
    expect(formatPrice(29)).toBe('$29');
    expect(formatPrice(8.25)).toBe('$8.25');
    expect(formatPrice(249)).toBe('$249');
  });
});
