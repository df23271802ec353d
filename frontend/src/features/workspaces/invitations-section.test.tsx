import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InvitationInfo } from '../../api/gen/model/invitationInfo';
import type { WorkspaceRole } from '../../api/gen/model/workspaceRole';
import { AuthContext } from '../../lib/session/auth-context';
import { enterWorkspace } from '../../lib/workspace/current-workspace';
import { fakeAuth, testUser } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders, testQueryClient } from '../../test/render';
import { MembersTab } from './members-tab';

const ACME = '0192f0c4-7a1e-7c3b-9a51-000000000002';
const pending: InvitationInfo = {
  id: 'inv-1',
  email: 'bo@example.com',
  role: 'member',
  createdAt: '2026-11-20T10:00:00Z',
  expiresAt: '2026-11-27T10:00:00Z',
  invitedBy: { userId: 'u-olga', email: 'olga@example.com', name: 'Olga Owner' },
};

afterEach(() => enterWorkspace(undefined, new QueryClient()));

type Answer = (url: string, method: string, body: unknown) => Response | undefined;

/** Renders the Members tab in Acme as `role`; `answer` handles what the lists do not. */
async function renderAs(role: WorkspaceRole, answer: Answer = () => undefined, personal = false) {
  let invitations = [pending];
  const calls: Array<{ url: string; method: string; body?: unknown }> = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, method, body });
    const custom = answer(url, method, body);
    if (custom) {
      if (custom.ok && method === 'DELETE') invitations = invitations.filter((i) => !url.endsWith(`/${i.id}`));
      return custom;
    }
    if (url === '/api/workspaces') return jsonResponse({ workspaces: [{ id: ACME, name: 'Acme', personal, role }] });
    if (url === `/api/workspaces/${ACME}/members`)
      return jsonResponse({ members: [{ userId: testUser.id, email: testUser.email, name: testUser.name, role, joinedAt: '2026-11-01T10:00:00Z' }] });
    if (url === `/api/workspaces/${ACME}/invitations` && method === 'GET') return jsonResponse({ invitations });
    return new Response(null, { status: 500 });
  });
  const queryClient = testQueryClient();
  enterWorkspace(ACME, queryClient);
  await renderWithProviders(<MembersTab />, {
    queryClient,
    wrap: (node) => <AuthContext.Provider value={fakeAuth()}>{node}</AuthContext.Provider>,
  });
  await screen.findByRole('list', { name: 'Members' });
  return { calls };
}

describe('Settings > Members: invitations', () => {
  it('an admin invites by email with a role (no owner offered) and gets the link to copy, not mailed', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const link = 'https://leadgen.test/invitations/tok123';
    const { calls } = await renderAs('admin', (url, method, body) =>
      url === `/api/workspaces/${ACME}/invitations` && method === 'POST'
        ? jsonResponse({ ...pending, id: 'inv-2', email: (body as { email: string }).email, role: 'admin', link, mailed: false }, 201)
        : undefined,
    );
    const role = screen.getByRole('combobox', { name: 'Role' });
    expect(within(role).getAllByRole('option').map((o) => o.textContent)).toEqual(['Member', 'Admin']);
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), ' cy@example.com ');
    await userEvent.selectOptions(role, 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(calls).toContainEqual({
      url: `/api/workspaces/${ACME}/invitations`,
      method: 'POST',
      body: { email: 'cy@example.com', role: 'admin' },
    });
    expect(await screen.findByText('Invitation made for cy@example.com')).toBeInTheDocument();
    expect(screen.getByText(/It was not mailed/)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Invitation link' })).toHaveValue(link);
    await userEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(link);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('an owner is offered owner, and a mailed invitation says so', async () => {
    await renderAs('owner', (url, method) =>
      method === 'POST' && url.endsWith('/invitations')
        ? jsonResponse({ ...pending, link: 'https://leadgen.test/invitations/t', mailed: true }, 201)
        : undefined,
    );
    const role = screen.getByRole('combobox', { name: 'Role' });
    expect(within(role).getAllByRole('option').map((o) => o.textContent)).toEqual(['Member', 'Admin', 'Owner']);
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'bo@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText(/The link was mailed to them/)).toBeInTheDocument();
  });

  it("the API's refusal is shown as it words it", async () => {
    const refusal = 'mo@example.com is already a member of this workspace.';
    await renderAs('admin', (_url, method) =>
      method === 'POST' ? jsonResponse({ error: 'already_member', message: refusal }, 409) : undefined,
    );
    await userEvent.type(screen.getByRole('textbox', { name: 'Email' }), 'mo@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.queryByText(/Invitation made/)).toBeNull();
  });

  it('lists pending invitations with who invited, and revokes one', async () => {
    const { calls } = await renderAs('admin', (_url, method) => (method === 'DELETE' ? new Response(null, { status: 204 }) : undefined));
    const list = await screen.findByRole('list', { name: 'Pending invitations' });
    expect(within(list).getByText('bo@example.com')).toBeInTheDocument();
    expect(within(list).getByText(/Member, invited by Olga Owner, expires/)).toBeInTheDocument();
    await userEvent.click(within(list).getByRole('button', { name: 'Revoke the invitation of bo@example.com' }));
    expect(calls).toContainEqual({ url: `/api/workspaces/${ACME}/invitations/inv-1`, method: 'DELETE', body: undefined });
    expect(await screen.findByText(/None: every invitation/)).toBeInTheDocument();
  });

  it('the personal workspace offers no invitation, even to its owner', async () => {
    const { calls } = await renderAs('owner', undefined, true);
    expect(screen.queryByRole('heading', { name: 'Invite someone' })).toBeNull();
    expect(calls.some((c) => c.url.includes('/invitations'))).toBe(false);
  });

  it('a member sees no invitations at all, and asks for none', async () => {
    const { calls } = await renderAs('member');
    expect(screen.queryByRole('heading', { name: 'Invite someone' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Pending invitations' })).toBeNull();
    expect(calls.some((c) => c.url.includes('/invitations'))).toBe(false);
  });
});
