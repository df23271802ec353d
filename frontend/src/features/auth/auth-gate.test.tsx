import { act, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AuthContext } from '../../lib/session/auth-context';
import type { AuthContextValue } from '../../lib/session/session-types';
import { fakeAuth } from '../../test/fake-auth';
import { renderWithProviders } from '../../test/render';
import { AuthGate } from './auth-gate';

function Harness({ auth }: { auth: AuthContextValue }) {
  return (
    <AuthContext.Provider value={auth}>
      <AuthGate>
        <p>secret page</p>
      </AuthGate>
    </AuthContext.Provider>
  );
}

describe('AuthGate', () => {
  it("shows 'Checking authentication...' while the session loads", async () => {
    await renderWithProviders(<Harness auth={fakeAuth({ isLoading: true, isAuthenticated: false, user: null })} />);
    expect(screen.getByText('Checking authentication...')).toBeInTheDocument();
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
  });

  it("shows 'Authentication Required' with a sign-in button when signed out", async () => {
    await renderWithProviders(<Harness auth={fakeAuth({ isAuthenticated: false, user: null, token: null })} />);
    expect(screen.getByRole('heading', { name: 'Authentication Required' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Sign in/ })).toBeEnabled();
    expect(screen.queryByText('secret page')).not.toBeInTheDocument();
  });

  it('shows the page to a signed-in user', async () => {
    await renderWithProviders(<Harness auth={fakeAuth()} />);
    expect(screen.getByText('secret page')).toBeInTheDocument();
  });

  it('keeps the sign-in screen (button connecting) once sign-in starts, not the start-up check', async () => {
    const signedOut = fakeAuth({ isAuthenticated: false, user: null, token: null });
    let setAuth: (auth: AuthContextValue) => void = () => {};
    function Stateful() {
      const [auth, set] = useState(signedOut);
      setAuth = set;
      return <Harness auth={auth} />;
    }
    await renderWithProviders(<Stateful />);
    act(() => setAuth({ ...signedOut, isLoading: true }));
    expect(screen.queryByText('Checking authentication...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Connecting to the identity provider/ })).toBeDisabled();
  });
});
