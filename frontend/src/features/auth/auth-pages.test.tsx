import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberReturnTo, takeReturnTo } from '../../lib/return-to';
import { AuthContext } from '../../lib/session/auth-context';
import type { AuthContextValue } from '../../lib/session/session-types';
import { fakeAuth } from '../../test/fake-auth';
import { renderWithProviders } from '../../test/render';
import { AuthSuccessPage } from './auth-success-page';
import { SignInButton } from './sign-in-button';

afterEach(() => vi.useRealTimers());

const withAuth = (auth: AuthContextValue) => ({
  wrap: (node: React.ReactNode) => <AuthContext.Provider value={auth}>{node}</AuthContext.Provider>,
});

describe('AuthSuccessPage', () => {
  it("shows 'Welcome' and goes to /dashboard after 1.5 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = await renderWithProviders(<AuthSuccessPage />, withAuth(fakeAuth()));
    expect(screen.getByRole('heading')).toHaveTextContent('Welcome');
    await act(() => vi.advanceTimersByTimeAsync(1400));
    expect(router.state.location.pathname).toBe('/');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('goes back to the page remembered before re-authentication, once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    rememberReturnTo('/settings?tab=spreadsheet');
    const { router } = await renderWithProviders(<AuthSuccessPage />, { ...withAuth(fakeAuth()), path: '/auth/success' });
    expect(screen.getByText('Taking you back...')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1600));
    expect(router.state.location.pathname).toBe('/settings');
    expect(router.state.location.searchStr).toBe('?tab=spreadsheet');
    expect(takeReturnTo()).toBeNull();
  });

  it("shows 'Authentication Failed' and returns home after 3 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const auth = fakeAuth({ isAuthenticated: false, user: null, token: null, error: 'Authentication failed' });
    const { router } = await renderWithProviders(<AuthSuccessPage />, { ...withAuth(auth), path: '/auth/success' });
    expect(screen.getByRole('heading')).toHaveTextContent('Authentication Failed');
    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(router.state.location.pathname).toBe('/auth/success');
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(router.state.location.pathname).toBe('/');
  });

  it("shows 'Processing Authentication...' while the session loads", async () => {
    await renderWithProviders(<AuthSuccessPage />, withAuth(fakeAuth({ isLoading: true, isAuthenticated: false })));
    expect(screen.getByText('Processing Authentication...')).toBeInTheDocument();
  });
});

describe('SignInButton', () => {
  it('is disabled and says it is connecting while loading', async () => {
    await renderWithProviders(<SignInButton />, withAuth(fakeAuth({ isLoading: true, isAuthenticated: false })));
    expect(screen.getByRole('button')).toBeDisabled();
    expect(screen.getByRole('button')).toHaveTextContent('Connecting to the identity provider...');
  });

  it('starts sign-in on click and shows the auth error under it', async () => {
    const auth = fakeAuth({ isAuthenticated: false, user: null, error: 'Access denied' });
    await renderWithProviders(<SignInButton />, withAuth(auth));
    await userEvent.click(screen.getByRole('button', { name: /Sign in/ }));
    expect(auth.login).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Access denied');
  });
});
