import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { logFile, logTail, PROCESSES, SCREENSHOT_DIR, type ProcessName } from './stack';

// Shared fixtures and helpers of the browser tests.

/** A 1x1 transparent PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export interface ConsoleEntry {
  type: string;
  text: string;
  url: string;
}

interface Fixtures {
  /** Console errors and uncaught page errors of every page of the test's context. */
  consoleErrors: ConsoleEntry[];
  /** On failure, prints what the API, the worker and the peers logged during the test. */
  stackLogsOnFailure: void;
}

export const test = base.extend<Fixtures>({
  // The stack's port is chosen by global-setup, after the config was read.
  baseURL: async ({}, use) => {
    const url = process.env.LEADGEN_E2E_BASE_URL;
    if (!url) throw new Error('LEADGEN_E2E_BASE_URL is not set: run through `npm run e2e` (global-setup starts the stack)');
    await use(url);
  },

  context: async ({ context }, use) => {
    await answerPictures(context);
    await use(context);
  },

  consoleErrors: async ({ context }, use) => {
    const errors: ConsoleEntry[] = [];
    context.on('console', (msg) => {
      if (msg.type() === 'error') errors.push({ type: 'console', text: msg.text(), url: msg.location().url });
    });
    context.on('weberror', (error) => errors.push({ type: 'pageerror', text: String(error.error()), url: '' }));
    await use(errors);
  },

  stackLogsOnFailure: [
    async ({}, use, testInfo) => {
      const offsets = Object.fromEntries(
        PROCESSES.map((name) => [name, fs.existsSync(logFile(name)) ? fs.statSync(logFile(name)).size : 0]),
      ) as Record<ProcessName, number>;
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        for (const name of PROCESSES) {
          const text = logTail(name, 8000, offsets[name]);
          process.stderr.write(`\n----- ${name} log during "${testInfo.title}" -----\n${text}\n`);
          await testInfo.attach(`${name}.log`, { body: text, contentType: 'text/plain' });
        }
      }
    },
    { auto: true },
  ],
});

export { expect };

/**
 * The OIDC provider's `picture` claim is https://pictures.example/<account>.png, a name
 * that does not resolve: answer it with a pixel so the header's avatar loads as it would
 * in production instead of logging a network error.
 */
export async function answerPictures(context: BrowserContext) {
  await context.route('https://pictures.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }),
  );
}

/**
 * Saves a full-page screenshot to test-results/screenshots/<name>.png and, when the page
 * is ours (not a vendor's page such as Stripe's Checkout fake), checks it with axe-core:
 * every screen and state a test photographs is also checked for accessibility.
 */
export async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  const base = process.env.LEADGEN_E2E_BASE_URL;
  if (base && new URL(page.url()).origin === new URL(base).origin) await expectAccessible(page, name);
}

/**
 * Runs axe-core (every rule axe enables by default: WCAG 2.0-2.2 A and AA, best
 * practices; plus `label-content-name-mismatch`, experimental in axe but audited by
 * Lighthouse: a control's accessible name contains its visible label) on the page as it
 * is now, and fails on any violation, whatever its impact. A soft assertion: the test goes
 * on, so one run lists every screen's violations.
 */
export async function expectAccessible(page: Page, screen: string) {
  // Colours mid-transition (a card fading in, a button changing state) are not what anyone
  // reads: axe blended them into a 1.93, a 2.15 and a 4.2 contrast. Transitions and
  // animations are stilled while axe reads the page, so every colour is its final one,
  // also on what changes during the audit (a search that ends meanwhile re-enables the
  // form's button: CI failed on that). Finite animations already running end first.
  await page.evaluate(() => {
    const still = document.createElement('style');
    still.id = 'e2e-axe-still';
    still.textContent = '*, *::before, *::after { transition: none !important; animation-duration: 0s !important; animation-delay: 0s !important; }';
    document.head.append(still);
    return Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    );
  });
  let violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations'];
  try {
    ({ violations } = await new AxeBuilder({ page })
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .analyze());
  } finally {
    await page.evaluate(() => document.getElementById('e2e-axe-still')?.remove()).catch(() => undefined);
  }
  const report = violations.map(
    (v) =>
      `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n` +
      v.nodes.map((n) => `    ${n.target.join(' ')}\n      ${n.failureSummary?.replace(/\n/g, '\n      ')}`).join('\n'),
  );
  expect.soft(report, `axe violations on "${screen}" (${page.url()}):\n${report.join('\n')}`).toEqual([]);
}

/**
 * Asserts that no console error was logged, except those matching an `allowed`
 * pattern (each allowance must be explained where it is granted).
 */
export function expectNoConsoleErrors(errors: ConsoleEntry[], allowed: RegExp[] = []) {
  // Patterns see the message and the resource it is about: "<text> @ <url>".
  const unexpected = errors.filter((e) => !allowed.some((pattern) => pattern.test(`${e.text} @ ${e.url}`)));
  expect(unexpected, `console errors:\n${unexpected.map((e) => `${e.type}: ${e.text} (${e.url})`).join('\n')}`).toEqual([]);
}

/** Signs `account` up from the landing page and saves `key` in onboarding: the everyday,
 * ready dashboard. */
export async function signUpWithKey(page: Page, account: string, key: string) {
  await signUpFromLanding(page, account);
  await page.waitForURL((url) => url.pathname === '/onboarding');
  await page.getByLabel('Google Places API key').fill(key);
  await page.getByRole('button', { name: 'Save and Continue' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
  await expect(page.getByText('Configured & Ready')).toBeVisible();
}

/**
 * Signs in through the real OIDC provider from the landing page's Sign up (or Log in) button.
 * The provider finishes login and consent by itself for the account in `login_hint`.
 * Playwright cannot intercept a request reached by a redirect, so the API's own answer
 * to `/api/auth/google` (a 302 to the provider) is fetched and passed on with the hint
 * added to its Location; everything else about the sign-in is real.
 */
export async function signUpFromLanding(
  page: Page,
  account: string,
  { button = 'Sign up', screenshot }: { button?: 'Sign up' | 'Log in'; screenshot?: string } = {},
) {
  const issuer = process.env.LEADGEN_E2E_ISSUER;
  if (!issuer) throw new Error('LEADGEN_E2E_ISSUER is not set');
  let authorizeUrl: URL | null = null;
  await page.route('**/api/auth/google', async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const location = response.headers()['location'];
    if (response.status() !== 302 || !location?.startsWith(`${issuer}/`)) {
      await route.fulfill({ response });
      return;
    }
    const url = new URL(location);
    authorizeUrl = new URL(url);
    url.searchParams.set('login_hint', account);
    await route.fulfill({ response, headers: { ...response.headers(), location: url.toString() } });
  });

  await page.goto('/');
  await expect(page.getByRole('button', { name: button })).toBeEnabled();
  if (screenshot) await shot(page, screenshot);
  await page.getByRole('button', { name: button }).click();

  // Back from the provider: /auth/success welcomes the user, then goes to the dashboard.
  await page.waitForURL((url) => url.pathname === '/auth/success');
  expect(authorizeUrl, 'the browser went to the provider').not.toBeNull();
  const sent = authorizeUrl as unknown as URL;
  // The API's authorization request (a real one: PKCE S256, our client, our callback).
  expect(sent.searchParams.get('client_id')).toBe('leadgen-test');
  expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
  expect(sent.searchParams.get('redirect_uri')).toBe(`${process.env.LEADGEN_E2E_BASE_URL}/api/auth/callback`);
  await page.unroute('**/api/auth/google');
}

/** Reads the session token the app stored. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => window.localStorage.getItem('authToken'));
}

export interface SseFrame {
  id: string | undefined;
  data: Record<string, unknown>;
}

/** Splits a `text/event-stream` body into frames with JSON data (comments skipped). */
export function parseSse(body: string): SseFrame[] {
  const frames: SseFrame[] = [];
  for (const block of body.replace(/\r\n?/g, '\n').split('\n\n')) {
    let id: string | undefined;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('id:')) id = line.slice(3).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) frames.push({ id, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
  }
  return frames;
}

declare global {
  interface Window {
    __liveNames: Array<{ names: string[]; resultsShown: boolean; note: boolean }>;
  }
}

/**
 * Records every state of the live list of names ('Businesses found') as React commits
 * it, and whether the results panel was already shown then. Install before navigation.
 */
export async function recordLiveList(page: Page) {
  await page.addInitScript(() => {
    window.__liveNames = [];
    let last = '';
    const scan = () => {
      const list = document.querySelector('ul[aria-label="Businesses found"]');
      if (!list) {
        last = '';
        return;
      }
      const names = Array.from(list.querySelectorAll('li')).map((li) => (li.textContent ?? '').trim());
      const key = names.join('\u0000');
      if (key === last) return;
      last = key;
      const headings = Array.from(document.querySelectorAll('h2')).map((h) => h.textContent ?? '');
      window.__liveNames.push({
        names,
        resultsShown: headings.some((h) => /^Found [\d,]+ leads?( matching your filters)?$/.test(h) || h === 'No results found'),
        note: (document.body.textContent ?? '').includes('Showing latest businesses found'),
      });
    };
    new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/**
 * Chooses a business type in the search form's combobox as a user does: types its value
 * or label, then Enter (issue #26 item 9). Checks the field then shows a label, not the
 * text typed.
 */
export async function chooseBusinessType(page: Page, valueOrLabel: string) {
  const box = page.getByRole('combobox', { name: 'Business type' });
  await box.fill(valueOrLabel);
  await box.press('Enter');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
}
