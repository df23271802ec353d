import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { signInAs } from './billing-helpers';
import { answerPictures, chooseBusinessType, expect, expectAccessible, expectNoConsoleErrors, parseSse, recordLiveList, shot, signUpFromLanding, storedToken, test, type ConsoleEntry, type SseFrame } from './fixtures';

// Browser end-to-end tests against the real stack: leadgen-api + leadgen-worker on
// Postgres and Redis, the OIDC provider and the Places simulator (see stack.ts).

/** Well-formed keys (AIza + 35): the simulator accepts any; markers pick a behaviour. */
// `SLOW` (testkit places_sim/faults.rs): each page answers after SIM_SLOW_MS, so the
// live list of a 3-page search is on screen long enough to be seen.
const SLOW_KEY = 'AIzaSyE2eSLOW0123456789abcdefghijklmno';
// `INVALIDKEY`: the simulator answers Google's 400 API_KEY_INVALID.
const INVALID_KEY = 'AIzaSyE2eINVALIDKEY0123456789abcdefgh';
const GOOD_KEY = 'AIzaSyE2eGood0123456789abcdefghijklmno';

interface StreamLead {
  name: string;
  address: string;
  phone: string;
  website: string;
  placeId: string;
  rating?: number;
  reviewCount?: number;
  category?: string;
  street?: string;
  city?: string;
  state?: string;
  postalCode?: string;
}

/**
 * CSV as the spec wants it, built independently of the app's code: every value quoted;
 * the spec's six columns, then the place's own (issue #26 item 7).
 */
function expectedCsv(leads: StreamLead[]): string {
  const quote = (value: unknown) => `"${value === undefined || value === null ? '' : String(value).replace(/"/g, '""')}"`;
  const rows = [
    ['Name', 'Address', 'Phone', 'Website', 'Rating', 'Reviews', 'Category', 'Street', 'City', 'State', 'Postal Code', 'Place ID'],
    ...leads.map((l) => [l.name, l.address, l.phone, l.website, l.rating, l.reviewCount, l.category, l.street, l.city, l.state, l.postalCode, l.placeId]),
  ];
  return rows.map((row) => row.map(quote).join(',')).join('\r\n');
}

/** Whether a computed CSS colour (rgb() or Tailwind 4's oklch()) is a red. */
function isRed(colour: string): boolean {
  const oklch = /^oklch\(([\d.]+)%? ([\d.]+) ([\d.]+)/.exec(colour);
  if (oklch) {
    const [chroma, hue] = [Number(oklch[2]), Number(oklch[3])];
    return chroma > 0.005 && (hue < 40 || hue > 340);
  }
  const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).map(Number);
  return r > g + 10 && r > b + 10;
}

const isStream = (url: string) => new URL(url).pathname === '/api/leads/search-stream';

/** Fills the search form and starts a search; resolves with the stream's frames when it ends. */
async function search(page: Page, businessType: string, location: string): Promise<() => Promise<SseFrame[]>> {
  await page.evaluate(() => (window.__liveNames = []));
  await chooseBusinessType(page, businessType);
  await page.getByLabel('Location').fill(location);
  const response = page.waitForResponse((r) => isStream(r.url()) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  return async () => {
    const res = await response;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/event-stream');
    expect(res.request().postDataJSON()).toEqual({ businessType, location: location.trim() });
    return parseSse(await res.text());
  };
}

function checkFrames(frames: SseFrame[], businessType: string, location: string) {
  expect(frames.length).toBeGreaterThanOrEqual(2);
  // Every frame carries an id, increasing.
  const ids = frames.map((f) => Number(f.id));
  expect(ids.every((id) => Number.isInteger(id))).toBe(true);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(ids.length);
  expect(frames[0].data).toMatchObject({ type: 'start', businessType, location });
}

test('signed out: landing page, unknown paths go home, protected pages ask to sign in', async ({ page, consoleErrors }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Sign up' })).toBeEnabled();
  await shot(page, '00-signed-out-landing');

  await page.goto('/no/such/page');
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('button', { name: 'Sign up' })).toBeVisible();
  await shot(page, '00-signed-out-not-found');

  // The provider's error return (a refused consent, for example).
  await page.goto('/auth/error');
  await expect(page.getByRole('heading', { name: 'Authentication Failed' })).toBeVisible();
  await shot(page, '00-signed-out-auth-error');

  for (const path of ['/dashboard', '/settings?tab=billing', '/onboarding']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Authentication Required' })).toBeVisible();
    // The guard redirects to the sign-in screen, which keeps the page to come back to.
    const url = new URL(page.url());
    expect(url.pathname).toBe('/auth/sign-in');
    expect(url.searchParams.get('redirect')).toBe(path);
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled();
  }
  await shot(page, '00-signed-out-auth-required');

  // The footer's legal pages.
  await page.goto('/');
  for (const [link, heading, file] of [
    ['Privacy Policy', /Privacy/, '00-signed-out-privacy'],
    ['Terms of Service', /Terms/, '00-signed-out-terms'],
  ] as const) {
    await page.getByRole('contentinfo').getByRole('link', { name: link }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    // 'Last updated' is today's date (the browser and this runner share the clock and zone).
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
    await expect(page.getByText(`Last updated: ${today}`)).toBeVisible();
    await shot(page, file);
    await page.goBack();
  }
  expectNoConsoleErrors(consoleErrors);
});

test('signed out: signing in from a protected page comes back to it', async ({ page, consoleErrors }) => {
  // A user of this test only: specs share one database, and 'first login' is per user.
  await signInAs(page, 'rhea');
  await page.goto('/settings?tab=profile');
  await page.waitForURL((url) => url.pathname === '/auth/sign-in');
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await page.waitForURL((url) => url.pathname === '/auth/success');
  await expect(page.getByText('Taking you back...')).toBeVisible();
  await page.waitForURL((url) => url.pathname === '/settings' && url.searchParams.get('tab') === 'profile');
  await expect(page.getByLabel('Email')).toHaveValue('rhea@example.com');
  expectNoConsoleErrors(consoleErrors);
});

test('main flow: sign up, onboarding, streaming search, CSV, no results, settings, logout', async ({
  page,
  consoleErrors,
}) => {
  await recordLiveList(page);

  await test.step('sign up through the OIDC provider', async () => {
    await signUpFromLanding(page, 'alice', { screenshot: '01-landing' });
    await expect(page.getByRole('heading', { name: 'Welcome, Alice!' })).toBeVisible();
    // The token left the address bar and went to local storage.
    expect(new URL(page.url()).search).toBe('');
    expect(await storedToken(page)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await shot(page, '03-auth-success');
  });

  await test.step('first login lands on /onboarding; the key rules apply', async () => {
    await page.waitForURL((url) => url.pathname === '/onboarding');
    await expect(page.getByRole('heading', { name: "Welcome, Alice! Let's get you set up" })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Setup progress' })).toContainText('API Setup');
    await shot(page, '04-onboarding');

    const key = page.getByLabel('Google Places API key');
    const save = page.getByRole('button', { name: 'Save and Continue' });
    await save.click();
    await expect(page.getByText('Please enter your Google Places API key')).toBeVisible();
    await key.fill('AIzaTooShort123');
    await save.click();
    await expect(page.getByText('Invalid API key format. Google Places API keys typically start with "AIza"')).toBeVisible();
    await key.fill('XXza' + SLOW_KEY.slice(4));
    await save.click();
    await expect(page.getByText('Invalid API key format.')).toBeVisible();
    await shot(page, '05-onboarding-invalid-key');
    expect(new URL(page.url()).pathname).toBe('/onboarding');

    await key.fill(SLOW_KEY);
    await expect(key).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show API key' }).click();
    await expect(key).toHaveAttribute('type', 'text');
    // The key's check is held until the 'validating' state has been checked with axe.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/user/**', async (route) => {
      await held;
      await route.continue();
    });
    await save.click();
    await expect(page.getByRole('button', { name: 'Validating your API key...' })).toBeDisabled();
    await expectAccessible(page, '05-onboarding-validating');
    release();
    // Waits for the held requests to be sent on before the route goes.
    await page.unrouteAll({ behavior: 'wait' });
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  await test.step('dashboard with the key configured', async () => {
    await expect(page.getByRole('heading', { name: 'Hello, Alice' })).toBeVisible();
    await expect(page.getByText('Configured & Ready')).toBeVisible();
    await expect(page.getByText('API Key Required')).toHaveCount(0);
    await expect(page.getByRole('banner').getByText('Alice Example')).toBeVisible();
    // The saved key is shown masked, never in full.
    await expect(page.getByText(SLOW_KEY)).toHaveCount(0);
    const searchButton = page.getByRole('button', { name: 'Search', exact: true });
    await expect(searchButton).toBeDisabled();
    await shot(page, '06-dashboard');
  });

  await test.step('the business type is a combobox: type to filter, arrows and Enter, any Google place type (issue #26 item 9)', async () => {
    const box = page.getByRole('combobox', { name: 'Business type' });
    await box.focus();
    await page.keyboard.type('vegan');
    const list = page.getByRole('listbox', { name: 'Business types' });
    await expect(list.getByRole('group', { name: 'More Google place types' })).toBeVisible();
    await expect(list.getByRole('option', { name: 'Vegan Restaurant' })).toBeVisible();
    await shot(page, '06-business-type-combobox');
    await page.keyboard.press('Enter');
    await expect(box).toHaveValue('Vegan Restaurant');
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    // Escape leaves the earlier choice in place.
    await page.keyboard.press('Control+A');
    await page.keyboard.type('dent');
    await expect(list.getByRole('option', { name: 'Dentist' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Escape');
    await expect(box).toHaveValue('Vegan Restaurant');
  });

  let leads: StreamLead[] = [];
  await test.step('a search streams names into the live list, then shows the results', async () => {
    const frames = await search(page, 'restaurant', '  Austin ');
    // While the search runs: form disabled, names stream in, the note above 5 names.
    await expect(page.getByRole('button', { name: 'Searching...' })).toBeDisabled();
    await expect(page.getByLabel('Location')).toBeDisabled();
    await expect(page.getByRole('heading', { name: 'Searching for Restaurant in Austin...' })).toBeVisible();
    const live = page.getByRole('list', { name: 'Businesses found' });
    await expect(live.getByRole('listitem').first()).toBeVisible();
    await expect(page.getByText('Showing latest businesses found')).toBeVisible();
    // The list moves on with the next page (1.2 s later) before the shot: its axe run holds
    // the page's main thread, on a 2-core CI machine for longer than a page, and pages that
    // arrive meanwhile are rendered together (CI failed on one state at session 21's stop).
    await expect
      .poll(() => page.evaluate(() => window.__liveNames.filter((s) => s.names.length > 0).length), { timeout: 10_000 })
      .toBeGreaterThan(1);
    await shot(page, '07-dashboard-live-search');

    await expect(page.getByRole('heading', { name: /^Found \d+ leads$/ })).toBeVisible({ timeout: 20_000 });
    const stream = await frames();
    checkFrames(stream, 'restaurant', 'Austin');
    const found = stream.filter((f) => f.data.type === 'business_found');
    const last = stream[stream.length - 1].data;
    expect(last.type).toBe('complete');
    expect(stream.filter((f) => f.data.type === 'complete' || f.data.type === 'error')).toHaveLength(1);
    // Three pages of up to 20: more than one page, so the list was live for a while.
    expect(found.length).toBeGreaterThan(20);
    found.forEach((f, i) => {
      expect(f.data.found).toBe(i + 1);
      expect(f.data.name).toBe((f.data.lead as StreamLead).name);
    });
    leads = found.map((f) => f.data.lead as StreamLead);
    // `complete` repeats every lead streamed, in the same order.
    expect(last.results).toEqual(leads);
    expect(last.search).toEqual({ businessType: 'restaurant', location: 'Austin' });
    expect(new Set(leads.map((l) => l.placeId)).size).toBe(leads.length);

    // What the live list showed: streamed names only, at most 10 at a time, the latest
    // ones, all before the results panel appeared.
    const states = await page.evaluate(() => window.__liveNames);
    const streamedNames = found.map((f) => f.data.name as string);
    const shown = states.filter((s) => s.names.length > 0);
    expect(shown.length).toBeGreaterThan(1);
    for (const state of shown) {
      expect(state.resultsShown).toBe(false);
      expect(state.names.length).toBeLessThanOrEqual(10);
      const end = streamedNames.findIndex((_, i) => streamedNames.slice(i, i + state.names.length).join('\n') === state.names.join('\n'));
      expect(end, `live list ${JSON.stringify(state.names)} is a run of streamed names`).toBeGreaterThanOrEqual(0);
      expect(state.note).toBe(state.names.length > 5);
    }
    // Form enabled again and the live list gone.
    await expect(live).toHaveCount(0);
    await expect(page.getByLabel('Location')).toBeEnabled();
    await expect(page.getByText('Restaurant in Austin', { exact: true })).toBeVisible();

    // The results table shows every lead, in order.
    await expect(page.getByRole('heading', { name: `Found ${leads.length} leads` })).toBeVisible();
    const rows = page.getByRole('table', { name: 'Leads found' }).locator('tbody tr');
    await expect(rows).toHaveCount(leads.length);
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim())),
    );
    const host = (url: string) => new URL(url).host.replace(/^www\./, '');
    expect(cells).toEqual(
      leads.map((l) => [
        l.name,
        l.address,
        l.phone || '—',
        l.website ? host(l.website) : '—',
        l.rating != null ? l.rating.toFixed(1) : '—',
        l.reviewCount != null ? String(l.reviewCount) : '—',
        // Its Google Maps link (issue #26 item 7).
        'Map',
      ]),
    );
    // The simulator's world has leads without phone, website or rating: the table
    // and the CSV must cope with empty values.
    expect(leads.some((l) => !l.phone || !l.website || l.rating == null)).toBe(true);
    await shot(page, '08-dashboard-results');
  });

  await test.step('usage is refreshed after the search', async () => {
    // The API counts searches against the monthly allowance and leads apart.
    await expect(page.getByRole('heading', { name: 'Usage this month' })).toBeVisible();
    await expect(page.getByText(/^1\s*\/\s*100 searches$/)).toBeVisible();
    await expect(page.getByText(`${leads.length} leads this month`)).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Monthly usage' })).toBeVisible();
  });

  await test.step('Download CSV gives exactly the streamed leads', async () => {
    const before = Date.now();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV', exact: true }).click();
    const download = await downloading;
    const name = download.suggestedFilename();
    const match = /^leads-restaurant-austin-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.csv$/.exec(name);
    expect(match, name).not.toBeNull();
    const stamp = Date.parse(`${match![1]}T${match![2]}:${match![3]}:${match![4]}Z`);
    expect(stamp).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(stamp).toBeLessThanOrEqual(Date.now());
    const bytes = fs.readFileSync((await download.path())!);
    const text = bytes.toString('utf8');
    // A UTF-8 byte-order mark (docs/decisions.md, CSV), then the rows.
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1)).toBe(expectedCsv(leads));
    expect(text.slice(1).split('\r\n')).toHaveLength(leads.length + 1);
  });

  await test.step("an unknown place finds nothing: 'No results found'", async () => {
    // The simulator's world has 14 US cities; a location it cannot place returns `{}`
    // (testkit places_sim/world.rs `search`), as Google does.
    const frames = await search(page, 'dentist', 'Atlantis');
    await expect(page.getByRole('heading', { name: 'No results found' })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('No dentist businesses were found in Atlantis.')).toBeVisible();
    // The earlier results are gone, and so are the export buttons.
    await expect(page.getByRole('table', { name: 'Leads found' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Download CSV', exact: true })).toHaveCount(0);
    const stream = await frames();
    checkFrames(stream, 'dentist', 'Atlantis');
    expect(stream.map((f) => f.data.type)).toEqual(['start', 'complete']);
    expect(stream[1].data.results).toEqual([]);
    await shot(page, '09-dashboard-no-results');
  });

  await test.step('an unknown path while signed in goes to /', async () => {
    await page.goto('/no/such/page');
    await page.waitForURL((url) => url.pathname === '/');
    // Signed in: the landing header offers the dashboard instead of sign-in.
    await expect(page.getByRole('link', { name: 'Dashboard' }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign up' })).toHaveCount(0);
    await shot(page, '10-landing-signed-in');
  });

  await test.step('settings: the key is masked, tested and active', async () => {
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await expect(page.getByText('alice@example.com').first()).toBeVisible();
    const key = page.getByLabel('Places API key');
    const preview = await key.inputValue();
    expect(preview).not.toBe('');
    expect(preview).not.toBe(SLOW_KEY);
    await expect(page.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    // The worker records a key that just served a search as working.
    await expect(page.getByText('API Key Active')).toBeVisible();
    await expect(page.getByText('API Key Status Unknown')).toHaveCount(0);
    await page.getByRole('button', { name: 'Test API Key' }).click();
    await expect(page.getByRole('button', { name: 'Testing...' })).toBeDisabled();
    await expect(page.getByRole('status').filter({ hasText: 'API key is valid and working' })).toBeVisible();
    await expect(page.getByText('API Key Active')).toBeVisible();
    await shot(page, '11-settings-api-keys');

    await page.getByRole('link', { name: 'Security & Privacy' }).click();
    await expect(page.getByText('Encrypt API Keys')).toBeVisible();
    await shot(page, '12-settings-security');
    await page.getByRole('link', { name: 'Profile' }).click();
    await expect(page.getByLabel('Email')).toHaveValue('alice@example.com');
    await expect(page.getByLabel('Name')).toHaveValue('Alice Example');
    await shot(page, '13-settings-profile');
    // The tab is in the address: a reload opens it again (issue #26 item 9).
    await expect(page).toHaveURL((url) => url.pathname === '/settings' && url.searchParams.get('tab') === 'profile');
    await page.reload();
    await expect(page.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByLabel('Email')).toHaveValue('alice@example.com');
    await page.getByRole('link', { name: /Back to Dashboard/ }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  await test.step('logout returns to / and the dashboard then asks to sign in', async () => {
    const token = await storedToken(page);
    expect(token).not.toBeNull();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect(page.getByRole('button', { name: 'Sign up' })).toBeVisible();
    expect(await storedToken(page)).toBeNull();
    // The server revoked the session: the old token no longer works.
    const me = await page.request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status()).toBe(401);

    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Authentication Required' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in with Google' })).toBeEnabled();
    await shot(page, '14-dashboard-after-logout');
  });

  expectNoConsoleErrors(consoleErrors);
});

test("search error: a key Google refuses shows the red 'Search Failed' banner", async ({ page, consoleErrors }) => {
  await recordLiveList(page);
  await signUpFromLanding(page, 'bob');
  await page.waitForURL((url) => url.pathname === '/onboarding');
  // Onboarding asks Google first (issue #26 item 5): a refused key is not saved, and
  // Google's reason is shown.
  await page.getByLabel('Google Places API key').fill(INVALID_KEY);
  await page.getByRole('button', { name: 'Save and Continue' }).click();
  await expect(page.getByRole('alert')).toContainText('not valid');
  expect(new URL(page.url()).pathname).toBe('/onboarding');
  // A key Google accepted then and refuses later (revoked since): the check passes once,
  // and the search meets the refusal.
  await page.route('**/api/leads/check-api-key', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ valid: true, message: 'API key is valid and working' }) }),
  );
  await page.getByRole('button', { name: 'Save and Continue' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });
  await page.unroute('**/api/leads/check-api-key');
  await expect(page.getByRole('heading', { name: 'Hello, Bob' })).toBeVisible();

  const frames = await search(page, 'plumber', 'Denver');
  const banner = page.getByRole('alert').filter({ hasText: 'Search Failed' });
  await expect(banner).toBeVisible({ timeout: 20_000 });
  const stream = await frames();
  checkFrames(stream, 'plumber', 'Denver');
  const last = stream[stream.length - 1].data;
  expect(last.type).toBe('error');
  expect(typeof last.message).toBe('string');
  // The banner shows the stream's message, in red.
  await expect(banner).toContainText(last.message as string);
  await expect(banner).toHaveAttribute('data-tone', 'error');
  expect(isRed(await banner.evaluate((el) => getComputedStyle(el).backgroundColor))).toBe(true);
  expect(isRed(await banner.evaluate((el) => getComputedStyle(el).color))).toBe(true);
  // No results panel, no live names, the form usable again.
  await expect(page.getByRole('heading', { name: /^Found \d+ leads?$/ })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Businesses found' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeEnabled();
  await shot(page, '15-dashboard-search-failed');

  // Settings: Test API Key reports the refusal; a good key fixes the search.
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('button', { name: 'Test API Key' }).click();
  const refused = page.getByRole('alert').filter({ hasText: /key/i });
  await expect(refused).toBeVisible();
  // Not 'API Key Active': the failed search and the test recorded the key as refused.
  await expect(page.getByText('API Key Status Unknown')).toBeVisible();
  await expect(page.getByText('API Key Active')).toHaveCount(0);
  await shot(page, '16-settings-key-refused');
  await page.getByLabel('Places API key').fill(GOOD_KEY);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'API key saved successfully' })).toBeVisible();
  await shot(page, '17-settings-key-saved');
  await page.getByRole('link', { name: /Back to Dashboard/ }).click();

  const again = await search(page, 'plumber', 'Denver');
  await expect(page.getByRole('heading', { name: /^Found \d+ leads?$/ })).toBeVisible({ timeout: 20_000 });
  await expect(banner).toHaveCount(0);
  const ok = await again();
  expect(ok[ok.length - 1].data.type).toBe('complete');
  expect((ok[ok.length - 1].data.results as unknown[]).length).toBeGreaterThan(0);

  // Known, explained exceptions: Test API Key and onboarding's key check with a refused
  // key answer 400 (the API's documented contract, openapi.json test_api_key and
  // check_api_key), which Chromium logs as a failed resource load. Nothing else may be logged.
  expectNoConsoleErrors(consoleErrors, [
    /Failed to load resource: the server responded with a status of 400 .* @ http:\/\/127\.0\.0\.1:\d+\/api\/leads\/(test|check)-api-key$/,
  ]);
});

test("returning user who skipped onboarding sees 'Welcome back' and cannot search without a key", async ({
  browser,
  consoleErrors,
  page,
}) => {
  // First sign-in: straight to onboarding, which carol leaves unfinished.
  await signUpFromLanding(page, 'carol');
  await page.waitForURL((url) => url.pathname === '/onboarding');

  // Second sign-in, in a fresh browser: not the first login any more.
  const context = await browser.newContext({ baseURL: process.env.LEADGEN_E2E_BASE_URL });
  const second = await context.newPage();
  const errors: ConsoleEntry[] = [];
  second.on('console', (msg) => {
    if (msg.type() === 'error') errors.push({ type: 'console', text: msg.text(), url: msg.location().url });
  });
  second.on('pageerror', (error) => errors.push({ type: 'pageerror', text: String(error), url: '' }));
  await answerPictures(context);
  await signUpFromLanding(second, 'carol', { button: 'Log in' });
  await second.waitForURL((url) => url.pathname === '/dashboard');
  await expect(second.getByRole('heading', { name: 'Welcome back, Carol!' })).toBeVisible();
  await expect(second.getByRole('link', { name: 'Complete Setup Now' })).toBeVisible();
  await shot(second, '18-dashboard-welcome-back');

  await second.getByRole('button', { name: 'Skip for now' }).click();
  await expect(second.getByRole('heading', { name: 'Hello, Carol' })).toBeVisible();
  await expect(second.getByText('API Key Required')).toBeVisible();
  await expect(second.getByText('Not Configured')).toBeVisible();
  await chooseBusinessType(second, 'dentist');
  await second.getByLabel('Location').fill('Austin');
  await expect(second.getByRole('button', { name: 'Search', exact: true })).toBeDisabled();
  await shot(second, '19-dashboard-no-key');

  await second.getByRole('link', { name: 'Go to Settings' }).click();
  await second.waitForURL((url) => url.pathname === '/settings');
  await expect(second.getByText('API Key Status Unknown')).toHaveCount(0);
  await expect(second.getByRole('button', { name: 'Test API Key' })).toHaveCount(0);
  await shot(second, '20-settings-no-key');

  // Spreadsheet: no Google Sheets grant yet, so not connected, with Configure (the grant
  // itself is tested in sheets.spec.ts).
  await second.getByRole('link', { name: 'Spreadsheet' }).click();
  await expect(second.getByText('Not connected')).toBeVisible();
  await second.getByRole('button', { name: 'Configure' }).click();
  await expect(second.getByRole('dialog')).toContainText('Google Sheets export');
  await shot(second, '21-settings-spreadsheet-reauth');
  await second.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(second.getByRole('dialog')).toHaveCount(0);
  // Webhooks replaced its placeholder (#15; the whole flow is in integrations.spec.ts).
  await second.getByRole('link', { name: 'Webhooks' }).click();
  await expect(second.getByText('No endpoints yet.')).toBeVisible();
  await expect(second.getByText(/coming soon/i)).toHaveCount(0);
  await shot(second, '22-settings-webhooks');
  // Billing: no subscription yet (the whole Stripe round trip is in billing.spec.ts).
  await second.getByRole('link', { name: 'Billing' }).click();
  await expect(second.getByText('No Active Subscription')).toBeVisible();
  await expect(second.getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  await expect(second.getByText('Failed to load billing status')).toHaveCount(0);
  await shot(second, '23-settings-billing');
  await context.close();

  expectNoConsoleErrors(errors);
  expectNoConsoleErrors(consoleErrors);
});
