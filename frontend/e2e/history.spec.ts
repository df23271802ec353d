import fs from 'node:fs';
import { chooseBusinessType, expect, expectNoConsoleErrors, shot, signUpFromLanding, test } from './fixtures';
import { readState, restartApi } from './stack';

// Searches that survive (issue #13) in the browser against the real stack: a full search
// picked up again after a reload and after the API process is killed mid-stream (`GET .../events` with
// `Last-Event-ID`), the history panel with its figures, "Run again" and "Cancel".

/** `SLOW` (testkit places_sim/faults.rs): each Places page answers after SIM_SLOW_MS, so a search is still running when the page reloads. */
const SLOW_KEY = 'AIzaSyE2eSLOW0123456789abcdefghijklmno';

const isPath = (url: string, path: string) => new URL(url).pathname === path;

test('history: a full search survives a reload, is listed, runs again, and a running one cancels', async ({ page, consoleErrors }) => {
  test.setTimeout(240_000);

  await test.step('sign up and save a key', async () => {
    await signUpFromLanding(page, 'ines');
    await page.waitForURL((url) => url.pathname === '/onboarding');
    await page.getByLabel('Google Places API key').fill(SLOW_KEY);
    await page.getByRole('button', { name: 'Save and Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await expect(page.getByText('Configured & Ready')).toBeVisible();
    await expect(page.getByText('No searches yet.')).toBeVisible();
  });

  const history = page.getByRole('list', { name: 'Your searches' });
  let searchId = '';
  await test.step('a full search picks up where it left off after a reload', async () => {
    await chooseBusinessType(page, 'dentist');
    await page.getByLabel('Location').fill('Austin, TX');
    await page.getByRole('radio', { name: /Full area/ }).check();
    const started = page.waitForResponse((r) => isPath(r.url(), '/api/leads/search-stream'));
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await started;
    await expect(page.getByRole('heading', { name: 'Searching for Dentist in Austin, TX...' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.sessionStorage.getItem('leadgen:liveSearch')), { timeout: 30_000 }).not.toBeNull();
    const stored = JSON.parse((await page.evaluate(() => window.sessionStorage.getItem('leadgen:liveSearch'))) ?? '{}') as {
      searchId: string;
      lastEventId: string;
    };
    searchId = stored.searchId;
    expect(searchId).not.toBe('');

    const resumed = page.waitForRequest((r) => isPath(r.url(), `/api/leads/searches/${searchId}/events`));
    await page.reload();
    const request = await resumed;
    expect(Number(request.headers()['last-event-id'])).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { name: 'Searching for Dentist in Austin, TX...' })).toBeVisible();
    await expect(page.getByText('Dentist in Austin, TX', { exact: true })).toBeVisible({ timeout: 150_000 });
    await expect.poll(() => page.evaluate(() => window.sessionStorage.getItem('leadgen:liveSearch'))).toBeNull();
    // How long the server keeps them (the history's replayMinutes), beside the exports (issue #26 item 2).
    await expect(page.getByText(/^Results are kept for \d+ minutes?: export them now\.$/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download CSV', exact: true })).toBeVisible();
  });

  await test.step('the history lists it, with its results still downloadable', async () => {
    const row = history.getByRole('listitem').filter({ hasText: 'Dentist · Austin, TX' });
    await expect(row.getByText('Complete', { exact: true })).toBeVisible();
    await expect(row).toContainText(/Full area · .* · [\d,]+ leads · \$\d+\.\d{2}/);
    await expect(row.getByRole('button', { name: 'Download CSV of Dentist in Austin, TX' })).toBeVisible();
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Download CSV of Dentist in Austin, TX' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.csv$/);
    // The server's export (issue #29): an Excel workbook of the same search.
    const workbook = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Download XLSX of Dentist in Austin, TX' }).click();
    const xlsx = await workbook;
    expect(xlsx.suggestedFilename()).toMatch(/^leads-dentist-austin-tx-[\dT-]+\.xlsx$/);
    expect(fs.readFileSync((await xlsx.path())!).subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    await shot(page, '40-search-history');
  });

  await test.step('Run again fills the form and sends the same search; a network drop mid-search loses and repeats no lead', async () => {
    // It asks first, with what it would cost (issue #26 item 2); nothing starts before.
    const estimated = page.waitForResponse((r) => isPath(r.url(), '/api/leads/estimate'));
    let startedEarly = false;
    const early = (r: { url(): string }) => {
      if (isPath(r.url(), '/api/leads/search-stream')) startedEarly = true;
    };
    page.on('request', early);
    await history.getByRole('button', { name: 'Run again Dentist in Austin, TX' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Run this search again?' });
    await expect(dialog).toBeVisible();
    expect((await estimated).request().postDataJSON()).toEqual({ businessType: 'dentist', location: 'Austin, TX', coverage: 'full' });
    await expect(dialog.getByText(/^About [\d,]+ dentists, about \$[\d,]+\.\d{2} on your Google key, about \d+ (s|min)\.$/)).toBeVisible({ timeout: 30_000 });
    await shot(page, '41-run-again-confirm');
    page.off('request', early);
    expect(startedEarly).toBe(false);
    const sent = page.waitForRequest((r) => isPath(r.url(), '/api/leads/search-stream'));
    await dialog.getByRole('button', { name: 'Run search' }).click();
    await expect(dialog).toHaveCount(0);
    expect((await sent).postDataJSON()).toEqual({ businessType: 'dentist', location: 'Austin, TX', coverage: 'full' });
    await expect(page.getByLabel('Location')).toHaveValue('Austin, TX');
    await expect(page.getByRole('radio', { name: /Full area/ })).toBeChecked();

    // Leads are arriving: kill the API process (its open stream is cut mid-flight, as by a
    // network drop) and keep it down for a few seconds. The search goes on in the worker;
    // the page retries with backoff and, once the API is back, resumes after the last
    // event it saw.
    await expect(page.getByText(/Found \d+.* businesses so far/)).toBeVisible({ timeout: 60_000 });
    const state = readState();
    expect(state, 'the stack state').not.toBeNull();
    const resumed = page.waitForRequest(
      (r) => /\/api\/leads\/searches\/[^/]+\/events$/.test(new URL(r.url()).pathname) && Number(r.headers()['last-event-id']) > 0,
      { timeout: 90_000 },
    );
    await restartApi(state!, 3000);
    await resumed;
    await expect(page.getByText('Dentist in Austin, TX', { exact: true })).toBeVisible({ timeout: 150_000 });
    const shown = Number(((await page.getByText(/^Found [\d,]+ leads?$/).textContent()) ?? '').replace(/\D/g, ''));
    expect(shown).toBeGreaterThan(0);
    // The server's count of leads it sent is the page's count: none lost, none twice.
    const newest = history.getByRole('listitem').filter({ hasText: 'Dentist · Austin, TX' }).first();
    await expect(newest.getByText('Complete', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(newest).toContainText(`${shown.toLocaleString('en-US')} leads`);
  });

  await test.step('a running search cancels from its row', async () => {
    await page.getByLabel('Location').fill('Houston, TX');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const cancel = history.getByRole('button', { name: 'Cancel Dentist in Houston, TX' });
    await expect(cancel).toBeVisible({ timeout: 30_000 });
    const posted = page.waitForResponse((r) => /\/api\/leads\/searches\/[^/]+\/cancel$/.test(new URL(r.url()).pathname));
    await cancel.click();
    expect((await posted).status()).toBe(200);
    const row = history.getByRole('listitem').filter({ hasText: 'Dentist · Houston, TX' });
    await expect(row.getByText('Cancelled', { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(page.getByRole('heading', { name: 'Searching for Dentist in Houston, TX...' })).toHaveCount(0, { timeout: 60_000 });
    await shot(page, '41-search-cancelled');
  });

  // While the API was down the browser logged its failed requests: those, and only those.
  expectNoConsoleErrors(consoleErrors, [/Failed to load resource: net::ERR_(CONNECTION_REFUSED|EMPTY_RESPONSE|CONNECTION_RESET|INCOMPLETE_CHUNKED_ENCODING)/]);
});
