import { chooseBusinessType, expect, expectNoConsoleErrors, shot, signUpWithKey, test } from './fixtures';

// A paying agency's first week, as issue #26 found it, walked again (item 11): a free
// user's first full search of a metro (the Places simulator's "Houston, TX" has 1,500
// dentists; the free plan allows 1,000 leads a day, LEADGEN_FREE_DAILY_LEADS) warns before
// it starts, says why it stopped and never calls itself "Complete", the usage card shows
// today's leads against the allowance, the results can be opened again from the history
// after leaving the page, and the same held results show every card on a phone.

/** A well-formed key without a fault marker (testkit places_sim/faults.rs): answers at once. */
const KEY = 'AIzaSyE2eFirstWeek3456789abcdefghijklm';
const PHONE = { width: 390, height: 844 };

test("first week: a free user's first full search warns, stops honestly, and stays reachable on desktop and phone", async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  await signUpWithKey(page, 'fiona', KEY);

  await test.step('the estimate warns that the daily allowance will stop the search', async () => {
    await chooseBusinessType(page, 'dentist');
    await page.getByLabel('Location').fill('Houston, TX');
    await page.getByRole('radio', { name: /Full area/ }).check();
    await page.getByRole('button', { name: 'Estimate cost' }).click();
    await expect(
      page.getByText(/^Today's allowance leaves 1,000 leads: this search would stop at 1,000 of about [\d,]+\. It resets at midnight UTC\.$/),
    ).toBeVisible({ timeout: 30_000 });
    await shot(page, '70-first-week-warning');
  });

  await test.step('the search runs with a Cancel on its card and stops saying why', async () => {
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Searching for Dentist in Houston, TX...' })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Cancel/ }).first()).toBeVisible();
    await expect(page.getByText(/Stopped: daily limit reached \(1,000 of about [\d,]+\)\./)).toBeVisible({ timeout: 150_000 });
    await expect(page.getByRole('heading', { name: 'Found 1,000 leads' })).toBeVisible();
    await expect(page.getByText(/^Results are kept for \d+ minutes?: export them now\.$/)).toBeVisible();
  });

  const history = page.getByRole('list', { name: 'Your searches' });
  const row = history.getByRole('listitem').filter({ hasText: 'Dentist · Houston, TX' });
  await test.step("the history says it stopped, not 'Complete', and usage shows today's leads", async () => {
    await expect(row.getByText('Stopped: daily limit reached', { exact: true })).toBeVisible();
    await expect(row.getByText('Complete', { exact: true })).toHaveCount(0);
    await expect(page.getByText(/1,000 \/ 1,000 leads today · daily limit reached, resets at midnight UTC/)).toBeVisible();
  });

  await test.step('after leaving the page, Open brings the held results back', async () => {
    // Away to Settings in the app, then back with a full page load (the browser's own
    // navigation, as after closing the tab): the results are no longer on the dashboard.
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.waitForURL((url) => url.pathname === '/settings');
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Find new leads' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Found 1,000 leads' })).toHaveCount(0);
    await row.getByRole('button', { name: /^Open/ }).click();
    await expect(page.getByRole('heading', { name: 'Found 1,000 leads' })).toBeVisible({ timeout: 30_000 });
    await shot(page, '71-first-week-reopened');
  });

  await test.step('on a phone the same results show every card, to the last', async () => {
    await page.setViewportSize(PHONE);
    await expect(page.getByRole('table')).toHaveCount(0);
    const region = page.getByRole('region', { name: 'Leads' });
    const last = page.getByRole('list', { name: 'Leads found' }).locator('li[aria-posinset="1000"]');
    await expect(async () => {
      await region.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await expect(last).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(last).toHaveAttribute('aria-setsize', '1000');
    await shot(page, '72-first-week-phone');
  });

  await test.step("on a phone, Settings offers delivery of full searches (axe finds nothing)", async () => {
    await page.goto('/settings?tab=spreadsheet');
    const card = page.getByRole('heading', { name: 'Deliver full searches' });
    await expect(card).toBeVisible();
    // The e2e stack has no mail server: email is offered as not set up, never silently.
    await expect(page.getByRole('radio', { name: /Email me the CSV/ })).toBeDisabled();
    await expect(page.getByText('Not set up on this server.')).toBeVisible();
    await shot(page, '73-first-week-phone-delivery');
  });

  expectNoConsoleErrors(consoleErrors);
});
