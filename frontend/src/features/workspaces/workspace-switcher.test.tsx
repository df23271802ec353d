import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enterWorkspace } from '../../lib/workspace/current-workspace';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { WorkspaceSwitcher } from './workspace-switcher';

const PERSONAL = '0192f0c4-7a1e-7c3b-9a51-000000000001';
const ACME = '0192f0c4-7a1e-7c3b-9a51-000000000002';
const WORKSPACES = [
  { id: PERSONAL, name: 'Personal', personal: true, role: 'owner', monthlySpendCapUsd: null, monthSpendUsd: 0, placeMemory: true },
  { id: ACME, name: 'Acme', personal: false, role: 'member', monthlySpendCapUsd: null, monthSpendUsd: 0, placeMemory: true },
];

afterEach(() => enterWorkspace(undefined, new QueryClient()));

function answer(created?: unknown) {
  const calls: Array<{ url: string; method: string; body?: unknown }> = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url === '/api/workspaces' && method === 'GET') return jsonResponse({ workspaces: WORKSPACES });
    if (url === '/api/workspaces' && method === 'POST') return jsonResponse(created);
    return new Response(null, { status: 500 });
  });
  return calls;
}

describe('the workspace switcher', () => {
  it('asks for nothing before it is opened (or the page is idle), then lists the workspaces with their role', async () => {
    const calls = answer();
    await renderWithProviders(<WorkspaceSwitcher />);
    const button = screen.getByRole('button', { name: 'Workspace: Personal' });
    expect(calls).toEqual([]);
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const list = await screen.findByRole('list', { name: 'Your workspaces' });
    const items = within(list).getAllByRole('button');
    expect(items.map((b) => b.textContent)).toEqual(['PersonalPersonal · Owner', 'AcmeMember']);
    expect(items[0]).toHaveAttribute('aria-current', 'true');
    expect(calls).toEqual([{ url: '/api/workspaces', method: 'GET', body: undefined }]);
  });

  it('Escape closes it and returns the focus to its button', async () => {
    answer();
    await renderWithProviders(<WorkspaceSwitcher />);
    const button = screen.getByRole('button', { name: 'Workspace: Personal' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('list', { name: 'Your workspaces' });
    await userEvent.tab();
    expect(screen.getByRole('button', { name: /PersonalPersonal · Owner/ })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveFocus();
  });

  it('choosing another workspace puts its id in the address', async () => {
    answer();
    const { router } = await renderWithProviders(<WorkspaceSwitcher />);
    await userEvent.click(screen.getByRole('button', { name: 'Workspace: Personal' }));
    await userEvent.click(within(await screen.findByRole('list', { name: 'Your workspaces' })).getByRole('button', { name: /^Acme/ }));
    await vi.waitFor(() => expect(router.state.location.search).toEqual({ ws: ACME }));
    expect(screen.getByRole('button', { name: 'Workspace: Personal' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('"New workspace" checks the name, creates it and opens it on the dashboard', async () => {
    const created = { id: '0192f0c4-7a1e-7c3b-9a51-000000000003', name: 'Beta', personal: false, role: 'owner', monthlySpendCapUsd: null, monthSpendUsd: 0, placeMemory: true };
    const calls = answer(created);
    const { router } = await renderWithProviders(<WorkspaceSwitcher />);
    await userEvent.click(screen.getByRole('button', { name: 'Workspace: Personal' }));
    await userEvent.click(screen.getByRole('button', { name: 'New workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'New workspace' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create workspace' }));
    expect(within(dialog).getByText('Enter a name.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText('Workspace name'), '  Beta {Enter}');
    expect(calls).toContainEqual({ url: '/api/workspaces', method: 'POST', body: { name: 'Beta' } });
    await vi.waitFor(() => expect(router.state.location.href).toBe(`/dashboard?ws=${created.id}`));
  });
});
