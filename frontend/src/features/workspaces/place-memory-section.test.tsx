import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceRole } from '../../api/gen/model/workspaceRole';
import { AuthContext } from '../../lib/session/auth-context';
import { enterWorkspace } from '../../lib/workspace/current-workspace';
import { fakeAuth } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders, testQueryClient } from '../../test/render';
import { WorkspaceTab } from './workspace-tab';

const ACME = '0192f0c4-7a1e-7c3b-9a51-000000000002';

afterEach(() => enterWorkspace(undefined, new QueryClient()));

async function renderAs(role: WorkspaceRole) {
  const calls: Array<{ url: string; method: string; body?: unknown }> = [];
  let placeMemory = true;
  const info = () => ({ id: ACME, name: 'Acme', personal: false, role, monthSpendUsd: 0, monthlySpendCapUsd: null, placeMemory });
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, method, body });
    if (url === `/api/workspaces/${ACME}` && method === 'PATCH') {
      placeMemory = (body as { placeMemory: boolean }).placeMemory;
      return jsonResponse(info());
    }
    if (url === `/api/workspaces/${ACME}/place-memory` && method === 'DELETE') return jsonResponse({ forgotten: 1532 });
    if (url === '/api/workspaces') return jsonResponse({ workspaces: [info()] });
    if (url.includes('/breakdown'))
      return jsonResponse({ month: '2026-11', monthlySpendCapUsd: null, total: { searches: 0, leads: 0, costUsd: 0, lookupsUsd: 0 }, members: [], clients: [] });
    return new Response(null, { status: 500 });
  });
  const queryClient = testQueryClient();
  enterWorkspace(ACME, queryClient);
  await renderWithProviders(<WorkspaceTab />, {
    queryClient,
    wrap: (node) => <AuthContext.Provider value={fakeAuth()}>{node}</AuthContext.Provider>,
  });
  const heading = await screen.findByRole('heading', { name: 'Place memory' });
  return { calls, card: heading.parentElement! };
}

describe('Settings > Workspace > General: place memory', () => {
  it('a member reads whether it is on and what it keeps, and is offered nothing to change', async () => {
    const { card } = await renderAs('member');
    expect(card).toHaveTextContent('On: searches remember the Google place IDs they find');
    expect(card).toHaveTextContent('never a name, address or phone number');
    expect(within(card).queryByRole('button')).toBeNull();
    expect(card).toHaveTextContent('Only an admin changes the place memory.');
  });

  it('an admin turns it off, and makes it forget everything after confirming', async () => {
    const { calls, card } = await renderAs('admin');
    await userEvent.click(within(card).getByRole('button', { name: 'Turn off' }));
    expect(calls).toContainEqual({ url: `/api/workspaces/${ACME}`, method: 'PATCH', body: { placeMemory: false } });
    expect(await within(card).findByText(/^Off: searches do not remember/)).toBeInTheDocument();

    await userEvent.click(within(card).getByRole('button', { name: 'Forget everything' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    const dialog = await screen.findByRole('dialog', { name: 'Forget every remembered place?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Forget everything' }));
    expect(calls).toContainEqual({ url: `/api/workspaces/${ACME}/place-memory`, method: 'DELETE', body: undefined });
    expect(await within(card).findByRole('status')).toHaveTextContent('Forgot 1,532 places.');
  });
});
