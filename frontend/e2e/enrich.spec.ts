import fs from 'node:fs';
import { chooseBusinessType, expect, expectNoConsoleErrors, parseSse, shot, signUpFromLanding, test } from './fixtures';

// Contact enrichment (issue #14) in the browser against the real stack: leadgen-worker
// reads the businesses' websites on the fake web (testkit fake_web) while the search
// streams; emails appear beside the live names, then in the results' Email column and
// the CSV, and the box stays ticked for this user.

/** `SLOW` (testkit places_sim/faults.rs): each Places page answers after SIM_SLOW_MS, so sites found on the first page are read while the next is fetched. */
const SLOW_KEY = 'AIzaSyE2eSLOW0123456789abcdefghijklmno';

const isStream = (url: string) => new URL(url).pathname === '/api/leads/search-stream';

function fakeWebUrl(): string {
  const url = process.env.LEADGEN_E2E_FAKE_WEB_URL;
  if (!url) throw new Error('LEADGEN_E2E_FAKE_WEB_URL is not set: run through `npm run e2e`');
  return url;
}

/** The slug of a fake-web site's URL (`{base}/sites/{slug}/`). */
const slugOf = (website: string) => new URL(website).pathname.split('/').filter(Boolean).pop() ?? '';

test('enrichment: emails appear beside the leads as their sites are read, then in the table and the CSV', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(120_000);

  await test.step('sign up and save a key', async () => {
    await signUpFromLanding(page, 'emma');
    await page.waitForURL((url) => url.pathname === '/onboarding');
    await page.getByLabel('Google Places API key').fill(SLOW_KEY);
    await page.getByRole('button', { name: 'Save and Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await expect(page.getByText('Configured & Ready')).toBeVisible();
  });

  const box = page.getByRole('checkbox', { name: 'Find emails and social profiles' });
  let frames: ReturnType<typeof parseSse> = [];
  await test.step('an enriched search shows emails beside the names while it runs', async () => {
    await expect(box).not.toBeChecked();
    await box.check();
    await chooseBusinessType(page, 'restaurant');
    await page.getByLabel('Location').fill('Austin, TX');
    const response = page.waitForResponse((r) => isStream(r.url()) && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Searching for Restaurant in Austin, TX...' })).toBeVisible();
    // While the search still runs (pages take over a second each), an email is beside a
    // name. The live list ('Businesses found') is there only while the search runs (the
    // table replaces it when it completes), so one check proves both: on a slow machine
    // the search may complete right after the first email shows.
    const live = page.getByRole('list', { name: 'Businesses found' }).getByTestId('live-email').first();
    await expect(live).toHaveText(/^[^@\s]+@[^@\s]+\.[a-z]+( \+\d+)?$/, { timeout: 20_000 });
    await shot(page, '50-enrichment-live');

    const res = await response;
    expect(res.request().postDataJSON()).toEqual({ businessType: 'restaurant', location: 'Austin, TX', enrich: true });
    frames = parseSse(await res.text());
    expect(frames.at(-1)?.data.type).toBe('complete');
  });

  await test.step('the results show each lead\u2019s emails, exactly what its site publishes', async () => {
    const enriched = frames.filter((f) => f.data.type === 'lead_enriched').map((f) => f.data as { placeId: string; emails: string[] });
    const found = frames.filter((f) => f.data.type === 'business_found').map((f) => (f.data as { lead: { placeId: string; name: string; website: string } }).lead);
    const withSite = found.filter((l) => l.website);
    expect(enriched.length).toBe(withSite.length);
    // What the fake web says each site publishes in a supported form.
    const query = withSite.map((l) => `site=${encodeURIComponent(slugOf(l.website))}`).join('&');
    const truth = (await (await page.request.get(`${fakeWebUrl()}/_web/truth?${query}`)).json()) as {
      sites: Record<string, { emails: string[] }>;
    };
    let published = 0;
    for (const lead of withSite) {
      const want = truth.sites[slugOf(lead.website)].emails;
      const got = enriched.find((e) => e.placeId === lead.placeId)?.emails ?? [];
      expect(got.map((e) => e.toLowerCase()).sort(), lead.name).toEqual([...want].sort());
      published += want.length;
    }
    expect(published).toBeGreaterThan(5);

    const table = page.getByRole('region', { name: 'Leads' });
    await expect(table.getByRole('columnheader', { name: 'Email' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Profiles' })).toBeVisible();
    const example = withSite.find((l) => (enriched.find((e) => e.placeId === l.placeId)?.emails.length ?? 0) > 0);
    expect(example).toBeDefined();
    const email = enriched.find((e) => e.placeId === example?.placeId)?.emails[0] ?? '';
    const row = table.getByRole('row').filter({ hasText: example?.name ?? '' }).first();
    await expect(row.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
    await shot(page, '51-enrichment-results');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV', exact: true }).click();
    const file = await (await download).path();
    const csv = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      '"Name","Address","Phone","Website","Rating","Reviews","Email","Facebook","Instagram","LinkedIn","X","YouTube","TikTok","Website read","Category","Street","City","State","Postal Code","Place ID"',
    );
    expect(csv).toContain(`"${email}`);
  });

  await test.step('the box stays ticked for this user', async () => {
    await page.reload();
    await expect(box).toBeChecked();
    await box.uncheck();
    await page.reload();
    await expect(box).not.toBeChecked();
  });

  expectNoConsoleErrors(consoleErrors);
});
