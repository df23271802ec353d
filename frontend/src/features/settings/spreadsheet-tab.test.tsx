import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { goToPage } from '../../lib/page-navigation';
import { takeReturnTo } from '../../lib/return-to';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SpreadsheetTab } from './spreadsheet-tab';

vi.mock('../../lib/page-navigation', () => ({ goToPage: vi.fn() }));

let status: () => Response | Promise<Response>;
let authConfig: () => Response;

beforeEach(() => {
  vi.mocked(goToPage).mockClear();
  authConfig = () => jsonResponse({ localMode: false, issuer: 'https://accounts.google.com' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/leads/sheets/auth-status' ? status() : url === '/api/auth/config' ? authConfig() : jsonResponse({}, 404),
    ),
  );
});
afterEach(() => vi.unstubAllGlobals());

const row = () => screen.getByRole('listitem', { name: 'Google Sheets connection' });

describe('SpreadsheetTab: the Google Sheets row', () => {
  it("shows 'Checking...' while the status loads, then 'Connected and active' without Configure", async () => {
    let answer!: (r: Response) => void;
    status = () => new Promise((resolve) => (answer = resolve));
    await renderWithProviders(<SpreadsheetTab />);
    expect(within(row()).getByText('Checking...')).toBeInTheDocument();
    answer(jsonResponse({ success: true, authenticated: true, hasRefreshToken: true, needsReauth: false, message: 'Google Sheets is connected' }));
    expect(await within(row()).findByText('Connected and active')).toBeInTheDocument();
    expect(within(row()).queryByRole('button', { name: 'Configure' })).not.toBeInTheDocument();
  });

  it("not connected: Configure opens the dialog for 'Google Sheets export'; confirming goes to sign-in with feature=sheets", async () => {
    status = () =>
      jsonResponse({ success: true, authenticated: false, hasRefreshToken: false, needsReauth: true, message: 'Google Sheets access has not been granted yet.' });
    const user = userEvent.setup();
    await renderWithProviders(<SpreadsheetTab />);
    expect(await within(row()).findByText('Not connected')).toBeInTheDocument();
    expect(row()).toHaveTextContent('Google Sheets access has not been granted yet.');
    await user.click(within(row()).getByRole('button', { name: 'Configure' }));
    const dialog = screen.getByRole('dialog', { name: 'Re-authentication required' });
    expect(dialog).toHaveTextContent('Google Sheets export');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(goToPage).not.toHaveBeenCalled();

    await user.click(within(row()).getByRole('button', { name: 'Configure' }));
    await user.click(screen.getByRole('button', { name: 'Re-authenticate' }));
    expect(goToPage).toHaveBeenCalledWith('/api/auth/google?feature=sheets');
    expect(takeReturnTo()).toBe('/settings?tab=spreadsheet');
  });

  it("a failed check reads as not connected, 'Failed to check authentication status', with Configure", async () => {
    status = () => new Response('', { status: 500 });
    await renderWithProviders(<SpreadsheetTab />);
    expect(await within(row()).findByText('Not connected')).toBeInTheDocument();
    expect(row()).toHaveTextContent('Failed to check authentication status');
    expect(within(row()).getByRole('button', { name: 'Configure' })).toBeInTheDocument();
  });

  it('Sheets switched off on the server: says so with its message, and no Configure loop', async () => {
    status = () =>
      jsonResponse({ success: true, authenticated: false, hasRefreshToken: false, needsReauth: false, message: 'Google Sheets export is not available on this server.' });
    await renderWithProviders(<SpreadsheetTab />);
    expect(await within(row()).findByText('Not available on this server')).toBeInTheDocument();
    expect(row()).toHaveTextContent('Google Sheets export is not available on this server.');
    expect(within(row()).queryByRole('button', { name: 'Configure' })).not.toBeInTheDocument();
  });
});

describe('SpreadsheetTab: the sign-in row (issue #26 item 8)', () => {
  it('says Connected and active only when an identity provider signs people in', async () => {
    status = () => jsonResponse({ success: true, authenticated: false, hasRefreshToken: false, needsReauth: false, message: 'off' });
    authConfig = () => jsonResponse({ localMode: true, issuer: null });
    await renderWithProviders(<SpreadsheetTab />);
    expect(await screen.findByText('Not used: this server signs in its local operator')).toBeInTheDocument();
    expect(screen.queryByText('Connected and active')).not.toBeInTheDocument();
  });
});
