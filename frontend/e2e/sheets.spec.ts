import type { Page } from '@playwright/test';
import { chooseBusinessType, expect, expectNoConsoleErrors, parseSse, shot, signUpFromLanding, test } from './fixtures';

// Export to Google Sheets against the real stack: the API talks to the Google fake
// (testkit google-sim) for tokens, Sheets and Drive; the Sheets consent goes through the
// real OIDC provider, which issues the refresh token the API keeps. What the export wrote
// is read back from the fake (`GET /_sim/spreadsheets`) and compared with the leads the
// search streamed.

/** A well-formed key without simulator markers: fast, normal answers. */
const KEY = 'AIzaSyE2eSheets0123456789abcdefghijklm';

const SPREADSHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
const DRIVE_FILE_SCOPE = 'https://www.googleapis.com/auth/drive.file';

interface StreamLead {
  name: string;
  address: string;
  phone?: string | null;
  website?: string | null;
  placeId: string;
}

/** The fake's view of a spreadsheet (testkit google_sim `SpreadsheetSnapshot`). */
interface SimSpreadsheet {
  id: string;
  title: string;
  owner: string;
  tabs: Array<{ title: string; rows: string[][] }>;
}

function googleUrl(): string {
  const url = process.env.LEADGEN_E2E_GOOGLE_URL;
  if (!url) throw new Error('LEADGEN_E2E_GOOGLE_URL is not set: run through `npm run e2e`');
  return url;
}

async function simSpreadsheets(page: Page): Promise<SimSpreadsheet[]> {
  const res = await page.request.get(`${googleUrl()}/_sim/spreadsheets`);
  expect(res.status()).toBe(200);
  return (await res.json()) as SimSpreadsheet[];
}

/** What the sheet must hold, built from the stream independently of the app's code. */
function expectedRows(leads: StreamLead[]): string[][] {
  return [['Name', 'Address', 'Phone', 'Website'], ...leads.map((l) => [l.name, l.address, l.phone ?? '', l.website ?? ''])];
}

/** The fake leaves trailing empty cells out (as Google's values API does): pad to 4 columns. */
function padded(rows: string[][]): string[][] {
  return rows.map((row) => {
    expect(row.length).toBeLessThanOrEqual(4);
    return [...row, '', '', '', ''].slice(0, 4);
  });
}

/** Runs a search and returns the leads of its `complete` event once the results show. */
async function search(page: Page, businessType: string, location: string): Promise<StreamLead[]> {
  await chooseBusinessType(page, businessType);
  await page.getByLabel('Location').fill(location);
  const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads/search-stream');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const frames = parseSse(await (await response).text());
  const last = frames[frames.length - 1].data;
  expect(last.type).toBe('complete');
  const leads = last.results as StreamLead[];
  await expect(page.getByRole('heading', { name: `Found ${leads.length} leads` })).toBeVisible({ timeout: 20_000 });
  return leads;
}

test('Export to Sheets: consent, a new sheet with the streamed leads, then a new tab in it', async ({ page, consoleErrors }) => {
  await signUpFromLanding(page, 'erin');
  await page.waitForURL((url) => url.pathname === '/onboarding');
  await page.getByLabel('Google Places API key').fill(KEY);
  await page.getByRole('button', { name: 'Save and Continue' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });

  await test.step('settings: Google Sheets is not connected yet', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: 'Spreadsheet' }).click();
    const row = page.getByRole('listitem', { name: 'Google Sheets connection' });
    await expect(row.getByText('Not connected')).toBeVisible();
    await expect(row.getByRole('button', { name: 'Configure' })).toBeVisible();
    await shot(page, '30-settings-sheets-not-connected');
    await page.getByRole('link', { name: /Back to Dashboard/ }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  let leads: StreamLead[] = [];
  await test.step('a search, then Export to Sheets asks for re-authentication', async () => {
    leads = await search(page, 'cafe', 'Austin');
    expect(leads.length).toBeGreaterThan(0);
    // The simulator's world has leads without phone or website: empty cells expected.
    expect(leads.some((l) => !l.phone || !l.website)).toBe(true);
    await page.getByRole('button', { name: 'Export to Sheets', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Re-authentication required' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Google Sheets export');
    await expect(dialog).toContainText('has not been granted yet');
    await shot(page, '31-dashboard-sheets-reauth');
  });

  await test.step('Re-authenticate: the provider grants the Sheets scopes and the results come back', async () => {
    // As signUpFromLanding does for sign-in: pass the provider a login hint, and keep
    // the authorization request the API built for the Sheets consent.
    let authorize: URL | null = null;
    const isSheetsSignIn = (url: URL) => url.pathname === '/api/auth/google' && url.searchParams.get('feature') === 'sheets';
    await page.route(isSheetsSignIn, async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = new URL(response.headers()['location']);
      authorize = new URL(location);
      location.searchParams.set('login_hint', 'erin');
      await route.fulfill({ response, headers: { ...response.headers(), location: location.toString() } });
    });
    await page.getByRole('dialog').getByRole('button', { name: 'Re-authenticate' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/success');
    await expect(page.getByText('Taking you back...')).toBeVisible();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.unroute(isSheetsSignIn);

    expect(authorize, 'the browser went to the provider').not.toBeNull();
    const scopes = (authorize as unknown as URL).searchParams.get('scope')?.split(' ') ?? [];
    expect(scopes).toEqual(expect.arrayContaining([SPREADSHEETS_SCOPE, DRIVE_FILE_SCOPE]));
    expect((authorize as unknown as URL).searchParams.get('prompt')).toBe('consent');

    // Back where the user was, with the same results (kept for the trip, then dropped).
    await expect(page.getByRole('heading', { name: `Found ${leads.length} leads` })).toBeVisible();
    expect(await page.evaluate(() => Object.keys(window.sessionStorage).filter((k) => k.startsWith('leadgen:return')))).toEqual([]);
  });

  let sheetId = '';
  await test.step('Export: a new sheet with the default name holds exactly the streamed leads', async () => {
    await page.getByRole('button', { name: 'Export to Sheets', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export to Google Sheets' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('radio', { name: 'Create new sheet' })).toBeChecked();
    await expect(dialog.getByLabel('Sheet name')).toHaveAttribute('placeholder', 'Austin cafe Leads');
    await shot(page, '32-dashboard-export-dialog');

    const exported = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads/export-to-sheets');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    const res = await exported;
    expect(res.status()).toBe(200);
    const sent = res.request().postDataJSON();
    expect(sent).toEqual({
      // The place id marks the lead exported in the workspace's place memory (#29).
      leads: leads.map((l) => ({
        placeId: l.placeId,
        name: l.name,
        address: l.address,
        ...(l.phone ? { phone: l.phone } : {}),
        ...(l.website ? { website: l.website } : {}),
      })),
      businessType: 'cafe',
      location: 'Austin',
    });
    const answer = await res.json();
    expect(answer.rowsWritten).toBe(leads.length);
    sheetId = answer.spreadsheetId;

    const banner = page.getByRole('status').filter({ hasText: answer.message });
    await expect(banner).toBeVisible();
    await expect(banner).toHaveAttribute('data-tone', 'success');
    const link = banner.getByRole('link', { name: 'View in Google Sheets' });
    await expect(link).toHaveAttribute('href', answer.sheetUrl);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
    await expect(dialog).toHaveCount(0);
    await shot(page, '33-dashboard-export-success');

    // The results clear after 3 s; the banner and its link stay until dismissed.
    await expect(page.getByRole('heading', { name: `Found ${leads.length} leads` })).toHaveCount(0, { timeout: 6_000 });
    await expect(link).toBeVisible();
    await shot(page, '34-dashboard-export-results-cleared');

    const sheets = await simSpreadsheets(page);
    const sheet = sheets.find((s) => s.id === sheetId);
    expect(sheet, JSON.stringify(sheets.map((s) => s.title))).toBeDefined();
    expect(sheet!.title).toBe('Austin cafe Leads');
    expect(sheet!.tabs).toHaveLength(1);
    expect(padded(sheet!.tabs[0].rows)).toEqual(expectedRows(leads));

    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner).toHaveCount(0);
  });

  await test.step('settings: Google Sheets is connected and active', async () => {
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: 'Spreadsheet' }).click();
    const row = page.getByRole('listitem', { name: 'Google Sheets connection' });
    await expect(row.getByText('Connected and active')).toBeVisible();
    await expect(row.getByRole('button', { name: 'Configure' })).toHaveCount(0);
    await shot(page, '35-settings-sheets-connected');
    await page.getByRole('link', { name: /Back to Dashboard/ }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  await test.step('Export to the existing sheet, into a new tab', async () => {
    const more = await search(page, 'bakery', 'Denver');
    await page.getByRole('button', { name: 'Export to Sheets', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Export to Google Sheets' });
    await dialog.getByRole('radio', { name: 'Use existing sheet' }).click();
    await expect(dialog.getByText('Please select a sheet')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Export', exact: true })).toBeDisabled();
    await dialog.getByLabel('Sheet', { exact: true }).selectOption(sheetId);
    const tabs = dialog.getByRole('group', { name: 'Tabs in this sheet' });
    await expect(tabs.getByRole('button')).toHaveCount(1);
    await dialog.getByLabel('Tab name (optional)').fill('Denver bakeries');
    await shot(page, '36-dashboard-export-existing');
    await dialog.getByRole('button', { name: 'Export', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /Exported \d+ leads?/ })).toBeVisible();

    const sheet = (await simSpreadsheets(page)).find((s) => s.id === sheetId)!;
    expect(sheet.tabs.map((t) => t.title).slice(-1)).toEqual(['Denver bakeries']);
    expect(sheet.tabs).toHaveLength(2);
    // The first tab is untouched; the new one has the header and the new leads.
    expect(padded(sheet.tabs[0].rows)).toEqual(expectedRows(leads));
    expect(padded(sheet.tabs[1].rows)).toEqual(expectedRows(more));
  });

  expectNoConsoleErrors(consoleErrors);
});
