import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchItem } from '../../api/gen/model/searchItem';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { resultsGoneText, SearchHistoryPanel } from './search-history-panel';


function entry(overrides: Partial<SearchItem> = {}): SearchItem {
  return {
    id: 's-1',
    businessType: 'cafe',
    location: 'Paris',
    coverage: 'quick',
    options: {},
    background: false,
    status: 'complete',
    leads: 12,
    billableRequests: 2,
    costUsd: 0.07,
    startedAt: '2026-11-25T10:00:00Z',
    finishedAt: '2026-11-25T10:01:00Z',
    resultsAvailable: true,
    startedBy: { userId: 'u-1', email: 'ada@example.com' },
    ...overrides,
  };
}

const types = { groups: [{ label: 'Food', types: [{ value: 'cafe', label: 'Cafe' }, { value: 'dentist', label: 'Dentist' }] }] };
let pages: Record<string, { searches: SearchItem[]; nextCursor?: string }>;
let clientLabels: string[];
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  pages = { '': { searches: [entry()] } };
  clientLabels = [];
  fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    if (url.pathname === '/api/leads/business-types') return jsonResponse(types);
    if (url.pathname === '/api/leads/clients') return jsonResponse({ clients: clientLabels });
    if (url.pathname === '/api/leads/searches') {
      const key = url.searchParams.get('cursor') ?? '';
      const page = pages[key] ?? { searches: [] };
      const status = url.searchParams.get('status');
      const type = url.searchParams.get('businessType');
      const client = url.searchParams.get('client');
      const searches = page.searches.filter(
        (s) => (!status || s.status === status) && (!type || s.businessType === type) && (!client || s.client === client),
      );
      return jsonResponse({ ...page, searches, replayMinutes: 10 });
    }
    if (url.pathname.endsWith('/cancel') && init?.method === 'POST') return jsonResponse(entry({ status: 'cancelled' }));
    return jsonResponse({ error: 'not_found', message: 'nope' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

async function show(props: Partial<Parameters<typeof SearchHistoryPanel>[0]> = {}) {
  const onOpen = vi.fn();
  const onRunAgain = vi.fn();
  // The page composes the export controls; here a stand-in shows where they go.
  const resultsActions = (item: SearchItem, what: string) => <button type="button">{`Export ${item.id} (${what})`}</button>;
  const rendered = await renderWithProviders(
    <SearchHistoryPanel onOpen={onOpen} onRunAgain={onRunAgain} resultsActions={resultsActions} {...props} />,
  );
  return { onOpen, onRunAgain, ...rendered };
}

describe('SearchHistoryPanel', () => {
  it('says so while loading, then lists searches with their figures', async () => {
    await show();
    expect(await screen.findByText('Cafe · Paris')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Your searches' })).getByText('Complete')).toBeInTheDocument();
    expect(screen.getByText(/12 leads · \$0\.07/)).toBeInTheDocument();
  });

  it('says when there is no search, and when none matches the filters', async () => {
    pages = { '': { searches: [] } };
    await show();
    expect(await screen.findByText('No searches yet.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'failed' } });
    expect(await screen.findByText('No search matches these filters.')).toBeInTheDocument();
  });

  it('filters by status and business type through the API', async () => {
    pages = { '': { searches: [entry(), entry({ id: 's-2', businessType: 'dentist', status: 'failed', errorMessage: 'Invalid API key' })] } };
    await show();
    expect(await screen.findByText('Dentist · Paris')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'failed' } });
    expect(await screen.findByText('Invalid API key')).toBeInTheDocument();
    expect(screen.queryByText('Cafe · Paris')).not.toBeInTheDocument();
    await screen.findByRole('option', { name: 'Dentist' });
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'cafe' } });
    expect(await screen.findByText('No search matches these filters.')).toBeInTheDocument();
    const last = String(fetchMock.mock.calls.filter((c) => String(c[0]).startsWith('/api/leads/searches')).at(-1)![0]);
    expect(last).toContain('status=failed');
    expect(last).toContain('businessType=cafe');
  });

  it('loads the next page with the cursor', async () => {
    pages = { '': { searches: [entry()], nextCursor: 'c1' }, c1: { searches: [entry({ id: 's-9', location: 'Lyon' })] } };
    await show();
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Cafe · Lyon')).toBeInTheDocument();
    expect(screen.getByText('Cafe · Paris')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('offers Open and Cancel on a running search; Cancel posts and reloads the list', async () => {
    pages = {
      '': {
        searches: [
          entry({
            status: 'running',
            progress: { found: 1234, billableRequests: 12, costUsd: 0.42 },
            ...({ leads: null, costUsd: null, finishedAt: null, errorMessage: null } as unknown as Partial<SearchItem>),
          }),
        ],
      },
    };
    const onCancelled = vi.fn();
    const { onOpen } = await show({ onCancelled });
    fireEvent.click(await screen.findByRole('button', { name: 'Open Cafe in Paris' }));
    expect(screen.getByText(/1,234 found so far · \$0\.42 so far/)).toBeInTheDocument();
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 's-1' }));
    expect(screen.queryByRole('button', { name: /^Export s-1/ })).not.toBeInTheDocument();
    const listCalls = () => fetchMock.mock.calls.filter((c) => String(c[0]).startsWith('/api/leads/searches?')).length;
    const before = listCalls();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Cafe in Paris' }));
    await waitFor(() => expect(fetchMock.mock.calls.some((c) => c[0] === '/api/leads/searches/s-1/cancel')).toBe(true));
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    expect(onCancelled).toHaveBeenCalledWith(expect.objectContaining({ id: 's-1' }));
  });

  it('the search open on the page counts what its stream says, as the progress card does (issue #26 item 8)', async () => {
    pages = {
      '': {
        searches: [
          entry({ status: 'running', progress: { found: 373, billableRequests: 12, costUsd: 0.42 }, leads: undefined, costUsd: undefined }),
        ],
      },
    };
    await show({ openSearchId: 's-1', openSearchProgress: { found: 682, costUsd: 0.105 } });
    expect(await screen.findByText(/682 found so far · \$0\.11 so far/)).toBeInTheDocument();
    expect(screen.queryByText(/373 found/)).not.toBeInTheDocument();
  });

  it("offers Open and the page's export controls on a finished search whose results the server still has (issue #26 item 2)", async () => {
    pages = {
      '': {
        searches: [entry(), entry({ id: 's-2', location: 'Lyon', resultsAvailable: false }), entry({ id: 's-3', location: 'Nice', leads: 0 })],
      },
    };
    const { onOpen } = await show();
    expect(await screen.findByRole('button', { name: 'Export s-1 (Cafe in Paris)' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Open Cafe in Paris' }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 's-1', status: 'complete' }));
    // Gone from memory, or nothing found: nothing to open.
    expect(screen.queryByRole('button', { name: 'Open Cafe in Lyon' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open Cafe in Nice' })).not.toBeInTheDocument();
  });

  it('offers no export for a search that found nothing, failed or not (issue #26 item 9)', async () => {
    pages = {
      '': {
        searches: [
          entry({ id: 's-1', status: 'failed', leads: 0, errorMessage: 'Your Google key was refused', resultsAvailable: true }),
          entry({ id: 's-2', status: 'failed', leads: undefined, resultsAvailable: false }),
          entry({ id: 's-3', status: 'complete', leads: 0, location: 'Lyon' }),
          entry({ id: 's-4', status: 'failed', leads: 7, location: 'Nice' }),
        ],
      },
    };
    await show();
    expect(await screen.findByText('Your Google key was refused')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Export s-[123] / })).not.toBeInTheDocument();
    // What it did find before failing can still be exported.
    expect(screen.getByRole('button', { name: 'Export s-4 (Cafe in Nice)' })).toBeInTheDocument();
    // Nothing was kept because nothing was found: no "no longer available" either.
    expect(screen.queryByText(/Results are no longer available/)).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Run again/ })).toHaveLength(4);
  });

  it('Run again hands the entry back', async () => {
    const { onRunAgain } = await show();
    fireEvent.click(await screen.findByRole('button', { name: 'Run again Cafe in Paris' }));
    expect(onRunAgain).toHaveBeenCalledWith(expect.objectContaining({ id: 's-1', businessType: 'cafe', location: 'Paris' }));
  });

  it('says the results are gone once the server no longer has them', async () => {
    pages = { '': { searches: [entry({ resultsAvailable: false })] } };
    await show();
    expect(
      await screen.findByText('Results are no longer available: we keep them in memory for 10 minutes and never store lead data.'),
    ).toBeInTheDocument();
    expect(resultsGoneText(10)).toContain('10 minutes');
    expect(screen.queryByRole('button', { name: /^Export s-1/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Run again/ })).toBeInTheDocument();
  });

});

describe('SearchHistoryPanel client filter (issue #28 item 7)', () => {
  it('offers no client filter to a workspace without client labels', async () => {
    await show();
    await screen.findByText('Cafe · Paris');
    await waitFor(() => expect(fetchMock.mock.calls.some((c) => String(c[0]) === '/api/leads/clients')).toBe(true));
    expect(screen.queryByLabelText('Client')).toBeNull();
  });

  it('filters by a client label and says who each search was for', async () => {
    clientLabels = ['Smile Co'];
    pages = { '': { searches: [entry({ id: 's-1', client: 'Smile Co' }), entry({ id: 's-2', location: 'Lyon' })] } };
    await show();
    const list = await screen.findByRole('list', { name: 'Your searches' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText(/For Smile Co/)).toBeInTheDocument();
    const filter = await screen.findByLabelText('Client');
    // Only after the history answered: the dashboard's first render asks nothing more.
    const order = fetchMock.mock.calls.map((c) => new URL(String(c[0]), 'http://localhost').pathname);
    expect(order.indexOf('/api/leads/clients')).toBeGreaterThan(order.indexOf('/api/leads/searches'));
    fireEvent.change(filter, { target: { value: 'Smile Co' } });
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Your searches' })).getAllByRole('listitem')).toHaveLength(1),
    );
    expect(screen.getByText('Cafe · Paris')).toBeInTheDocument();
    expect(screen.queryByText('Cafe · Lyon')).toBeNull();
    const last = String(fetchMock.mock.calls.filter((c) => String(c[0]).startsWith('/api/leads/searches')).at(-1)![0]);
    expect(new URL(last, 'http://localhost').searchParams.get('client')).toBe('Smile Co');
  });
});

describe('statusText (issue #26 item 1)', () => {
  it('says a search that stopped early stopped, and why, never "Complete"', async () => {
    const { statusText } = await import('./search-history-panel');
    const { finishedText } = await import('./search-finished-notice');
    expect(statusText(entry({ stopReason: 'allowance' }))).toBe('Stopped: daily limit reached');
    expect(statusText(entry({ stopReason: 'max_cost' }))).toBe('Stopped: budget reached');
    expect(statusText(entry())).toBe('Complete');
    expect(statusText(entry({ status: 'failed', stopReason: 'allowance' }))).toBe('Failed');
    expect(finishedText(entry({ stopReason: 'allowance', leads: 880 }))).toBe("Your search for cafe in Paris stopped at today's lead limit: 880 leads.");
  });
});

describe('deliveryText', () => {
  it('says where a delivery went, why not, or that it is on its way', async () => {
    const { deliveryText } = await import('./search-history-panel');
    expect(deliveryText({ kind: 'email', status: 'sent', detail: 'emailed to jane@agency.example' })).toBe(
      'Delivered: emailed to jane@agency.example',
    );
    expect(deliveryText({ kind: 'sheets', status: 'failed', detail: 'no spreadsheet was chosen' })).toBe(
      'Not delivered to Google Sheets: no spreadsheet was chosen',
    );
    expect(deliveryText({ kind: 'email', status: 'pending', detail: null })).toBe('Delivering by email...');
  });
});
