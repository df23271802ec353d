import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchItem } from '../../api/gen/model/searchItem';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { resultsGoneText, SearchHistoryPanel } from './search-history-panel';

const downloadLeadsCsv = vi.fn();
vi.mock('../../lib/csv', () => ({ downloadLeadsCsv: (...args: unknown[]) => downloadLeadsCsv(...args) }));

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
    ...overrides,
  };
}

const types = { groups: [{ label: 'Food', types: [{ value: 'cafe', label: 'Cafe' }, { value: 'dentist', label: 'Dentist' }] }] };
let pages: Record<string, { searches: SearchItem[]; nextCursor?: string }>;
let fetchMock: ReturnType<typeof vi.fn>;

function sse(events: Array<[number, unknown]>): Response {
  const body = events.map(([id, data]) => `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

beforeEach(() => {
  pages = { '': { searches: [entry()] } };
  fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    if (url.pathname === '/api/leads/business-types') return jsonResponse(types);
    if (url.pathname === '/api/leads/searches') {
      const key = url.searchParams.get('cursor') ?? '';
      const page = pages[key] ?? { searches: [] };
      const status = url.searchParams.get('status');
      const type = url.searchParams.get('businessType');
      const searches = page.searches.filter((s) => (!status || s.status === status) && (!type || s.businessType === type));
      return jsonResponse({ ...page, searches, replayMinutes: 10 });
    }
    if (url.pathname.endsWith('/cancel') && init?.method === 'POST') return jsonResponse(entry({ status: 'cancelled' }));
    if (url.pathname.endsWith('/events')) {
      return sse([
        [1, { type: 'start', businessType: 'cafe', location: 'Paris', searchId: 's-1' }],
        [2, { type: 'complete', results: [{ name: 'Cafe A', address: 'x', phone: '', website: '', placeId: 'a' }], search: { businessType: 'cafe', location: 'Paris' } }],
      ]);
    }
    return jsonResponse({ error: 'not_found', message: 'nope' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  downloadLeadsCsv.mockReset();
});

async function show(props: Partial<Parameters<typeof SearchHistoryPanel>[0]> = {}) {
  const onOpen = vi.fn();
  const onRunAgain = vi.fn();
  const rendered = await renderWithProviders(<SearchHistoryPanel onOpen={onOpen} onRunAgain={onRunAgain} {...props} />);
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
    pages = { '': { searches: [entry({ status: 'running', ...({ leads: null, costUsd: null, finishedAt: null, errorMessage: null } as unknown as Partial<SearchItem>) })] } };
    const onCancelled = vi.fn();
    const { onOpen } = await show({ onCancelled });
    fireEvent.click(await screen.findByRole('button', { name: 'Open Cafe in Paris' }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 's-1' }));
    expect(screen.queryByRole('button', { name: /Download CSV/ })).not.toBeInTheDocument();
    const listCalls = () => fetchMock.mock.calls.filter((c) => String(c[0]).startsWith('/api/leads/searches?')).length;
    const before = listCalls();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel Cafe in Paris' }));
    await waitFor(() => expect(fetchMock.mock.calls.some((c) => c[0] === '/api/leads/searches/s-1/cancel')).toBe(true));
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    expect(onCancelled).toHaveBeenCalledWith(expect.objectContaining({ id: 's-1' }));
  });

  it('Run again hands the entry back', async () => {
    const { onRunAgain } = await show();
    fireEvent.click(await screen.findByRole('button', { name: 'Run again Cafe in Paris' }));
    expect(onRunAgain).toHaveBeenCalledWith(expect.objectContaining({ id: 's-1', businessType: 'cafe', location: 'Paris' }));
  });

  it('downloads the results as CSV from the events while they last', async () => {
    await show();
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV of Cafe in Paris' }));
    await waitFor(() =>
      expect(downloadLeadsCsv).toHaveBeenCalledWith([expect.objectContaining({ name: 'Cafe A' })], 'cafe', { enriched: false }),
    );
  });

  it('says the results are gone once the server no longer has them', async () => {
    pages = { '': { searches: [entry({ resultsAvailable: false })] } };
    await show();
    expect(
      await screen.findByText('Results are no longer available: we keep them in memory for 10 minutes and never store lead data.'),
    ).toBeInTheDocument();
    expect(resultsGoneText(10)).toContain('10 minutes');
    expect(screen.queryByRole('button', { name: /Download CSV/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Run again/ })).toBeInTheDocument();
  });

  it("shows the server's words when a download finds the results gone (410)", async () => {
    fetchMock.mockImplementation(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname.endsWith('/events')) return jsonResponse({ error: 'results_gone', message: "This search's results are gone." }, 410);
      if (url.pathname === '/api/leads/searches') return jsonResponse({ searches: [entry()], replayMinutes: 10 });
      return jsonResponse(types);
    });
    await show();
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV of Cafe in Paris' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("This search's results are gone.");
  });
});
