// The current workspace as the app runs it (router, layout guard, loaders, mutator): the
// address names it, every request carries it, a switch shows nothing of the workspace
// before, and an id the user cannot open says so.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/app';
import { currentWorkspaceId } from '../lib/workspace/current-workspace';
import { fakeAuth } from '../test/fake-auth';
import { jsonResponse } from '../test/render';

const PERSONAL = '0192f0c4-7a1e-7c3b-9a51-000000000001';
const ACME = '0192f0c4-7a1e-7c3b-9a51-000000000002';
const STRANGER = '0192f0c4-7a1e-7c3b-9a51-000000000009';
const CLIENTCO = '0192f0c4-7a1e-7c3b-9a51-000000000003';

/** Every request the app sent: its path and the workspace it named (null: none, the personal one). */
let sent: Array<{ url: string; workspace: string | null }> = [];

beforeEach(() => {
  sent = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = String(input);
    const workspace = new Headers(init?.headers).get('Leadgen-Workspace');
    sent.push({ url, workspace });
    if (url === '/api/workspaces') {
      return Promise.resolve(
        jsonResponse({
          workspaces: [
            { id: PERSONAL, name: 'Personal', personal: true, role: 'owner' },
            { id: ACME, name: 'Acme', personal: false, role: 'admin' },
            { id: CLIENTCO, name: 'ClientCo', personal: false, role: 'member' },
          ],
        }),
      );
    }
    // A key is saved in the personal workspace only.
    if (url === '/api/user/api-key/status') {
      const hasKey = workspace === null;
      return Promise.resolve(
        jsonResponse({ api_key_status: { has_key: hasKey, key_preview: hasKey ? 'AIza...1234' : null, is_valid: hasKey ? true : null } }),
      );
    }
    return new Promise<Response>(() => {});
  });
});

describe('the current workspace', () => {
  it("offers a member only what their role may do: the key's state without its controls", async () => {
    await renderApp(`/settings?tab=api-keys&ws=${CLIENTCO}`, fakeAuth());
    expect(await screen.findByText(/Only an admin or owner of this workspace can save, test or remove its key\./, undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByLabelText('Places API key')).not.toBeInTheDocument();
  });

  it('offers an admin the key controls', async () => {
    await renderApp(`/settings?tab=api-keys&ws=${ACME}`, fakeAuth());
    expect(await screen.findByLabelText('Places API key')).toBeInTheDocument();
    await screen.findByRole('button', { name: 'Workspace: Acme' }, { timeout: 5000 });
    expect(screen.queryByText(/Only an admin or owner/)).not.toBeInTheDocument();
  });

  it('is the one ?ws= names: every request carries it, the switcher says its name', async () => {
    await renderApp(`/dashboard?ws=${ACME}`, fakeAuth());
    expect(screen.getByText('API Key Required')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Workspace: Acme' }, { timeout: 5000 })).toBeInTheDocument();
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.filter((r) => r.workspace !== ACME)).toEqual([]);
  });

  it('stays in the address across navigation, and a switch shows the other workspace only', async () => {
    const { router, queryClient } = await renderApp(`/dashboard?ws=${ACME}`, fakeAuth());
    await router.navigate({ to: '/settings', search: { tab: 'profile' } });
    expect(router.state.location.search).toEqual({ tab: 'profile', ws: ACME });
    await router.navigate({ to: '/dashboard' });
    expect(router.state.location.search).toEqual({ ws: ACME });
    expect(screen.getByText('API Key Required')).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: 'Workspace: Acme' }, { timeout: 5000 }));
    const list = screen.getByRole('list', { name: 'Your workspaces' });
    expect(within(list).getByRole('button', { name: /Acme/ })).toHaveAttribute('aria-current', 'true');
    expect(within(list).getByRole('button', { name: /Personal · Owner/ })).toBeInTheDocument();
    const before = sent.length;
    await userEvent.click(within(list).getByRole('button', { name: /Personal · Owner/ }));

    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByText('Configured & Ready')).toBeInTheDocument();
    expect(screen.queryByText('API Key Required')).not.toBeInTheDocument();
    // Nothing asked after the switch named the workspace left, and nothing of it is cached.
    expect(sent.slice(before).filter((r) => r.workspace !== null)).toEqual([]);
    const status = queryClient.getQueryData<{ api_key_status: { has_key: boolean } }>(['/api/user/api-key/status']);
    expect(status?.api_key_status.has_key).toBe(true);
  });

  it("a workspace the user is not a member of: a clear message and the way back to personal", async () => {
    const { router } = await renderApp(`/dashboard?ws=${STRANGER}`, fakeAuth());
    expect(await screen.findByRole('heading', { name: 'This workspace is not available' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText('API Key Required')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Go to your personal workspace' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
    expect(await screen.findByText('Configured & Ready')).toBeInTheDocument();
  });

  it('a malformed id is reported and never sent', async () => {
    await renderApp('/dashboard?ws=not-a-workspace', fakeAuth());
    expect(await screen.findByRole('heading', { name: 'This workspace is not available' }, { timeout: 5000 })).toBeInTheDocument();
    expect(sent.filter((r) => r.workspace === 'not-a-workspace')).toEqual([]);
  });

  it('logging out leaves the workspace: the next requests name none', async () => {
    const { router } = await renderApp(`/dashboard?ws=${ACME}`, fakeAuth());
    expect(currentWorkspaceId()).toBe(ACME);
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(currentWorkspaceId()).toBeUndefined();
  });
});
