import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { ReplayedExportActions } from './replayed-export-actions';

const downloadLeadsCsv = vi.fn();
vi.mock('../../lib/csv', () => ({ downloadLeadsCsv: (...args: unknown[]) => downloadLeadsCsv(...args) }));

let fetchMock: ReturnType<typeof vi.fn>;
let exportGone = false;
const saved: string[] = [];

function sse(events: Array<[number, unknown]>): Response {
  const body = events.map(([id, data]) => `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

beforeEach(() => {
  fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    if (url.pathname === '/api/leads/searches/s-1/events') {
      return sse([
        [1, { type: 'start', businessType: 'cafe', location: 'Paris', searchId: 's-1' }],
        [2, { type: 'complete', results: [{ name: 'Cafe A', address: 'x', phone: '', website: '', placeId: 'a' }], search: { businessType: 'cafe', location: 'Paris' } }],
      ]);
    }
    if (url.pathname === '/api/leads/searches/s-1/export') {
      if (exportGone) return jsonResponse({ error: 'results_gone', message: "This search's results are gone." }, 410);
      const format = url.searchParams.get('format');
      return new Response(`file-${format}`, {
        status: 200,
        headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': `attachment; filename="leads-cafe-paris-2026-11-27T06-00-00.${format}"` },
      });
    }
    if (url.pathname === '/api/leads/sheets/auth-status') {
      return jsonResponse({ success: true, authenticated: true, hasRefreshToken: true, needsReauth: false, message: 'Google Sheets is connected' });
    }
    if (url.pathname === '/api/leads/sheets') return jsonResponse({ success: true, sheets: [] });
    if (url.pathname === '/api/leads/export-to-sheets' && init?.method === 'POST') {
      return jsonResponse({
        success: true,
        message: "Exported 1 leads to 'Paris cafe Leads' (Sheet1)",
        sheetUrl: 'https://docs.google.com/spreadsheets/d/abc/edit#gid=0',
        spreadsheetId: 'abc',
        sheetName: 'Paris cafe Leads',
        worksheetName: 'Sheet1',
        rowsWritten: 1,
      });
    }
    return jsonResponse({ error: 'not_found', message: 'nope' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  exportGone = false;
  saved.length = 0;
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
  // What the browser would save: the link's file name.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  downloadLeadsCsv.mockReset();
});

const show = () =>
  renderWithProviders(<ReplayedExportActions search={{ businessType: 'cafe', location: 'Paris' }} what="Cafe in Paris" searchId="s-1" />);
const replays = () => fetchMock.mock.calls.filter((c) => String(c[0]).endsWith('/events')).length;

describe('ReplayedExportActions (a history row)', () => {
  it("downloads CSV, XLSX and JSON from the server's export, named by the server", async () => {
    await show();
    for (const format of ['CSV', 'XLSX', 'JSON']) {
      const button = screen.getByRole('button', { name: `Download ${format} of Cafe in Paris` });
      // Enabled again once the previous download is done.
      await waitFor(() => expect(button).toBeEnabled());
      fireEvent.click(button);
      await waitFor(() => expect(saved).toHaveLength(['CSV', 'XLSX', 'JSON'].indexOf(format) + 1));
    }
    expect(saved).toEqual(['csv', 'xlsx', 'json'].map((f) => `leads-cafe-paris-2026-11-27T06-00-00.${f}`));
    const asked = fetchMock.mock.calls.map((c) => String(c[0])).filter((u) => u.includes('/export'));
    expect(asked).toEqual(['csv', 'xlsx', 'json'].map((f) => `/api/leads/searches/s-1/export?format=${f}`));
    // The mutator's headers (token, workspace), asking for any type: the answer is a file.
    expect(new Headers(fetchMock.mock.calls[0][1].headers).get('Accept')).toBe('*/*');
    // The server made the files: nothing was read back or built in the browser.
    expect(replays()).toBe(0);
    expect(downloadLeadsCsv).not.toHaveBeenCalled();
  });

  it('makes the CSV in the browser from results it already read when the server no longer has them', async () => {
    await show();
    fireEvent.click(screen.getByRole('button', { name: 'Export to Sheets Cafe in Paris' }));
    await screen.findByRole('dialog', { name: 'Export to Google Sheets' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    exportGone = true;
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Cafe in Paris' }));
    await waitFor(() =>
      expect(downloadLeadsCsv).toHaveBeenCalledWith([expect.objectContaining({ name: 'Cafe A' })], { businessType: 'cafe', location: 'Paris' }, { enriched: false }),
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('exports to Sheets: reads the results back, opens the dialog, sends them and shows the outcome', async () => {
    await show();
    fireEvent.click(screen.getByRole('button', { name: 'Export to Sheets Cafe in Paris' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export to Google Sheets' });
    expect(within(dialog).getByLabelText('Sheet name')).toHaveAttribute('placeholder', 'Paris cafe Leads');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const exported = fetchMock.mock.calls.find((c) => c[0] === '/api/leads/export-to-sheets');
    expect(JSON.parse(String(exported![1].body))).toEqual({ leads: [{ placeId: 'a', name: 'Cafe A', address: 'x' }], businessType: 'cafe', location: 'Paris' });
    expect(await screen.findByText("Exported 1 leads to 'Paris cafe Leads' (Sheet1)")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /View in Google Sheets/ })).toHaveAttribute('href', 'https://docs.google.com/spreadsheets/d/abc/edit#gid=0');
    // Read once: a second Sheets export needs no second replay.
    fireEvent.click(screen.getByRole('button', { name: 'Export to Sheets Cafe in Paris' }));
    await screen.findByRole('dialog', { name: 'Export to Google Sheets' });
    expect(replays()).toBe(1);
  });

  it("shows the server's words when the results are gone (410)", async () => {
    fetchMock.mockImplementation(async () => jsonResponse({ error: 'results_gone', message: "This search's results are gone." }, 410));
    await show();
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV of Cafe in Paris' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("This search's results are gone.");
    expect(downloadLeadsCsv).not.toHaveBeenCalled();
  });
});
