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
      current = current.map((m) => ({ ...m, paused: (body as { paused: boolean }).paused }));
      return jsonResponse(current[0]);
    }
    if (url === '/api/leads/saved-searches/m1' && method === 'DELETE') {
      current = [];
      return new Response(null, { status: 204 });
    }
    if (url === '/api/leads/searches/s1')
      return jsonResponse({ id: 's1', status: 'complete', leads: 5, businessType: 'dentist', location: 'Austin', coverage: 'full', background: true, options: {}, resultsAvailable: false, startedAt: '', startedBy: { kind: 'schedule' } });
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
    expect(await within(card).findByText(/5 new places/)).toBeInTheDocument();
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
