import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/render';
import { testUser } from '../../test/fake-auth';
import { AUTH_TOKEN_KEY } from '../auth-token';
import { useAuth } from './auth-context';
import { AuthProvider } from './auth-provider';
import type { AuthContextValue } from './session-types';

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Renders the provider and exposes the latest context value. */
function setup(props: { urlToken?: string | null; redirect?: (url: string) => void } = {}) {
  const seen: { current: AuthContextValue | null } = { current: null };
  function Probe() {
    seen.current = useAuth();
    const { isLoading, isAuthenticated, error, user } = seen.current;
    return (
      <p data-testid="state">
        {isLoading ? 'loading' : isAuthenticated ? `in:${user?.email}` : 'out'}|{error ?? ''}
      </p>
    );
  }
  render(
    <AuthProvider {...props}>
      <Probe />
    </AuthProvider>,
  );
  return seen;
}

const stateText = () => screen.getByTestId('state').textContent;

describe('AuthProvider start-up', () => {
  it('signs in with a URL token, sending it as bearer and storing it', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(testUser));
    setup({ urlToken: 'u.r.l' });
    expect(stateText()).toBe('loading|');
    await waitFor(() => expect(stateText()).toBe('in:ada@example.com|'));
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/auth/me');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer u.r.l');
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('u.r.l');
  });

  it('records the server message and removes the stored token when the URL token is refused', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 'old.stored.token');
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'invalid_token', message: 'Session expired' }, 401));
    setup({ urlToken: 'u.r.l' });
    await waitFor(() => expect(stateText()).toBe('out|Session expired'));
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it("falls back to 'Failed to get user info' when the server gives no text", async () => {
    fetchMock.mockResolvedValueOnce(new Response('', { status: 500 }));
    setup({ urlToken: 'u.r.l' });
    await waitFor(() => expect(stateText()).toBe('out|Failed to get user info'));
  });

  it('restores a valid stored token', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 's.t.o');
    fetchMock.mockResolvedValueOnce(jsonResponse(testUser));
    setup();
    await waitFor(() => expect(stateText()).toBe('in:ada@example.com|'));
    expect(new Headers(fetchMock.mock.calls[0][1].headers).get('Authorization')).toBe('Bearer s.t.o');
  });

  it('drops an invalid stored token silently and stops loading', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 's.t.o');
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'invalid_token' }, 401));
    setup();
    await waitFor(() => expect(stateText()).toBe('out|'));
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it('keeps the stored token when the check got no answer (the page was left, the network dropped)', async () => {
    localStorage.setItem(AUTH_TOKEN_KEY, 's.t.o');
    fetchMock.mockRejectedValueOnce(new DOMException('The user aborted a request.', 'AbortError'));
    setup();
    await waitFor(() => expect(stateText()).toBe('out|'));
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('s.t.o');
  });

  it('just stops loading without any token, calling nothing', async () => {
    setup();
    await waitFor(() => expect(stateText()).toBe('out|'));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('AuthProvider actions', () => {
  async function signedIn() {
    localStorage.setItem(AUTH_TOKEN_KEY, 's.t.o');
    fetchMock.mockResolvedValueOnce(jsonResponse(testUser));
    const seen = setup();
    await waitFor(() => expect(stateText()).toBe('in:ada@example.com|'));
    return seen;
  }

  it('login sets loading and redirects to the sign-in path', async () => {
    const redirect = vi.fn();
    const seen = setup({ redirect });
    await waitFor(() => expect(stateText()).toBe('out|'));
    act(() => seen.current!.login());
    expect(redirect).toHaveBeenCalledWith('/api/auth/google');
    expect(stateText()).toBe('loading|');
  });

  it('logout clears the session even when the server call fails, and only logs', async () => {
    const seen = await signedIn();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await act(() => seen.current!.logout());
    expect(stateText()).toBe('out|');
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[1][0]).toBe('/api/auth/logout');
  });

  it('refresh replaces token and user on success', async () => {
    const seen = await signedIn();
    fetchMock.mockResolvedValueOnce(jsonResponse({ token: 'n.e.w', user: { ...testUser, email: 'new@example.com' } }));
    await act(() => seen.current!.refresh());
    expect(stateText()).toBe('in:new@example.com|');
    expect(seen.current!.token).toBe('n.e.w');
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBe('n.e.w');
  });

  it('refresh failure removes the token, signs out and rethrows the server message', async () => {
    const seen = await signedIn();
    fetchMock.mockResolvedValueOnce(jsonResponse({ error: 'expired' }, 401));
    await act(async () => {
      await expect(seen.current!.refresh()).rejects.toThrow('expired');
    });
    expect(stateText()).toBe('out|');
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it("refresh without a token fails with 'No token to refresh'", async () => {
    const seen = setup();
    await waitFor(() => expect(stateText()).toBe('out|'));
    await act(async () => {
      await expect(seen.current!.refresh()).rejects.toThrow('No token to refresh');
    });
    expect(stateText()).toBe('out|');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('useAuth', () => {
  it('throws outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => renderHook(() => useAuth())).toThrow('useAuth must be used within an AuthProvider');
  });
});
