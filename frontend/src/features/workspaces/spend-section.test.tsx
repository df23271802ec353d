import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UsageBreakdown } from '../../api/gen/model/usageBreakdown';
import type { WorkspaceRole } from '../../api/gen/model/workspaceRole';
import { AuthContext } from '../../lib/session/auth-context';
import { enterWorkspace } from '../../lib/workspace/current-workspace';
import { fakeAuth } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders, testQueryClient } from '../../test/render';
import { currentMonth, parseSpendCap } from './spend-section';
import { WorkspaceTab } from './workspace-tab';

const ACME = '0192f0c4-7a1e-7c3b-9a51-000000000002';
const breakdown: UsageBreakdown = {
  month: '2026-11',
  monthlySpendCapUsd: 200,
  total: { searches: 3, leads: 150, costUsd: 50.125, lookupsUsd: 0.125 },
  members: [
    { userId: 'u-olga', email: 'olga@example.com', searches: 2, leads: 100, costUsd: 40, lookupsUsd: 0 },
    { userId: 'u-mo', email: 'mo@example.com', searches: 1, leads: 50, costUsd: 10.125, lookupsUsd: 0.125 },
  ],
  clients: [
    { client: 'Smile Co', searches: 2, leads: 120, costUsd: 45, lookupsUsd: 0 },
    { client: null, searches: 1, leads: 30, costUsd: 5.125, lookupsUsd: 0.125 },
  ],
};

afterEach(() => enterWorkspace(undefined, new QueryClient()));

async function renderAs(role: WorkspaceRole, cap: number | null, answer: (url: string, init?: RequestInit) => Response | undefined = () => undefined) {
  const calls: Array<{ url: string; method: string; body?: unknown }> = [];
  let saved = cap;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, method, body });
    const custom = answer(url, init);
    if (custom) return custom;
    if (url === `/api/workspaces/${ACME}` && method === 'PATCH') {
      saved = (body as { monthlySpendCapUsd: number | null }).monthlySpendCapUsd;
      return jsonResponse({ id: ACME, name: 'Acme', personal: false, role, monthSpendUsd: 50.125, monthlySpendCapUsd: saved });
    }
    if (url === '/api/workspaces')
      return jsonResponse({ workspaces: [{ id: ACME, name: 'Acme', personal: false, role, monthSpendUsd: 50.125, monthlySpendCapUsd: saved }] });
    if (url.includes('/breakdown')) return jsonResponse(breakdown);
    return new Response(null, { status: 500 });
  });
  const queryClient = testQueryClient();
  enterWorkspace(ACME, queryClient);
  await renderWithProviders(<WorkspaceTab />, {
    queryClient,
    wrap: (node) => <AuthContext.Provider value={fakeAuth()}>{node}</AuthContext.Provider>,
  });
  await screen.findByRole('heading', { name: 'Spend on the Google key' });
  return calls;
}

describe('Settings > Workspace > General: spend', () => {
  it('everyone sees the month against the cap; a member is offered no cap field', async () => {
    await renderAs('member', 200);
    expect(screen.getByText(/of a \$200.00 monthly cap/)).toHaveTextContent('This month (UTC): $50.13 of a $200.00 monthly cap.');
    expect(screen.getByRole('meter', { name: "This month's spend against the cap" })).toHaveAttribute('aria-valuenow', '25');
    expect(screen.queryByRole('textbox', { name: /Monthly cap/ })).toBeNull();
    expect(screen.getByText('Only an owner sets the cap.')).toBeInTheDocument();
  });

  it('an owner sets a cap, and clears it with a blank', async () => {
    const calls = await renderAs('owner', null);
    expect(screen.getByText(/no monthly cap/)).toBeInTheDocument();
    const field = screen.getByRole('textbox', { name: 'Monthly cap (US dollars)' });
    await userEvent.type(field, '1,250.50');
    await userEvent.click(screen.getByRole('button', { name: 'Save cap' }));
    expect(calls).toContainEqual({ url: `/api/workspaces/${ACME}`, method: 'PATCH', body: { monthlySpendCapUsd: 1250.5 } });
    expect(await screen.findByText(/of a \$1,250.50 monthly cap/)).toBeInTheDocument();

    await userEvent.clear(field);
    await userEvent.click(screen.getByRole('button', { name: 'Save cap' }));
    expect(calls).toContainEqual({ url: `/api/workspaces/${ACME}`, method: 'PATCH', body: { monthlySpendCapUsd: null } });
    expect(await screen.findByText(/no monthly cap/)).toBeInTheDocument();
  });

  it('a bad cap is explained before any call, and the API refusal is shown as it words it', async () => {
    const calls = await renderAs('owner', null, (url, init) =>
      init?.method === 'PATCH' && url.endsWith(ACME)
        ? jsonResponse({ error: 'role_required', message: 'Only an owner may set the spend cap.' }, 403)
        : undefined,
    );
    const field = screen.getByRole('textbox', { name: 'Monthly cap (US dollars)' });
    await userEvent.type(field, '0');
    await userEvent.click(screen.getByRole('button', { name: 'Save cap' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The cap must be more than $0');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    await userEvent.clear(field);
    await userEvent.type(field, '10');
    await userEvent.click(screen.getByRole('button', { name: 'Save cap' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Only an owner may set the spend cap.');
  });

  it('shows usage by member and by client for the month, and asks for another month', async () => {
    const calls = await renderAs('member', 200);
    const members = await screen.findByRole('table', { name: 'By member' });
    expect(within(members).getByRole('row', { name: /mo@example.com/ })).toHaveTextContent('mo@example.com150$10.13');
    const clients = screen.getByRole('table', { name: 'By client' });
    expect(within(clients).getByRole('rowheader', { name: 'No client' })).toBeInTheDocument();
    expect(within(clients).getByRole('row', { name: /Smile Co/ })).toHaveTextContent('Smile Co2120$45.00');
    expect(calls.some((c) => c.url.includes(`month=${currentMonth()}`))).toBe(true);
    expect(screen.getByText(/3 searches, 150 leads/)).toHaveTextContent(
      '3 searches, 150 leads, $50.13 in 2026-11, of which $0.13 on estimates and places located for the map.',
    );

    const month = screen.getByLabelText('Month');
    await userEvent.clear(month);
    await userEvent.type(month, '2026-10');
    await vi.waitFor(() => expect(calls.some((c) => c.url.includes('month=2026-10'))).toBe(true));
  });
});

describe('parseSpendCap', () => {
  it('takes dollars to the cent, blank as no cap, and names what is wrong', () => {
    expect(parseSpendCap(' $99.50 ')).toEqual({ cap: 99.5 });
    expect(parseSpendCap('')).toEqual({ cap: null });
    expect(parseSpendCap('100000')).toEqual({ cap: 100000 });
    expect(parseSpendCap('100000.01')).toHaveProperty('problem');
    expect(parseSpendCap('1.005')).toHaveProperty('problem');
    expect(parseSpendCap('abc')).toHaveProperty('problem');
  });
});
