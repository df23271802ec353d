import type { Locator, Page } from '@playwright/test';
import { chooseBusinessType, expect, expectNoConsoleErrors, shot, signUpWithKey, test } from './fixtures';

// Monitors in the web app (issue #29 item 7): a search saved as a monitor from the form,
// by keyboard only (a schedule chosen in words, sent as cron in the browser's zone), seen
// on the Monitors page with its schedule in words, run now (the run's new places shown),
// paused and resumed, edited. Every screen passes axe.

/** A well-formed key without a fault marker (testkit places_sim/faults.rs): answers at once. */
const KEY = 'AIzaSyE2eMonitors0123456789abcdefghijk';

/** Tabs (forward, or back) until `target` has the focus (at most `max` presses). */
async function tabTo(page: Page, target: Locator, max = 40, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

test('monitors: save a search as a monitor by keyboard, see it, run it now, pause it', async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  await signUpWithKey(page, 'monty', KEY);

  await test.step('the form offers the exclusion choice and Save as monitor', async () => {
    await chooseBusinessType(page, 'dentist');
    await page.getByLabel('Location').fill('Austin, TX');
    const places = page.getByLabel('Places');
    await expect(places).toHaveValue('none');
    await places.selectOption({ label: 'Only places not seen before' });
    await expect(places).toHaveValue('seen');
  });

  const dialog = page.getByRole('dialog', { name: 'Save as monitor' });
  await test.step('the dialog, keyboard only: name, weekly on Friday at 07:30, email', async () => {
    const save = page.getByRole('button', { name: 'Save as monitor' });
    await expect(save).toBeEnabled();
    await save.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    // Focus moved into the dialog, on its first control.
    const name = dialog.getByLabel('Name');
    await tabTo(page, name);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('Austin dentists');
    await tabTo(page, dialog.getByLabel('Runs'));
    await expect(dialog.getByLabel('Runs')).toHaveValue('weekly');
    await tabTo(page, dialog.getByLabel('On', { exact: true }));
    await dialog.getByLabel('On', { exact: true }).selectOption({ label: 'Friday' });
    await tabTo(page, dialog.getByLabel('At'));
    await dialog.getByLabel('At').fill('07:30');
    await expect(dialog.getByText(/Every Friday at 07:30/)).toBeVisible();
    await expect(dialog.getByLabel('Only new places')).toBeChecked();
    const email = dialog.getByLabel('By email to me');
    await tabTo(page, email);
    await page.keyboard.press('Space');
    await expect(email).toBeChecked();
    await shot(page, 'a0-save-as-monitor');

    const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads/saved-searches' && r.request().method() === 'POST');
    await tabTo(page, dialog.getByRole('button', { name: 'Save monitor' }));
    await page.keyboard.press('Enter');
    const response = await created;
    expect(response.ok()).toBe(true);
    const body = response.request().postDataJSON() as { schedule: { cron: string; timeZone: string }; onlyNew: boolean; search: { exclude?: string } };
    expect(body.schedule.cron).toBe('30 7 * * 5');
    expect(body.schedule.timeZone).toBe(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
    expect(body.onlyNew).toBe(true);
    expect(body.search.exclude).toBe('seen');
    await expect(dialog.getByRole('status')).toContainText('Austin dentists is saved');
    await shot(page, 'a1-monitor-saved');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  const card = page.getByRole('group', { name: /Austin dentists/ });
  await test.step('the Monitors page, from the header, lists it with its schedule in words', async () => {
    const link = page.getByRole('link', { name: 'Monitors', exact: true });
    // Back up from the form (the focus returned to Save as monitor) to the header.
    await expect(page.getByRole('button', { name: 'Save as monitor' })).toBeFocused();
    await tabTo(page, link, 60, 'Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/monitors');
    await expect(card).toBeVisible();
    await expect(card.getByText(/Every Friday at 07:30 \(/)).toBeVisible();
    await expect(card.getByText('Not run yet')).toBeVisible();
    await expect(card.getByText('email', { exact: true })).toBeVisible();
    await shot(page, 'a2-monitors');
  });

  await test.step('run it now: it starts and says how many new places it found', async () => {
    const run = card.getByRole('button', { name: 'Run now' });
    await tabTo(page, run);
    await page.keyboard.press('Enter');
    const status = card.getByRole('status');
    await expect(status).toContainText('Started');
    await expect(status).toContainText(/\d+ new places?/, { timeout: 90_000 });
    await expect(card.getByText('Not run yet')).toBeHidden();
    await shot(page, 'a3-monitor-ran');
  });

  await test.step('pause and resume it', async () => {
    const pause = card.getByRole('button', { name: 'Pause' });
    await tabTo(page, pause);
    await page.keyboard.press('Enter');
    await expect(card.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(card.getByText('Paused', { exact: true })).toBeVisible();
    await shot(page, 'a4-monitor-paused');
    await page.reload();
    await expect(card.getByText('Paused', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Resume' }).click();
    await expect(card.getByRole('button', { name: 'Pause' })).toBeVisible();
  });

  await test.step('edit it: daily instead of weekly, saved in place', async () => {
    await card.getByRole('button', { name: 'Edit Austin dentists' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Austin dentists' });
    await expect(dialog.getByLabel('Runs')).toHaveValue('weekly');
    await expect(dialog.getByLabel('At')).toHaveValue('07:30');
    await dialog.getByLabel('Runs').selectOption('daily');
    const saved = page.waitForResponse((r) => /^\/api\/leads\/saved-searches\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === 'PUT');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    const response = await saved;
    expect(response.ok()).toBe(true);
    const body = response.request().postDataJSON() as { schedule: { cron: string }; paused: boolean; search: { exclude?: string } };
    expect(body.schedule.cron).toBe('30 7 * * *');
    expect(body.paused).toBe(false);
    expect(body.search.exclude).toBe('seen');
    await expect(dialog).toBeHidden();
    await expect(card.getByText(/Every day at 07:30 \(/)).toBeVisible();
    await shot(page, 'a5-monitor-edited');
  });

  await test.step('on a phone (390 px): the page fits and passes axe', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card.getByRole('button', { name: 'Run now' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    await shot(page, 'a6-monitors-phone');
  });

  expectNoConsoleErrors(consoleErrors);
});
