import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SavedSearchInfo } from '../../api/gen/model/savedSearchInfo';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { MonitorsPage } from './monitors-page';

afterEach(() => vi.restoreAllMocks());

const monitor: SavedSearchInfo = {
  id: 'm1',
  name: 'Dentists in Austin',
  createdAt: '2026-11-01T09:00:00Z',
  updatedAt: '2026-11-01T09:00:00Z',
  delivery: { email: true, webhook: true },
  onlyNew: true,
  paused: false,
  schedule: { cron: '0 9 * * 1', timeZone: 'America/Chicago' },
  search: { businessType: 'dentist', location: 'Austin', coverage: 'full' },
  lastRunAt: '2026-11-23T15:00:00Z',
  lastSearchId: 's1',
  lastDelivery: {},
};

function mockApi(list: SavedSearchInfo[]) {
  const calls: Array<{ url: string; method: string; body?: unknown }> = [];
  let current = list;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ url, method, body });
    if (url === '/api/leads/saved-searches') return jsonResponse({ savedSearches: current });
    if (url === '/api/leads/saved-searches/m1/run') return jsonResponse({ searchId: 's2' }, 202);
    if (url === '/api/leads/saved-searches/m1' && method === 'PUT') {
      current = current.map((m) => ({ ...m, ...(body as Partial<SavedSearchInfo>) }));
      return jsonResponse(current[0]);
    }
    if (url === '/api/leads/saved-searches/m1' && method === 'DELETE') {
      current = [];
      return new Response(null, { status: 204 });
    }
    if (url === '/api/leads/sheets/auth-status')
      return jsonResponse({ authenticated: false, hasRefreshToken: false, message: '', needsReauth: true, success: true });
    if (url === '/api/leads/searches/s1')
      return jsonResponse({ id: 's1', status: 'complete', leads: 5, foundCount: 120, newCount: 5, businessType: 'dentist', location: 'Austin', coverage: 'full', background: true, options: {}, resultsAvailable: false, startedAt: '', startedBy: { kind: 'schedule' } });
    return new Response(null, { status: 500 });
  });
  return calls;
}

describe('MonitorsPage', () => {
  it('explains monitors when there is none', async () => {
    mockApi([]);
    await renderWithProviders(<MonitorsPage />);
    expect(await screen.findByRole('heading', { name: 'No monitors yet' })).toBeInTheDocument();
    expect(screen.getByText(/Save as monitor/)).toBeInTheDocument();
  });

  it('shows each monitor with its schedule in words, last run and new places, and deliveries', async () => {
    mockApi([monitor]);
    await renderWithProviders(<MonitorsPage />);
    const card = await screen.findByRole('group', { name: /Dentists in Austin/ });
    expect(within(card).getByText(/Every Monday at 09:00 \(America\/Chicago\)/)).toBeInTheDocument();
    expect(await within(card).findByText(/5 new places of 120 found/)).toBeInTheDocument();
    expect(within(card).getByText('email, webhooks')).toBeInTheDocument();
  });

  it('runs now, pauses and deletes after confirming', async () => {
    const calls = mockApi([monitor]);
    const user = userEvent.setup();
    await renderWithProviders(<MonitorsPage />);
    const card = await screen.findByRole('group', { name: /Dentists in Austin/ });
    await user.click(within(card).getByRole('button', { name: 'Run now' }));
    expect(await within(card).findByText(/Started/)).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/leads/saved-searches/m1/run' && c.method === 'POST')).toBe(true);

    await user.click(within(card).getByRole('button', { name: 'Pause' }));
    expect(await within(card).findByRole('button', { name: 'Resume' })).toBeInTheDocument();
    expect(within(card).getByText('Paused')).toBeInTheDocument();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toMatchObject({ name: 'Dentists in Austin', paused: true, schedule: monitor.schedule, onlyNew: true });

    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Dentists in Austin?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete monitor' }));
    expect(await screen.findByRole('heading', { name: 'No monitors yet' })).toBeInTheDocument();
  });
});

// Many clicks and keystrokes each: more than the default 5 s on a busy 2-core machine.
describe('editing a monitor', { timeout: 20_000 }, () => {
  it('opens with what is saved and sends the changes, keeping its search and pause', async () => {
    const calls = mockApi([{ ...monitor, delivery: { email: 'team@agency.example', webhook: true } }]);
    const user = userEvent.setup();
    await renderWithProviders(<MonitorsPage />);
    const card = await screen.findByRole('group', { name: /Dentists in Austin/ });
    await user.click(within(card).getByRole('button', { name: 'Edit Dentists in Austin' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Dentists in Austin' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Dentists in Austin');
    expect(within(dialog).getByLabelText('Runs')).toHaveValue('weekly');
    expect(within(dialog).getByLabelText('On')).toHaveValue('1');
    expect(within(dialog).getByLabelText('At')).toHaveValue('09:00');
    expect(within(dialog).getByLabelText('By email to me')).toBeChecked();
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Austin dentists');
    await user.selectOptions(within(dialog).getByLabelText('Runs'), 'Daily');
    await user.click(within(dialog).getByLabelText("To this workspace's webhooks"));
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('group', { name: /Austin dentists/ })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({
      name: 'Austin dentists',
      search: monitor.search,
      schedule: { cron: '0 9 * * *', timeZone: 'America/Chicago' },
      onlyNew: true,
      // The address set through the API stays; the webhooks were unticked.
      delivery: { email: 'team@agency.example' },
      paused: false,
    });
  });

  it('keeps a schedule the form cannot show unless another is chosen', async () => {
    const custom = { cron: '*/30 8-17 * * 1-5', timeZone: 'UTC' };
    const calls = mockApi([{ ...monitor, schedule: custom, paused: true }]);
    const user = userEvent.setup();
    await renderWithProviders(<MonitorsPage />);
    const card = await screen.findByRole('group', { name: /Dentists in Austin/ });
    await user.click(within(card).getByRole('button', { name: 'Edit Dentists in Austin' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Dentists in Austin' });
    expect(within(dialog).getByText(/Cron \*\/30 8-17 \* \* 1-5 \(UTC\)/)).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Runs')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ schedule: custom, paused: true });
  });
});

describe("a monitor's last deliveries", () => {
  it('says how each channel went, a failure in red', async () => {
    mockApi([
      {
        ...monitor,
        lastDelivery: {
          email: { status: 'sent', detail: 'emailed to ada@example.com', at: '2026-11-23T15:01:00Z' },
          webhook: { status: 'failed', detail: 'not delivered to hooks.example.com after 16 attempts', at: '2026-11-23T16:00:00Z' },
        },
      },
    ]);
    await renderWithProviders(<MonitorsPage />);
    const list = await screen.findByRole('list', { name: 'Last deliveries of Dentists in Austin' });
    expect(within(list).getByText('Email: sent, emailed to ada@example.com')).toBeInTheDocument();
    const failed = within(list).getByText(/^Webhooks: failed/);
    expect(failed).toHaveClass('text-red-700');
  });
});
