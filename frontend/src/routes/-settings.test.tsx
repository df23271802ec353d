// The Settings route as the app runs it (router, loader): what it reads before it shows.
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { removeStoredToken, storeToken } from '../lib/auth-token';
import { renderApp } from '../test/app';
import { fakeAuth } from '../test/fake-auth';
import { jsonResponse } from '../test/render';

const STATUS = '/api/user/api-key/status';

beforeEach(() => {
  vi.spyOn(globalThis, 'fetch').mockImplementation((input) => {
    // The key status answers a little late; every other read never answers.
    if (String(input) === STATUS) {
      return new Promise((resolve) =>
        setTimeout(() => resolve(jsonResponse({ api_key_status: { has_key: true, key_preview: 'AIza...wxyz', is_valid: null } })), 30),
      );
    }
    return new Promise<Response>(() => {});
  });
});

afterEach(() => removeStoredToken());

describe('the Settings route', () => {
  it('reads the key status while the start-up session check runs, so the API keys tab first shows with the saved key', async () => {
    storeToken('header.payload.signature');
    const { settle } = await renderApp('/settings', fakeAuth({ isAuthenticated: false, isLoading: true, user: null, token: null }));
    expect(screen.getByText('Checking authentication...')).toBeInTheDocument();
    // Asked beside the session check, not one round trip after it (a page shown before the
    // answer grew under its help card: Lighthouse's layout shift).
    expect(vi.mocked(fetch).mock.calls.map(([input]) => String(input))).toContain(STATUS);

    await settle(fakeAuth());
    // No waiting here: the loader held the page until the status answered.
    expect(screen.getByTestId('api-key-status')).toHaveTextContent('API Key Status Unknown');
    expect(screen.getByRole('button', { name: 'Remove key' })).toBeInTheDocument();
  });
});
