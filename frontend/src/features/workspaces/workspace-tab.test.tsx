import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkspaceInfo } from '../../api/gen/model/workspaceInfo';
import { AuthContext } from '../../lib/session/auth-context';
import { enterWorkspace } from '../../lib/workspace/current-workspace';
import { fakeAuth, testUser } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders, testQueryClient } from '../../test/render';
import { WorkspaceTab } from './workspace-tab';

const PERSONAL: WorkspaceInfo = { id: '0192f0c4-7a1e-7c3b-9a51-000000000001', name: 'Personal', personal: true, role: 'owner', monthlySpendCapUsd: null, monthSpendUsd: 0, placeMemory: true };
const ACME: WorkspaceInfo = { id: '0192f0c4-7a1e-7c3b-9a51-000000000002', name: 'Acme', personal: false, role: 'owner', monthlySpendCapUsd: null, monthSpendUsd: 0, placeMemory: true };

afterEach(() => enterWorkspace(undefined, new QueryClient()));

async function renderIn(current: WorkspaceInfo, answer: (url: string, method: string) => Response | undefined = () => undefined) {
  const calls: Array<{ url: string; method: string }> = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ url, method });
    const custom = answer(url, method);
    if (custom) return custom;
    if (url === '/api/workspaces') return jsonResponse({ workspaces: [PERSONAL, current].filter((w, i, all) => all.indexOf(w) === i) });
    return new Response(null, { status: 500 });
  });
  const queryClient = testQueryClient();
  enterWorkspace(current.personal ? undefined : current.id, queryClient);
  const view = await renderWithProviders(<WorkspaceTab />, {
    queryClient,
    wrap: (node) => <AuthContext.Provider value={fakeAuth()}>{node}</AuthContext.Provider>,
  });
  await screen.findByRole('heading', { name: 'Workspace' });
  return { ...view, calls };
}

describe('Settings > Workspace > General', () => {
  it('in the personal workspace: rename only, neither leave nor delete', async () => {
    await renderIn(PERSONAL);
    expect(screen.getByLabelText('Name')).toHaveValue('Personal');
    expect(screen.getByRole('button', { name: 'Rename' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Leave workspace' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Delete workspace' })).toBeNull();
  });

  it('an admin reads the name, may leave, may not rename or delete', async () => {
    await renderIn({ ...ACME, role: 'admin' });
    expect(screen.getByLabelText('Name')).toHaveAttribute('readonly');
    expect(screen.getByText('Only an owner can rename the workspace.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Leave workspace' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete workspace' })).toBeNull();
  });

  it('leaving sends your own user id and shows the refusal of the last owner as the API words it', async () => {
    const refusal = 'A workspace needs an owner: make another member an owner first.';
    const { calls } = await renderIn(ACME, (_url, method) =>
      method === 'DELETE' ? jsonResponse({ error: 'last_owner', message: refusal }, 403) : undefined,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Leave workspace' }));
    const dialog = screen.getByRole('dialog', { name: 'Leave Acme?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Leave workspace' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(calls).toContainEqual({ url: `/api/workspaces/${ACME.id}/members/${testUser.id}`, method: 'DELETE' });
  });

  it('deleting asks first, then goes to the personal dashboard', async () => {
    const { calls, router } = await renderIn(ACME, (_url, method) => (method === 'DELETE' ? new Response(null, { status: 204 }) : undefined));
    await userEvent.click(screen.getByRole('button', { name: 'Delete workspace' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Acme?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete for everyone' }));
    expect(calls).toContainEqual({ url: `/api/workspaces/${ACME.id}`, method: 'DELETE' });
    await vi.waitFor(() => expect(router.state.location.href).toBe('/dashboard'));
  });
});
