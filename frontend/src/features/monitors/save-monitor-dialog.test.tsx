import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SaveMonitorDialog, deliveryChoices } from './save-monitor-dialog';

afterEach(() => vi.restoreAllMocks());

function mockApi({ sheets = false }: { sheets?: boolean } = {}) {
  const posts: unknown[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    if (url === '/api/leads/sheets/auth-status')
      return jsonResponse({ authenticated: sheets, hasRefreshToken: sheets, message: '', needsReauth: !sheets, success: true });
    if (url === '/api/leads/saved-searches' && init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { name: string; schedule: unknown };
      posts.push(body);
      return jsonResponse({ id: 'm1', name: body.name, schedule: body.schedule, createdAt: '', updatedAt: '', delivery: {}, onlyNew: true, paused: false, search: {} }, 201);
    }
    return new Response(null, { status: 500 });
  });
  return posts;
}

const query = { businessType: 'dentist', location: 'Austin, TX', coverage: 'full' as const };

describe('SaveMonitorDialog', () => {
  it('creates the monitor with its schedule as cron in the browser zone, only new places on, and the deliveries ticked', async () => {
    const posts = mockApi();
    const user = userEvent.setup();
    await renderWithProviders(<SaveMonitorDialog query={query} typeLabel="Dentists" onClose={() => {}} />);
    expect(screen.getByLabelText('Name')).toHaveValue('Dentists in Austin, TX');
    expect(screen.getByLabelText('Only new places')).toBeChecked();
    await user.selectOptions(screen.getByLabelText('Runs'), 'Weekly');
    await user.selectOptions(screen.getByLabelText('On'), 'Friday');
    await user.clear(screen.getByLabelText('At'));
    await user.type(screen.getByLabelText('At'), '07:30');
    expect(screen.getByText(/Every Friday at 07:30/)).toBeInTheDocument();
    await user.click(screen.getByLabelText('By email to me'));
    // Sheets is not connected: no sheet choice.
    expect(screen.queryByLabelText('To a Google Sheet tab')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save monitor' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Dentists in Austin, TX is saved');
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(posts).toEqual([
      { name: 'Dentists in Austin, TX', search: query, schedule: { cron: '30 7 * * 5', timeZone: zone }, onlyNew: true, delivery: { email: true } },
    ]);
    expect(screen.getByRole('link', { name: 'Open Monitors' })).toHaveAttribute('href', '/monitors');
  });

  it('refuses an empty name and sends nothing; unscheduled sends a null schedule', async () => {
    const posts = mockApi();
    const user = userEvent.setup();
    await renderWithProviders(<SaveMonitorDialog query={query} onClose={() => {}} />);
    await user.clear(screen.getByLabelText('Name'));
    await user.click(screen.getByRole('button', { name: 'Save monitor' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Give it a name');
    expect(posts).toHaveLength(0);
    await user.type(screen.getByLabelText('Name'), 'By hand');
    await user.click(screen.getByLabelText('Run on a schedule'));
    await user.click(screen.getByLabelText('Only new places'));
    await user.click(screen.getByRole('button', { name: 'Save monitor' }));
    await screen.findByRole('status');
    expect(posts).toEqual([{ name: 'By hand', search: query, schedule: null, onlyNew: false, delivery: {} }]);
  });

  it('offers a Google Sheet tab once Sheets is connected', async () => {
    mockApi({ sheets: true });
    const user = userEvent.setup();
    await renderWithProviders(<SaveMonitorDialog query={query} onClose={() => {}} />);
    await user.click(await screen.findByLabelText('To a Google Sheet tab'));
    expect(screen.getByLabelText('Spreadsheet link or id')).toBeInTheDocument();
  });
});

describe('deliveryChoices', () => {
  it('sends only what was ticked, a sheet only with its spreadsheet', () => {
    const none = { email: false, webhook: false, sheet: false, spreadsheet: '', tab: '' };
    expect(deliveryChoices(none)).toEqual({});
    expect(deliveryChoices({ ...none, webhook: true, sheet: true })).toEqual({ webhook: true });
    expect(deliveryChoices({ ...none, sheet: true, spreadsheet: ' abc ', tab: 'New' })).toEqual({ sheet: { spreadsheetId: 'abc', tab: 'New' } });
  });
});
