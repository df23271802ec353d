import type { Page } from '@playwright/test';
import { answerPictures, expect, expectNoConsoleErrors, shot, signUpFromLanding, signUpWithKey, storedToken, test } from './fixtures';

// Workspaces in the web app (issue #28 items 4 and 9): a user makes a shared workspace
// from the header's switcher, by keyboard only; the address carries it (`?ws=`), a reload
// and every in-app navigation keep it; its data is its own (no key saved there, while the
// personal workspace has one); switching back shows the personal data again. A link to a
// workspace the user is not a member of says so and leads back. Every screen passes axe,
// on a desktop and on a phone.

/** A well-formed key without a fault marker (testkit places_sim/faults.rs): answers at once. */
const KEY = 'AIzaSyE2eWorkspaces6789abcdefghijklmno';
const PHONE = { width: 390, height: 844 };
const NAME = 'Acme Agency';
/** A well-formed workspace id nobody is a member of. */
const STRANGER = '0192f0c4-7a1e-7c3b-9a51-2f0d5f6b8e21';

/** The switcher's button, once its code has loaded (until then a look-alike, aria-disabled). */
function switcher(page: Page, name: string) {
  return page.getByRole('button', { name: `Workspace: ${name}`, exact: true, disabled: false });
}

/** Tabs forward until `target` has the focus (at most `max` presses). */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, max = 10) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('workspaces: create one from the switcher by keyboard, the address keeps it, its data is its own', async ({
  browser,
  page,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  await signUpWithKey(page, 'wanda', KEY);

  let workspaceId = '';
  await test.step('the switcher opens by keyboard and lists the personal workspace with its role', async () => {
    const button = switcher(page, 'Personal');
    await expect(button).toBeVisible();
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const list = page.getByRole('list', { name: 'Your workspaces' });
    await expect(list.getByRole('button')).toHaveCount(1);
    await expect(list.getByRole('button', { name: /Personal.*Personal · Owner/ })).toHaveAttribute('aria-current', 'true');
    await shot(page, '80-workspace-switcher');
    // Escape closes it and gives the focus back to its button.
    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toBeFocused();
  });

  await test.step('"New workspace" creates one and switches to it: the address names it', async () => {
    await page.keyboard.press('Enter');
    const create = page.getByRole('button', { name: 'New workspace' });
    await tabTo(page, create);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New workspace' });
    await expect(dialog).toBeVisible();
    const field = dialog.getByLabel('Workspace name');
    await tabTo(page, field);
    // A blank name is refused here, before any request.
    await page.keyboard.press('Enter');
    await expect(dialog.getByText('Enter a name.')).toBeVisible();
    await page.keyboard.type(NAME);
    await shot(page, '81-new-workspace-dialog');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/dashboard' && url.searchParams.has('ws'));
    workspaceId = new URL(page.url()).searchParams.get('ws') ?? '';
    expect(workspaceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // The focus is back on the switcher, now naming the new workspace.
    await expect(switcher(page, NAME)).toBeFocused();
    // Its own data: no key saved in the new workspace.
    await expect(page.getByText('API Key Required')).toBeVisible();
    await expect(page.getByText('Configured & Ready')).toHaveCount(0);
    await shot(page, '82-new-workspace-dashboard');
  });

  await test.step('a reload keeps the workspace, and so does every in-app link', async () => {
    await page.reload();
    await expect(switcher(page, NAME)).toBeVisible();
    await expect(page.getByText('API Key Required')).toBeVisible();
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.waitForURL((url) => url.pathname === '/settings' && url.searchParams.get('ws') === workspaceId);
    await page.getByRole('link', { name: 'General' }).click();
    await page.waitForURL((url) => url.searchParams.get('tab') === 'workspace' && url.searchParams.get('ws') === workspaceId);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(NAME);
    await expect(page.getByText('A shared workspace. Your role: Owner.')).toBeVisible();
    await shot(page, '83-workspace-settings');
    await page.getByRole('link', { name: 'Members' }).click();
    const members = page.getByRole('list', { name: 'Members' });
    await expect(members.getByRole('listitem')).toHaveCount(1);
    await expect(members.getByText('(you)')).toBeVisible();
    await expect(members.getByText('Owner', { exact: true })).toBeVisible();
    await shot(page, '84-workspace-members');
  });

  await test.step("the last owner cannot leave: the API's refusal is shown as it says it", async () => {
    await page.getByRole('link', { name: 'General' }).click();
    await page.getByRole('button', { name: 'Leave workspace' }).click();
    const dialog = page.getByRole('dialog', { name: `Leave ${NAME}?` });
    await dialog.getByRole('button', { name: 'Leave workspace' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('A workspace needs an owner: make another member an owner first.');
    await shot(page, '85-last-owner-refused');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  await test.step('an owner renames it; the switcher says the new name', async () => {
    const field = page.getByLabel('Name', { exact: true });
    await field.fill(`${NAME} EU`);
    await page.getByRole('button', { name: 'Rename' }).click();
    await expect(page.getByText('Renamed.')).toBeVisible();
    await expect(switcher(page, `${NAME} EU`)).toBeVisible();
  });

  await test.step('switching back to personal by keyboard shows the personal data again', async () => {
    await page.goto(`/dashboard?ws=${workspaceId}`);
    const button = switcher(page, `${NAME} EU`);
    await button.focus();
    await page.keyboard.press('Enter');
    const list = page.getByRole('list', { name: 'Your workspaces' });
    await expect(list.getByRole('button')).toHaveCount(2);
    const personal = list.getByRole('button', { name: /Personal · Owner/ });
    await tabTo(page, personal);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/dashboard' && !url.searchParams.has('ws'));
    await expect(switcher(page, 'Personal')).toBeFocused();
    await expect(page.getByText('Configured & Ready')).toBeVisible();
    await expect(page.getByText('API Key Required')).toHaveCount(0);
  });

  await test.step('on a phone the switcher, Members and General pass axe', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`/settings?tab=members&ws=${workspaceId}`);
    await expect(page.getByRole('list', { name: 'Members' }).getByRole('listitem')).toHaveCount(1);
    await shot(page, '86-members-phone');
    await switcher(page, `${NAME} EU`).click();
    await expect(page.getByRole('list', { name: 'Your workspaces' })).toBeVisible();
    await shot(page, '87-switcher-phone');
    await page.keyboard.press('Escape');
    await page.goto(`/settings?tab=workspace&ws=${workspaceId}`);
    await expect(page.getByRole('button', { name: 'Delete workspace' })).toBeVisible();
    await shot(page, '88-workspace-settings-phone');
    await page.goto(`/dashboard?ws=${workspaceId}`);
    await expect(page.getByText('API Key Required')).toBeVisible();
    await shot(page, '89-dashboard-workspace-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('a workspace the user is not a member of: a clear message and the way back', async () => {
    await page.goto(`/dashboard?ws=${STRANGER}`);
    await expect(page.getByRole('heading', { name: 'This workspace is not available' })).toBeVisible();
    await shot(page, '90-workspace-unavailable');
    await page.getByRole('link', { name: 'Go to your personal workspace' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' && !url.searchParams.has('ws'));
    await expect(page.getByText('Configured & Ready')).toBeVisible();
  });

  await test.step("another user given the workspace's link learns nothing of it", async () => {
    const context = await browser.newContext({ baseURL: process.env.LEADGEN_E2E_BASE_URL });
    await answerPictures(context);
    const other = await context.newPage();
    await signUpFromLanding(other, 'xavier');
    await other.waitForURL((url) => url.pathname === '/onboarding');
    await other.goto(`/settings?tab=members&ws=${workspaceId}`);
    await expect(other.getByRole('heading', { name: 'This workspace is not available' })).toBeVisible();
    await expect(other.getByText(NAME)).toHaveCount(0);
    await expect(other.getByText('wanda@example.com')).toHaveCount(0);
    await context.close();
  });

  await test.step('an owner deletes it after confirming; the app goes back to personal', async () => {
    await page.goto(`/settings?tab=workspace&ws=${workspaceId}`);
    await page.getByRole('button', { name: 'Delete workspace' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${NAME} EU?` });
    await shot(page, '91-delete-workspace-confirm');
    await dialog.getByRole('button', { name: 'Delete for everyone' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' && !url.searchParams.has('ws'));
    await expect(page.getByText('Configured & Ready')).toBeVisible();
    await switcher(page, 'Personal').click();
    await expect(page.getByRole('list', { name: 'Your workspaces' }).getByRole('button')).toHaveCount(1);
    // Its old link now says it is not available.
    await page.goto(`/dashboard?ws=${workspaceId}`);
    await expect(page.getByRole('heading', { name: 'This workspace is not available' })).toBeVisible();
  });

  // The API answers a stranger's workspace 404 ("No such workspace.") and the last owner's
  // leaving 403 (`last_owner`), which the browser logs as failed resources while the page
  // reads them; nothing else may be logged.
  expectNoConsoleErrors(consoleErrors, [/Failed to load resource: the server responded with a status of 40[34]/]);
});

// Invitations (issue #28 items 3 and 9): an owner invites a colleague as admin from
// Members; the link (shown once) lands, through the API's SPA fallback, on a page that
// says who invited them to what; the colleague (the test provider's emails are verified)
// joins and is in the workspace; the owner sees them as a member and in the Activity log.
// The colleague's account, tessa, is used by no other spec: every spec shares one stack,
// so a name signed up by an earlier spec would not be a first login.
test('workspaces: an invitation accepted by a second user', async ({ browser, page, consoleErrors }) => {
  test.setTimeout(180_000);
  const TEAM = 'Orbit Agency';
  await signUpWithKey(page, 'oscar', KEY);

  // The workspace itself is made through the API (the switcher's way is the test above).
  const token = await storedToken(page);
  const workspaceId = await page.evaluate(
    async ({ token, name }) => {
      const response = await fetch('/api/workspaces', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      return ((await response.json()) as { id: string }).id;
    },
    { token, name: TEAM },
  );
  expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);

  let link = '';
  await test.step('the owner invites an admin by email: the link is shown with Copy, and the invitation is pending', async () => {
    await page.goto(`/settings?tab=members&ws=${workspaceId}`);
    await page.getByRole('textbox', { name: 'Email' }).fill('tessa@example.com');
    await page.getByRole('combobox', { name: 'Role' }).selectOption('admin');
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect(page.getByText('Invitation made for tessa@example.com')).toBeVisible();
    link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
    expect(link).toMatch(/\/invitations\/[^/]+$/);
    const pending = page.getByRole('list', { name: 'Pending invitations' });
    await expect(pending.getByText('tessa@example.com')).toBeVisible();
    await expect(pending.getByText(/Admin, invited by/)).toBeVisible();
    await shot(page, '92-invitation-made');
  });

  await test.step('the invited colleague opens the link, sees who invited them to what, and joins', async () => {
    const context = await browser.newContext({ baseURL: process.env.LEADGEN_E2E_BASE_URL });
    await answerPictures(context);
    const other = await context.newPage();
    await signUpFromLanding(other, 'tessa');
    await other.waitForURL((url) => url.pathname === '/onboarding');
    await other.goto(new URL(link).pathname);
    await expect(other.getByRole('heading', { name: new RegExp(`invited you to join ${TEAM} as admin`) })).toBeVisible();
    await shot(other, '93-invitation-landing');
    await other.setViewportSize(PHONE);
    await shot(other, '94-invitation-landing-phone');
    await other.getByRole('button', { name: `Join ${TEAM}` }).click();
    await other.waitForURL((url) => url.searchParams.get('ws') === workspaceId);
    // A first login that joins a team lands on the team's dashboard, not on onboarding,
    // whose 'save your key' would replace the team's key.
    await expect(other.getByRole('heading', { name: /^Hello, / })).toBeVisible();
    expect(new URL(other.url()).pathname).toBe('/dashboard');
    // The link works once: opened again it says so.
    await other.goto(new URL(link).pathname);
    await expect(other.getByRole('alert')).toContainText('This invitation is not valid');
    await context.close();
  });

  await test.step('the owner sees the new admin in Members and the join in Activity', async () => {
    await page.goto(`/settings?tab=members&ws=${workspaceId}`);
    const members = page.getByRole('list', { name: 'Members' });
    await expect(members.getByRole('listitem')).toHaveCount(2);
    await expect(members.getByRole('combobox', { name: 'Role of tessa@example.com' })).toHaveValue('admin');
    await expect(page.getByText(/None: every invitation/)).toBeVisible();
    await page.getByRole('link', { name: 'Activity' }).click();
    const log = page.getByRole('list', { name: 'Activity' });
    await expect(log.getByText(/joined as admin/)).toBeVisible();
    await expect(log.getByText(/invited tessa@example.com as admin/)).toBeVisible();
    await shot(page, '95-activity');
    await page.getByRole('link', { name: 'General' }).click();
    await expect(page.getByRole('heading', { name: 'Usage by member and client' })).toBeVisible();
    await page.setViewportSize(PHONE);
    await shot(page, '96-workspace-spend-phone');
  });

  // The used link's second visit answers 404, which the browser logs as a failed resource.
  expectNoConsoleErrors(consoleErrors, [/Failed to load resource: the server responded with a status of 404/]);
});
