import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearStashedResults,
  forgetReturnState,
  hasReturnTo,
  isAppPath,
  peekStashedResults,
  rememberReturnTo,
  RETURN_TTL_MS,
  stashResults,
  takeReturnTo,
} from './return-to';

afterEach(() => vi.useRealTimers());

const stash = { results: [{ name: 'A', address: 'x', phone: '', website: '', placeId: 'a' }], search: { businessType: 'cafe', location: 'Austin' } };

describe('return-to', () => {
  it('remembers a path with its query once, then forgets it', () => {
    rememberReturnTo('/settings?tab=spreadsheet');
    expect(hasReturnTo()).toBe(true);
    expect(takeReturnTo()).toBe('/settings?tab=spreadsheet');
    expect(takeReturnTo()).toBeNull();
  });

  it('accepts only paths of this app', () => {
    for (const bad of ['https://evil.example/', '//evil.example', '/\\evil.example', 'dashboard', '/auth/success', '/api/auth/google']) {
      expect(isAppPath(bad)).toBe(false);
      rememberReturnTo(bad);
      expect(takeReturnTo()).toBeNull();
    }
    // Written by hand (not through rememberReturnTo): still refused when read.
    window.sessionStorage.setItem('leadgen:returnTo', JSON.stringify({ at: Date.now(), value: '//evil.example' }));
    expect(takeReturnTo()).toBeNull();
  });

  it(`forgets what is older than ${RETURN_TTL_MS / 60000} minutes`, () => {
    vi.useFakeTimers();
    rememberReturnTo('/dashboard');
    stashResults(stash);
    vi.advanceTimersByTime(RETURN_TTL_MS + 1);
    expect(takeReturnTo()).toBeNull();
    expect(peekStashedResults()).toBeNull();
  });

  it('keeps results until cleared; refuses malformed ones; logout forgets everything', () => {
    stashResults(stash);
    expect(peekStashedResults()).toEqual(stash);
    expect(peekStashedResults()).toEqual(stash);
    clearStashedResults();
    expect(peekStashedResults()).toBeNull();

    window.sessionStorage.setItem('leadgen:returnResults', JSON.stringify({ at: Date.now(), value: { results: 'no' } }));
    expect(peekStashedResults()).toBeNull();

    stashResults(stash);
    rememberReturnTo('/dashboard');
    forgetReturnState();
    expect(peekStashedResults()).toBeNull();
    expect(takeReturnTo()).toBeNull();
  });
});
