import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHECKOUT_INTENT_TTL_MS, rememberCheckoutIntent, takeCheckoutIntent } from './checkout';

afterEach(() => vi.useRealTimers());

describe('checkout intent', () => {
  it('is taken once', () => {
    rememberCheckoutIntent('yearly');
    expect(takeCheckoutIntent()).toBe('yearly');
    expect(takeCheckoutIntent()).toBeNull();
  });

  it('expires after its time-to-live', () => {
    vi.useFakeTimers();
    rememberCheckoutIntent('monthly');
    vi.advanceTimersByTime(CHECKOUT_INTENT_TTL_MS + 1);
    expect(takeCheckoutIntent()).toBeNull();
  });

  it('ignores anything that is not a plan', () => {
    window.sessionStorage.setItem('leadgen:checkoutIntent', JSON.stringify({ at: Date.now(), interval: 'weekly' }));
    expect(takeCheckoutIntent()).toBeNull();
    window.sessionStorage.setItem('leadgen:checkoutIntent', 'not json');
    expect(takeCheckoutIntent()).toBeNull();
  });
});
