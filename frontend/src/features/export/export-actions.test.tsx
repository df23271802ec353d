import { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getListSheetsQueryKey } from '../../api/gen/sheets/sheets';
import type { Lead } from '../../lib/lead';
import { goToPage } from '../../lib/page-navigation';
import { peekStashedResults, takeReturnTo } from '../../lib/return-to';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { ExportActions } from './export-actions';
import type { ExportOutcome } from './export-outcome';

vi.mock('../../lib/page-navigation', () => ({ goToPage: vi.fn() }));

const leads: Lead[] = [
  { name: 'Cafe One', address: '1 Main St', phone: '+1 512 555 0100', website: 'https://one.example', placeId: 'p1', rating: 4.5, reviewCount: 10 },
  { name: 'Cafe Two', address: '2 Main St', phone: '', website: '', placeId: 'p2' },
];
const search = { businessType: 'cafe', location: 'Austin' };

type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;
let routes: Record<string, Handler>;
let fetchMock: ReturnType<typeof vi.fn>;

const connected = () => jsonResponse({ success: true, authenticated: true, hasRefreshToken: true, needsReauth: false, message: 'Google Sheets is connected' });

beforeEach(() => {
  vi.mocked(goToPage).mockClear();
  routes = { 'GET /api/leads/sheets/auth-status': connected };
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const handler = routes[`${init?.method ?? 'GET'} ${url}`];
    return handler ? handler(init) : jsonResponse({ error: 'not_found', message: `no route ${url}` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const calls = (method: string, url: string) =>
  fetchMock.mock.calls.filter(([u, init]) => u === url && (init?.method ?? 'GET') === method);
const bodyOf = (method: string, url: string, index = 0) => JSON.parse(String(calls(method, url)[index][1].body));

async function setup() {
  const onOutcome = vi.fn<(outcome: ExportOutcome) => void>();
  const view = await renderWithProviders(<ExportActions results={leads} search={search} onOutcome={onOutcome} />);
  return { ...view, onOutcome, user: userEvent.setup() };
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Export to Sheets' }));
  return screen.findByRole('dialog', { name: 'Export to Google Sheets' });
}

describe('Export to Sheets: the authorisation check', () => {
  it("without a grant opens 'Re-authentication required' with the server's message; Cancel closes it", async () => {
    routes['GET /api/leads/sheets/auth-status'] = () =>
      jsonResponse({ success: true, authenticated: false, hasRefreshToken: false, needsReauth: true, message: 'Google Sheets access has not been granted yet.' });
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Export to Sheets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-authentication required' });
    expect(dialog).toHaveTextContent('Google Sheets access has not been granted yet.');
    expect(dialog).toHaveTextContent('Google Sheets export');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(goToPage).not.toHaveBeenCalled();
  });

  it('Re-authenticate goes to the sign-in path with feature=sheets, remembering the page and the results', async () => {
    routes['GET /api/leads/sheets/auth-status'] = () =>
      jsonResponse({ success: true, authenticated: false, hasRefreshToken: false, needsReauth: true, message: '' });
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Export to Sheets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-authentication required' });
    await user.click(within(dialog).getByRole('button', { name: 'Re-authenticate' }));
    expect(goToPage).toHaveBeenCalledWith('/api/auth/google?feature=sheets');
    expect(peekStashedResults()).toEqual({ results: leads, search });
    expect(takeReturnTo()).toBe(window.location.pathname);
  });

  it("an expired grant without text says 'Authentication expired'", async () => {
    routes['GET /api/leads/sheets/auth-status'] = () =>
      jsonResponse({ success: true, authenticated: false, hasRefreshToken: true, needsReauth: true, message: '' });
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Export to Sheets' }));
    expect(await screen.findByRole('dialog', { name: 'Re-authentication required' })).toHaveTextContent('Authentication expired');
  });

  it("a failed check counts as needing re-authentication: 'Failed to check authentication status'", async () => {
    routes['GET /api/leads/sheets/auth-status'] = () => new Response('', { status: 500 });
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Export to Sheets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-authentication required' });
    expect(dialog).toHaveTextContent('Failed to check authentication status');
  });

  it('Sheets switched off on the server: its message and CSV, no re-authentication', async () => {
    const message = 'Google Sheets export is not available on this server: it needs sign-in with Google (LEADGEN_OIDC_CLIENT_ID).';
    routes['GET /api/leads/sheets/auth-status'] = () =>
      jsonResponse({ success: true, authenticated: false, hasRefreshToken: false, needsReauth: false, message });
    const { user } = await setup();
    await user.click(screen.getByRole('button', { name: 'Export to Sheets' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export to Google Sheets' });
    expect(dialog).toHaveTextContent(message);
    expect(within(dialog).getByRole('button', { name: 'Download CSV' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Re-authenticate' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Export' })).not.toBeInTheDocument();
  });
});

describe('Export dialog: a new sheet', () => {
  it("defaults to a new sheet named '{location} {businessType} Leads' and sends no name when blank", async () => {
    const { user, onOutcome } = await setup();
    const dialog = await openDialog(user);
    expect(within(dialog).getByRole('radio', { name: 'Create new sheet' })).toBeChecked();
    expect(within(dialog).getByLabelText('Sheet name')).toHaveAttribute('placeholder', 'Austin cafe Leads');
    expect(within(dialog).getByLabelText('Tab name (optional)')).toHaveValue('');

    let answer!: (r: Response) => void;
    routes['POST /api/leads/export-to-sheets'] = () => new Promise<Response>((resolve) => (answer = resolve));
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    const running = await within(dialog).findByRole('button', { name: 'Exporting...' });
    expect(running).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();

    expect(bodyOf('POST', '/api/leads/export-to-sheets')).toEqual({
      leads: [
        { placeId: 'p1', name: 'Cafe One', address: '1 Main St', phone: '+1 512 555 0100', website: 'https://one.example' },
        { placeId: 'p2', name: 'Cafe Two', address: '2 Main St' },
      ],
      businessType: 'cafe',
      location: 'Austin',
    });
    await act(async () =>
      answer(
        jsonResponse({
          success: true,
          message: "Exported 2 leads to 'Austin cafe Leads' (Sheet1)",
          sheetUrl: 'https://docs.google.com/spreadsheets/d/abc/edit#gid=0',
          spreadsheetId: 'abc',
          sheetName: 'Austin cafe Leads',
          worksheetName: 'Sheet1',
          rowsWritten: 2,
        }),
      ),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onOutcome).toHaveBeenCalledWith({
      kind: 'success',
      message: "Exported 2 leads to 'Austin cafe Leads' (Sheet1)",
      sheetUrl: 'https://docs.google.com/spreadsheets/d/abc/edit#gid=0',
    });
  });

  it('sends the typed sheet and tab names, trimmed', async () => {
    routes['POST /api/leads/export-to-sheets'] = () =>
      jsonResponse({ success: true, message: 'ok', sheetUrl: 'u', spreadsheetId: 'x', sheetName: 'n', worksheetName: 't', rowsWritten: 2 });
    const { user } = await setup();
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Sheet name'), '  Prospects  ');
    await user.type(within(dialog).getByLabelText('Tab name (optional)'), ' March ');
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(calls('POST', '/api/leads/export-to-sheets')).toHaveLength(1));
    expect(bodyOf('POST', '/api/leads/export-to-sheets')).toMatchObject({ sheetName: 'Prospects', worksheetName: 'March' });
    expect(bodyOf('POST', '/api/leads/export-to-sheets')).not.toHaveProperty('sheetId');
  });

  it("a new spreadsheet joins the user's list: the cached sheet list is marked stale", async () => {
    routes['POST /api/leads/export-to-sheets'] = () =>
      jsonResponse({ success: true, message: 'ok', sheetUrl: 'u', spreadsheetId: 'x', sheetName: 'n', worksheetName: 't', rowsWritten: 2 });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity } } });
    queryClient.setQueryData(getListSheetsQueryKey(), { success: true, sheets: [{ id: 'old', name: 'Old sheet' }] });
    const onOutcome = vi.fn();
    await renderWithProviders(<ExportActions results={leads} search={search} onOutcome={onOutcome} />, { queryClient });
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    expect(queryClient.getQueryState(getListSheetsQueryKey())?.isInvalidated).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(onOutcome).toHaveBeenCalledWith(expect.objectContaining({ kind: 'success' })));
    expect(queryClient.getQueryState(getListSheetsQueryKey())?.isInvalidated).toBe(true);
  });

  it('starts afresh each time it opens', async () => {
    routes['GET /api/leads/sheets'] = () => jsonResponse({ success: true, sheets: [] });
    const { user } = await setup();
    let dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Sheet name'), 'Old name');
    await user.click(within(dialog).getByRole('radio', { name: 'Use existing sheet' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    dialog = await openDialog(user);
    expect(within(dialog).getByRole('radio', { name: 'Create new sheet' })).toBeChecked();
    expect(within(dialog).getByLabelText('Sheet name')).toHaveValue('');
  });

  it('a failed export closes the dialog and reports the message, else "Export failed"', async () => {
    routes['POST /api/leads/export-to-sheets'] = () =>
      jsonResponse({ error: 'sheets_error', message: 'Google Sheets returned an error (500): backend error' }, 502);
    const { user, onOutcome } = await setup();
    let dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(onOutcome).toHaveBeenCalledWith({ kind: 'error', message: 'Google Sheets returned an error (500): backend error' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    routes['POST /api/leads/export-to-sheets'] = () => new Response('', { status: 500 });
    dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(onOutcome).toHaveBeenLastCalledWith({ kind: 'error', message: 'Export failed' }));
  });

  it('an export refused for lack of consent (403 needsReauth) opens the re-authentication dialog', async () => {
    routes['POST /api/leads/export-to-sheets'] = () =>
      jsonResponse({ error: 'needs_reauth', message: 'Authentication expired', needsReauth: true }, 403);
    const { user, onOutcome } = await setup();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    const reauth = await screen.findByRole('dialog', { name: 'Re-authentication required' });
    expect(reauth).toHaveTextContent('Authentication expired');
    expect(onOutcome).not.toHaveBeenCalled();
  });
});

describe('Export dialog: an existing sheet', () => {
  beforeEach(() => {
    routes['GET /api/leads/sheets'] = () =>
      jsonResponse({ success: true, sheets: [{ id: 'sheet-a', name: 'Austin cafes' }, { id: 'sheet-b', name: 'Prospects' }] });
    routes['GET /api/leads/sheets/sheet-b/worksheets'] = () => jsonResponse({ success: true, worksheets: [{ name: 'Leads' }, { name: 'Old' }] });
    routes['POST /api/leads/export-to-sheets'] = () =>
      jsonResponse({ success: true, message: 'ok', sheetUrl: 'u', spreadsheetId: 'sheet-b', sheetName: 'Prospects', worksheetName: 'Old', rowsWritten: 2 });
  });

  it("requires a sheet ('Please select a sheet'), then loads its tabs and exports to the chosen one", async () => {
    const { user } = await setup();
    const dialog = await openDialog(user);
    expect(calls('GET', '/api/leads/sheets')).toHaveLength(0);
    await user.click(within(dialog).getByRole('radio', { name: 'Use existing sheet' }));
    const select = await within(dialog).findByLabelText('Sheet');
    expect(calls('GET', '/api/leads/sheets')).toHaveLength(1);
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Select a sheet', 'Austin cafes', 'Prospects']);
    expect(within(dialog).getByText('Please select a sheet')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Export' })).toBeDisabled();

    await user.selectOptions(select, 'sheet-b');
    const tabs = await within(dialog).findByRole('group', { name: 'Tabs in this sheet' });
    expect(within(tabs).getAllByRole('button').map((b) => b.textContent)).toEqual(['Leads', 'Old']);
    expect(within(dialog).getByLabelText('Tab name (optional)')).toHaveAttribute('placeholder', 'Leads (first tab)');
    expect(within(dialog).queryByText('Please select a sheet')).not.toBeInTheDocument();
    await user.click(within(tabs).getByRole('button', { name: 'Old' }));
    expect(within(dialog).getByLabelText('Tab name (optional)')).toHaveValue('Old');

    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(calls('POST', '/api/leads/export-to-sheets')).toHaveLength(1));
    const body = bodyOf('POST', '/api/leads/export-to-sheets');
    expect(body).toMatchObject({ sheetId: 'sheet-b', worksheetName: 'Old', businessType: 'cafe', location: 'Austin' });
    expect(body).not.toHaveProperty('sheetName');
  });

  it('a blank tab is left out (first tab); a new name is sent as is (a new tab)', async () => {
    const { user } = await setup();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: 'Use existing sheet' }));
    await user.selectOptions(await within(dialog).findByLabelText('Sheet'), 'sheet-b');
    await within(dialog).findByRole('group', { name: 'Tabs in this sheet' });
    await user.click(within(dialog).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(calls('POST', '/api/leads/export-to-sheets')).toHaveLength(1));
    expect(bodyOf('POST', '/api/leads/export-to-sheets')).not.toHaveProperty('worksheetName');

    const again = await openDialog(user);
    await user.click(within(again).getByRole('radio', { name: 'Use existing sheet' }));
    await user.selectOptions(await within(again).findByLabelText('Sheet'), 'sheet-b');
    await user.type(await within(again).findByLabelText('Tab name (optional)'), 'April');
    await user.click(within(again).getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(calls('POST', '/api/leads/export-to-sheets')).toHaveLength(2));
    expect(bodyOf('POST', '/api/leads/export-to-sheets', 1)).toMatchObject({ sheetId: 'sheet-b', worksheetName: 'April' });
  });

  it('adds a sheet by link through validate, selects it and shows its tabs', async () => {
    routes['POST /api/leads/sheets/validate'] = () =>
      jsonResponse({ success: true, id: 'sheet-c', name: 'Shared list', url: 'https://docs.google.com/spreadsheets/d/sheet-c/edit', worksheets: [{ name: 'Team' }] });
    const { user } = await setup();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: 'Use existing sheet' }));
    await within(dialog).findByLabelText('Sheet');
    await user.type(within(dialog).getByLabelText('Add a sheet by link or ID'), 'https://docs.google.com/spreadsheets/d/sheet-c/edit');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(within(dialog).getByLabelText('Sheet')).toHaveValue('sheet-c'));
    expect(bodyOf('POST', '/api/leads/sheets/validate')).toEqual({ spreadsheetId: 'https://docs.google.com/spreadsheets/d/sheet-c/edit' });
    expect(within(dialog).getByRole('option', { name: 'Shared list' })).toBeInTheDocument();
    const tabs = within(dialog).getByRole('group', { name: 'Tabs in this sheet' });
    expect(within(tabs).getAllByRole('button').map((b) => b.textContent)).toEqual(['Team']);
    expect(calls('GET', '/api/leads/sheets/sheet-c/worksheets')).toHaveLength(0);
  });

  it("a refused link shows the server's message, else 'Failed to validate spreadsheet'", async () => {
    routes['POST /api/leads/sheets/validate'] = () =>
      jsonResponse({ error: 'not_found', message: 'That spreadsheet does not exist or your Google account cannot open it.' }, 404);
    const { user } = await setup();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: 'Use existing sheet' }));
    await within(dialog).findByLabelText('Sheet');
    await user.type(within(dialog).getByLabelText('Add a sheet by link or ID'), 'nope');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That spreadsheet does not exist or your Google account cannot open it.');

    routes['POST /api/leads/sheets/validate'] = () => new Response('', { status: 500 });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Failed to validate spreadsheet'));
  });

  it("a failed tab list says 'Failed to load sheet tabs' (default 'Failed to get worksheets')", async () => {
    routes['GET /api/leads/sheets/sheet-b/worksheets'] = () => new Response('', { status: 500 });
    const { user } = await setup();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('radio', { name: 'Use existing sheet' }));
    await user.selectOptions(await within(dialog).findByLabelText('Sheet'), 'sheet-b');
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load sheet tabs');
    expect(alert).toHaveTextContent('Failed to get worksheets');
    // The tab can still be typed; the export stays possible.
    expect(within(dialog).getByRole('button', { name: 'Export' })).toBeEnabled();
  });
});

describe('Export dialog: loading the sheet list fails', () => {
  async function listWith(response: () => Response) {
    routes['GET /api/leads/sheets'] = response;
    const view = await setup();
    const dialog = await openDialog(view.user);
    await view.user.click(within(dialog).getByRole('radio', { name: 'Use existing sheet' }));
    return { ...view, dialog };
  }

  it("403: a re-authentication prompt with the server's message and a button", async () => {
    const { dialog, user } = await listWith(() =>
      jsonResponse({ error: 'needs_reauth', message: 'Google no longer accepts your Sheets access.', needsReauth: true }, 403),
    );
    const prompt = await within(dialog).findByText('Google no longer accepts your Sheets access.');
    expect(prompt).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Re-authenticate' }));
    expect(goToPage).toHaveBeenCalledWith('/api/auth/google?feature=sheets');
    expect(peekStashedResults()?.results).toHaveLength(2);
  });

  it("401 with needsReauth and no text: 'Authentication expired'; 403 with no text: 'Re-authentication required'", async () => {
    const first = await listWith(() => jsonResponse({ error: 'needs_reauth', message: '', needsReauth: true }, 401));
    expect(await within(first.dialog).findByText('Authentication expired')).toBeInTheDocument();
    expect(within(first.dialog).getByRole('button', { name: 'Re-authenticate' })).toBeInTheDocument();
    first.unmount();

    const second = await listWith(() => jsonResponse({ error: 'needs_reauth', message: '' }, 403));
    expect(await within(second.dialog).findByText('Re-authentication required')).toBeInTheDocument();
  });

  it("other failures: 'Failed to load your Google Sheets' with the reason (default 'Failed to get sheets')", async () => {
    const { dialog } = await listWith(() => new Response('', { status: 502 }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load your Google Sheets');
    expect(alert).toHaveTextContent('Failed to get sheets');
    expect(within(dialog).queryByRole('button', { name: 'Re-authenticate' })).not.toBeInTheDocument();
  });

  it("401 without needsReauth (our session): '...Please ensure you're authenticated.'", async () => {
    const { dialog } = await listWith(() => jsonResponse({ error: 'unauthorized', message: 'Authentication required. Please log in again.' }, 401));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "Failed to load your Google Sheets. Please ensure you're authenticated.",
    );
  });

  it('503 sheets_unavailable: the message and CSV, no re-authentication', async () => {
    const { dialog } = await listWith(() =>
      jsonResponse({ error: 'sheets_unavailable', message: 'Google Sheets export is not available on this server.' }, 503),
    );
    expect(await within(dialog).findByText(/Google Sheets export is not available on this server\./)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download CSV' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Re-authenticate' })).not.toBeInTheDocument();
  });
});

describe('Files from the server (a finished search with an id, issue #29)', () => {
  const saved: string[] = [];
  beforeEach(() => {
    saved.length = 0;
    URL.createObjectURL = vi.fn(() => 'blob:export');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
  });
  afterEach(() => vi.restoreAllMocks());

  const file = (format: string) => () =>
    new Response(`file-${format}`, { status: 200, headers: { 'Content-Disposition': `attachment; filename="leads-cafe-austin-2026-11-27T06-00-00.${format}"` } });

  async function withId() {
    const onOutcome = vi.fn<(outcome: ExportOutcome) => void>();
    await renderWithProviders(<ExportActions results={leads} search={search} onOutcome={onOutcome} searchId="s-9" />);
    return { onOutcome, user: userEvent.setup() };
  }

  it('downloads CSV, Excel and JSON as the server names them', async () => {
    for (const f of ['csv', 'xlsx', 'json']) routes[`GET /api/leads/searches/s-9/export?format=${f}`] = file(f);
    const { user } = await withId();
    for (const name of ['Download CSV', 'Download Excel', 'Download JSON']) {
      const button = screen.getByRole('button', { name });
      // Enabled again once the previous download is done.
      await waitFor(() => expect(button).toBeEnabled());
      await user.click(button);
    }
    await waitFor(() => expect(saved).toEqual(['csv', 'xlsx', 'json'].map((f) => `leads-cafe-austin-2026-11-27T06-00-00.${f}`)));
  });

  it('makes the CSV from the results on screen when the server no longer holds them, and says why Excel cannot be had', async () => {
    const gone = () => jsonResponse({ error: 'results_gone', message: "This search's results are gone." }, 410);
    routes['GET /api/leads/searches/s-9/export?format=csv'] = gone;
    routes['GET /api/leads/searches/s-9/export?format=xlsx'] = gone;
    const { user, onOutcome } = await withId();
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Download Excel' })).toBeEnabled());
    expect(saved[0]).toMatch(/^leads-cafe-austin-\d{4}-\d{2}-\d{2}T[\d-]+\.csv$/);
    await user.click(screen.getByRole('button', { name: 'Download Excel' }));
    await waitFor(() => expect(onOutcome).toHaveBeenCalledWith({ kind: 'error', message: "This search's results are gone." }));
    expect(saved).toHaveLength(1);
  });

  it('offers only the CSV without a search id', async () => {
    await setup();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download Excel' })).not.toBeInTheDocument();
  });
});
