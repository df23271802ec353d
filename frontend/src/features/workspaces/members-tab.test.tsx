import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MemberInfo } from '../../api/gen/model/memberInfo';
import type { WorkspaceRole } from '../../api/gen/model/workspaceRole';
import { AuthContext } from '../../lib/session/auth-context';
import { enterWorkspace } from '../../lib/workspace/current-workspace';
import { fakeAuth, testUser } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders, testQueryClient } from '../../test/render';
import { MembersTab } from './members-tab';

const ACME = '0192f0c4-7a1e-7c3b-9a51-000000000002';
const me: MemberInfo = { userId: testUser.id, email: testUser.email, name: testUser.name, role: 'admin', joinedAt: '2026-11-01T10:00:00Z' };
const olga: MemberInfo = { userId: 'u-olga', email: 'olga@example.com', name: 'Olga Owner', role: 'owner', joinedAt: '2026-10-01T10:00:00Z' };
const mo: MemberInfo = { userId: 'u-mo', email: 'mo@example.com', name: null, role: 'member', joinedAt: '2026-11-02T10:00:00Z' };

afterEach(() => enterWorkspace(undefined, new QueryClient()));

/** Renders the tab in Acme as `role`; `answer` handles the calls the list and members do not. */
async function renderAs(role: WorkspaceRole, answer: (url: string, init?: RequestInit) => Response | undefined = () => undefined) {
  let members = [olga, { ...me, role }, mo];
  const calls: Array<{ url: string; method: string; body?: unknown }> = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ url, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const custom = answer(url, init);
    if (custom) {
      if (custom.ok && method === 'DELETE') members = members.filter((m) => !url.endsWith(`/${m.userId}`));
      return custom;
    }
    if (url === '/api/workspaces') return jsonResponse({ workspaces: [{ id: ACME, name: 'Acme', personal: false, role }] });
    if (url === `/api/workspaces/${ACME}/members`) return jsonResponse({ members });
    return new Response(null, { status: 500 });
  });
  const queryClient = testQueryClient();
  enterWorkspace(ACME, queryClient);
  await renderWithProviders(<MembersTab />, {
    queryClient,
    wrap: (node) => <AuthContext.Provider value={fakeAuth()}>{node}</AuthContext.Provider>,
  });
  const list = await screen.findByRole('list', { name: 'Members' });
  const row = (text: string) => within(list).getByText(text).closest('li') as HTMLElement;
  return { list, row, calls };
}

describe('Settings > Members', () => {
  it('an admin changes a member to admin, but is offered nothing on an owner or on themself', async () => {
    const { row, calls } = await renderAs('admin', (_url, init) =>
      init?.method === 'PATCH' ? jsonResponse({ ...mo, role: 'admin' }) : undefined,
    );
    expect(within(row('Olga Owner')).queryByRole('combobox')).toBeNull();
    expect(within(row('Olga Owner')).queryByRole('button', { name: /Remove/ })).toBeNull();
    expect(within(row('Olga Owner')).getByText('Owner')).toBeInTheDocument();
    expect(within(row('(you)')).queryByRole('combobox')).toBeNull();

    const select = within(row('mo@example.com')).getByRole('combobox', { name: 'Role of mo@example.com' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Member', 'Admin']);
    await userEvent.selectOptions(select, 'admin');
    expect(calls).toContainEqual({ url: `/api/workspaces/${ACME}/members/u-mo`, method: 'PATCH', body: { role: 'admin' } });
  });

  it("an owner may make owners, and the API's refusal is shown as it words it", async () => {
    const refusal = 'A workspace needs an owner: make another member an owner first.';
    const { row } = await renderAs('owner', (_url, init) =>
      init?.method === 'PATCH' ? jsonResponse({ error: 'last_owner', message: refusal }, 403) : undefined,
    );
    const select = within(row('Olga Owner')).getByRole('combobox', { name: 'Role of olga@example.com' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Member', 'Admin', 'Owner']);
    await userEvent.selectOptions(select, 'member');
    expect(await within(row('Olga Owner')).findByRole('alert')).toHaveTextContent(refusal);
    // The list read again: the role shown is still the one the server holds.
    expect(select).toHaveValue('owner');
  });

  it('removing a member asks first, then the list no longer has them', async () => {
    const { list, row, calls } = await renderAs('admin', (_url, init) =>
      init?.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    await userEvent.click(within(row('mo@example.com')).getByRole('button', { name: 'Remove mo@example.com' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove mo@example.com?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect(calls).toContainEqual({ url: `/api/workspaces/${ACME}/members/u-mo`, method: 'DELETE', body: undefined });
    await vi.waitFor(() => expect(within(list).queryByText('mo@example.com')).toBeNull());
  });

  it('a member sees the roles and changes nothing', async () => {
    const { list } = await renderAs('member');
    expect(within(list).queryAllByRole('combobox')).toEqual([]);
    expect(within(list).queryAllByRole('button')).toEqual([]);
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
  });
});
