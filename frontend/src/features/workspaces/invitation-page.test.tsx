// The invitation link's landing page through the app's real router: the sign-in guard,
// the preview, joining (which opens the workspace's dashboard) and the refusals.
import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InvitationPreview } from '../../api/gen/model/invitationPreview';
import { enterWorkspace } from '../../lib/workspace/current-workspace';
import { renderApp } from '../../test/app';
import { fakeAuth } from '../../test/fake-auth';
import { jsonResponse } from '../../test/render';

const ACME = '0192f0c4-7a1e-7c3b-9a51-000000000002';
const preview: InvitationPreview = {
  email: 'ada@example.com',
  role: 'admin',
  workspaceName: 'Acme Agency',
  expiresAt: '2026-12-01T10:00:00Z',
  invitedBy: { userId: 'u-olga', email: 'olga@example.com', name: 'Olga Owner' },
};

afterEach(() => enterWorkspace(undefined, new QueryClient()));

/** Answers the invitation's reads with `get` and `accept`; every other read never answers. */
function api(get: () => Response, accept: () => Response = () => jsonResponse({ id: ACME, name: 'Acme Agency', personal: false, role: 'admin' })) {
  const calls: Array<{ url: string; method: string }> = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ url, method });
    if (url === '/api/invitations/tok-1' && method === 'GET') return get();
    if (url === '/api/invitations/tok-1/accept' && method === 'POST') return accept();
    return new Promise<Response>(() => {});
  });
  return calls;
}

describe('the invitation landing page', () => {
  it('a signed-out visitor is sent to sign in and comes back to the link', async () => {
    const calls = api(() => jsonResponse(preview));
    const { router } = await renderApp('/invitations/tok-1', fakeAuth({ isAuthenticated: false, user: null, token: null }));
    expect(router.state.location.pathname).toBe('/auth/sign-in');
    expect(router.state.location.search).toEqual({ redirect: '/invitations/tok-1' });
    expect(calls.some((c) => c.url.startsWith('/api/invitations'))).toBe(false);
  });

  it('says who invited you to what as what, and joining opens that workspace', async () => {
    const calls = api(() => jsonResponse(preview));
    const { router } = await renderApp('/invitations/tok-1', fakeAuth());
    expect(
      await screen.findByRole('heading', { name: 'Olga Owner invited you to join Acme Agency as admin' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/For ada@example.com/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Join Acme Agency' }));
    expect(calls).toContainEqual({ url: '/api/invitations/tok-1/accept', method: 'POST' });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(router.state.location.search).toEqual({ ws: ACME });
  });

  it.each([
    [404, 'not_found', 'No invitation has that link, or it was used or revoked.', 'This invitation is not valid'],
    [410, 'gone', 'This invitation expired on 2026-11-20.', 'This invitation has expired'],
  ])('a %i link is said plainly with the API words', async (status, error, message, title) => {
    api(() => jsonResponse({ error, message }, status));
    await renderApp('/invitations/tok-1', fakeAuth());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(title);
    expect(alert).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: /Join/ })).toBeNull();
  });

  it('accepting with another address shows the address the API names, and stays put', async () => {
    const message = 'This invitation is for bo@example.com: sign in with that address.';
    api(
      () => jsonResponse(preview),
      () => jsonResponse({ error: 'invitation_email', message }, 403),
    );
    const { router } = await renderApp('/invitations/tok-1', fakeAuth());
    await userEvent.click(await screen.findByRole('button', { name: 'Join Acme Agency' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This invitation is for another address');
    expect(alert).toHaveTextContent(message);
    expect(router.state.location.pathname).toBe('/invitations/tok-1');
  });
});
