// The `_authed` guard through the app's real router and route tree: a signed-out visitor
// is redirected before any protected page renders, and signing in comes back to the page.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { signInSearch } from '../features/auth/session-guard';
import { takeReturnTo } from '../lib/return-to';
import { renderApp } from '../test/app';
import { fakeAuth } from '../test/fake-auth';

const signedOut = () => fakeAuth({ isAuthenticated: false, user: null, token: null });
const checking = () => fakeAuth({ isAuthenticated: false, isLoading: true, user: null, token: null });

beforeEach(() => {
  // No API here: protected pages may start their reads, which simply never answer.
  vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>(() => {}));
});

describe('the protected pages guard', () => {
  it('sends a signed-out visitor to the sign-in screen, keeping the page asked for', async () => {
    const auth = signedOut();
    const { router } = await renderApp('/settings?tab=profile', auth);
    expect(router.state.location.pathname).toBe('/auth/sign-in');
    expect(router.state.location.search).toEqual({ redirect: '/settings?tab=profile' });
    expect(screen.getByRole('heading', { name: 'Authentication Required' })).toBeInTheDocument();

    // Signing in remembers the page for the sign-in return page (/auth/success).
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    expect(auth.login).toHaveBeenCalledOnce();
    expect(takeReturnTo()).toBe('/settings?tab=profile');
  });

  it("shows 'Checking authentication...' during the start-up check, then decides", async () => {
    const { router, settle } = await renderApp('/billing/cancel', checking());
    expect(screen.getByText('Checking authentication...')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Subscription Cancelled' })).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/billing/cancel');

    await settle(signedOut());
    expect(router.state.location.pathname).toBe('/auth/sign-in');
    expect(router.state.location.search).toEqual({ redirect: '/billing/cancel' });
  });

  it('shows the page once the start-up check finds a session', async () => {
    const { router, settle } = await renderApp('/billing/cancel', checking());
    await settle(fakeAuth());
    expect(router.state.location.pathname).toBe('/billing/cancel');
    expect(screen.getByRole('heading', { name: 'Subscription Cancelled' })).toBeInTheDocument();
  });

  it('sends someone already signed in from the sign-in screen on to the page asked for', async () => {
    const { router } = await renderApp('/auth/sign-in?redirect=%2Fbilling%2Fcancel', fakeAuth());
    expect(router.state.location.pathname).toBe('/billing/cancel');
    expect(screen.getByRole('heading', { name: 'Subscription Cancelled' })).toBeInTheDocument();
  });

  it('keeps the sign-in screen (button connecting) once sign-in starts, not the start-up check', async () => {
    const { settle } = await renderApp('/dashboard', signedOut());
    await settle({ ...signedOut(), isLoading: true });
    expect(screen.queryByText('Checking authentication...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Connecting to the identity provider/ })).toBeDisabled();
  });
});

describe('signInSearch', () => {
  it('keeps only a path of this app to come back to', () => {
    expect(signInSearch({ redirect: '/settings?tab=billing' })).toEqual({ redirect: '/settings?tab=billing' });
    for (const redirect of ['//evil.example/x', 'https://evil.example', '/\\evil.example', '/api/auth/me', '/auth/sign-in', 42]) {
      expect(signInSearch({ redirect })).toEqual({});
    }
  });
});
