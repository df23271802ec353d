import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';
import { SCREENSHOT_DIR } from './stack';

// Helpers of billing.spec.ts: the Stripe fake (testkit stripe-sim), the sign-in from a
// button other than the landing header's, and colours.

export function stripeUrl(): string {
  const url = process.env.LEADGEN_E2E_STRIPE_URL;
  if (!url) throw new Error('LEADGEN_E2E_STRIPE_URL is not set: run through `npm run e2e`');
  return url;
}

/** Whether the page is the fake's Checkout (`/_sim/checkout/{id}`) or portal page. */
export const onSimPage = (kind: 'checkout' | 'portal') => (url: URL) => url.href.startsWith(`${stripeUrl()}/_sim/${kind}/`);

interface SimEvent {
  id: string;
  type: string;
}

/** The events the fake recorded, each with the HTTP status our webhook answered (if sent). */
export async function simWebhooks(page: Page): Promise<Array<{ type: string; status: number | undefined }>> {
  const events = (await (await page.request.get(`${stripeUrl()}/_sim/events`)).json()) as SimEvent[];
  const deliveries = (await (await page.request.get(`${stripeUrl()}/_sim/deliveries`)).json()) as Array<{ event: string; status: number }>;
  return events.map((e) => ({ type: e.type, status: deliveries.find((d) => d.event === e.id)?.status }));
}

/**
 * Lets the real OIDC provider sign in `account` whatever button started the sign-in:
 * the API's redirect to the provider (`/api/auth/google`, a 302) is fetched and passed
 * on with `login_hint` added, as fixtures.ts `signUpFromLanding` does for the header.
 */
export async function signInAs(page: Page, account: string) {
  const issuer = process.env.LEADGEN_E2E_ISSUER;
  if (!issuer) throw new Error('LEADGEN_E2E_ISSUER is not set');
  await page.route('**/api/auth/google', async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const location = response.headers()['location'];
    if (response.status() !== 302 || !location?.startsWith(`${issuer}/`)) {
      await route.fulfill({ response });
      return;
    }
    const url = new URL(location);
    url.searchParams.set('login_hint', account);
    await route.fulfill({ response, headers: { ...response.headers(), location: url.toString() } });
  });
}

/** The settings subscription card. */
export const subscriptionCard = (page: Page) => page.getByRole('region', { name: 'Subscription' });

/**
 * Waits until the card shows `state`, reloading /settings?tab=billing meanwhile: the
 * card reads what Stripe's webhooks stored, which may land after the browser is back.
 */
export async function expectCardState(page: Page, state: 'none' | 'active' | 'cancelled') {
  const card = subscriptionCard(page);
  await expect(async () => {
    const now = await card.getAttribute('data-state', { timeout: 2000 }).catch(() => null);
    if (now !== state) {
      await page.goto('/settings?tab=billing');
      await expect(card).toHaveAttribute('data-state', state, { timeout: 3000 });
    }
  }).toPass({ timeout: 20_000 });
}

/** Hue (degrees) of a computed colour: Tailwind 4's oklch() or rgb(). */
function hue(colour: string): number {
  const oklch = /^oklch\(([\d.]+)%? ([\d.]+) ([\d.]+)/.exec(colour);
  if (oklch) return Number(oklch[3]);
  const [r, g, b] = (colour.match(/[\d.]+/g) ?? []).map((v) => Number(v) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max === min) return Number.NaN;
  const d = max - min;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

const HUES = {
  red: (h: number) => h < 40 || h > 340,
  yellow: (h: number) => h >= 45 && h <= 115,
  green: (h: number) => h >= 120 && h <= 175,
} as const;

/** Asserts the element's computed background is the named colour (what a user sees). */
export async function expectBackground(locator: Locator, colour: keyof typeof HUES) {
  const background = await locator.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(HUES[colour](hue(background)), `background ${background} should be ${colour}`).toBe(true);
}

/** Saves a screenshot of one part of a page (the landing page is too long for a full shot). */
export async function shotOf(locator: Locator, name: string) {
  await locator.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}
