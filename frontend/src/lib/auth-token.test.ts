import { describe, expect, it } from 'vitest';
import { isValidTokenShape, takeTokenFromUrl } from './auth-token';

describe('isValidTokenShape', () => {
  it('accepts exactly three non-empty dot-separated parts', () => {
    expect(isValidTokenShape('aaa.bbb.ccc')).toBe(true);
  });
  it.each([['aaa.bbb'], ['a.b.c.d'], ['abc'], [''], ['a..c'], [null]])('rejects %j', (token) => {
    expect(isValidTokenShape(token)).toBe(false);
  });
});

describe('takeTokenFromUrl', () => {
  it('returns a well-shaped token and removes the query, keeping the path', () => {
    window.history.replaceState(null, '', '/auth/success?token=h.p.s&x=1');
    expect(takeTokenFromUrl()).toBe('h.p.s');
    expect(window.location.pathname).toBe('/auth/success');
    expect(window.location.search).toBe('');
  });

  it('ignores a malformed token but still cleans the address bar', () => {
    window.history.replaceState(null, '', '/auth/success?token=not-a-jwt');
    expect(takeTokenFromUrl()).toBeNull();
    expect(window.location.search).toBe('');
  });

  it('leaves an address without a token alone', () => {
    window.history.replaceState(null, '', '/settings?tab=billing');
    expect(takeTokenFromUrl()).toBeNull();
    expect(window.location.search).toBe('?tab=billing');
  });
});
