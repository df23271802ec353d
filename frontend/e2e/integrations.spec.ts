import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chooseBusinessType, expect, expectNoConsoleErrors, parseSse, shot, signUpFromLanding, test } from './fixtures';

// Settings > API access and Settings > Webhooks against the real stack: a personal token
// is created, used, refused outside its scopes and revoked; a webhook endpoint (a receiver
// this test runs on the port the stack exempts from the loopback refusal) gets a test
// event and a search's end, each signature checked here from the Standard Webhooks
// specification, and the delivery log shows the attempts.

const KEY = 'AIzaSyE2eHooks0123456789abcdefghijklmn';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1:LEADGEN_E2E_HOOK_PORT that answers 200. */
async function startReceiver(): Promise<{ received: Received[]; close: () => Promise<void>; url: string }> {
  const port = Number(process.env.LEADGEN_E2E_HOOK_PORT);
  if (!port) throw new Error('LEADGEN_E2E_HOOK_PORT is not set: run through `npm run e2e`');
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    received,
    url: `http://127.0.0.1:${address.port}/hook`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Standard Webhooks verification, from the specification (not the app's code). */
function verify(secret: string, message: Received): Record<string, unknown> {
  const id = String(message.headers['webhook-id']);
  const timestamp = String(message.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${message.body}`).digest('base64');
  const signatures = String(message.headers['webhook-signature']).split(' ');
  expect(signatures).toContain(`v1,${expected}`);
  expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(300);
  return JSON.parse(message.body) as Record<string, unknown>;
}

async function waitFor<T>(what: string, read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('Settings: API access (create, use, refuse, revoke) and Webhooks (signed test event, a search, the log)', async ({ page, consoleErrors }) => {
  const receiver = await startReceiver();
  try {
    await signUpFromLanding(page, 'ivy');
    await page.waitForURL((url) => url.pathname === '/onboarding');
    await page.getByLabel('Google Places API key').fill(KEY);
    await page.getByRole('button', { name: 'Save and Continue' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard', { timeout: 15_000 });
    await page.getByRole('link', { name: 'Settings', exact: true }).click();

    let token = '';
    await test.step('API access: a token is created and shown once', async () => {
      await page.getByRole('link', { name: 'API access' }).click();
      await expect(page.getByRole('heading', { name: 'Personal API tokens' })).toBeVisible();
      await expect(page.getByText('No tokens yet.')).toBeVisible();
      await page.getByLabel('Token name').fill('CI export');
      await expect(page.getByRole('checkbox', { name: /searches:run/ })).toBeChecked();
      await expect(page.getByRole('checkbox', { name: /usage:read/ })).toBeChecked();
      await page.getByLabel('Expires after').selectOption({ label: '30 days' });
      await page.getByRole('button', { name: 'Create token' }).click();
      const field = page.getByRole('textbox', { name: 'New API token' });
      await expect(field).toBeVisible();
      token = await field.inputValue();
      expect(token).toMatch(/^lgp_[0-9a-f]{48}$/);
      const row = page.getByRole('row', { name: /CI export/ });
      await expect(row).toContainText(token.slice(0, 12));
      await expect(row).toContainText('searches:run');
      await expect(row.getByRole('cell').nth(4)).toHaveText('Never');
      await shot(page, '60-settings-api-access-created');
    });

    await test.step('the token works within its scopes only, and its use shows', async () => {
      const headers = { authorization: `Bearer ${token}` };
      expect((await page.request.get('/api/leads/usage', { headers })).status()).toBe(200);
      const refused = await page.request.post('/api/user/api-key', { headers, data: { api_key: '' } });
      expect(refused.status()).toBe(403);
      expect((await refused.json()).error).toBe('insufficient_scope');
      await page.reload();
      await page.getByRole('link', { name: 'API access' }).click();
      const row = page.getByRole('row', { name: /CI export/ });
      await expect(row.getByRole('cell').nth(4)).not.toHaveText('Never');
      // Shown once: after a reload only the prefix is on the page.
      await expect(page.getByText(token)).toHaveCount(0);
    });

    await test.step('revoked, it stops working', async () => {
      await page.getByRole('button', { name: 'Revoke CI export' }).click();
      await page.getByRole('button', { name: 'Confirm revoke' }).click();
      await expect(page.getByText('No tokens yet.')).toBeVisible();
      const after = await page.request.get('/api/leads/usage', { headers: { authorization: `Bearer ${token}` } });
      expect(after.status()).toBe(401);
    });

    let secret = '';
    await test.step('Webhooks: the placeholder is gone; an endpoint is added with its secret', async () => {
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await expect(page.getByText('coming soon')).toHaveCount(0);
      await expect(page.getByText('No endpoints yet.')).toBeVisible();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const field = page.getByRole('textbox', { name: 'Signing secret' });
      await expect(field).toBeVisible();
      secret = await field.inputValue();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      await expect(page.getByText('Active')).toBeVisible();
      await shot(page, '61-settings-webhooks-added');
    });

    await test.step('Send test event: delivered, signed, and in the log', async () => {
      await page.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
      await expect(page.getByText('Test event queued.', { exact: false })).toBeVisible();
      const message = await waitFor('the test event', () => receiver.received[0]);
      expect(verify(secret, message).type).toBe('webhook.test');
      const log = page.getByRole('table', { name: 'Delivery log' });
      await expect(log.getByRole('row', { name: /webhook\.test/ })).toContainText('200', { timeout: 15_000 });
      await shot(page, '62-settings-webhooks-log');
    });

    await test.step('a search: its end is delivered once, signed, with the leads', async () => {
      await page.getByRole('link', { name: /Back to Dashboard/ }).click();
      await chooseBusinessType(page, 'cafe');
      await page.getByLabel('Location').fill('Austin');
      const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/leads/search-stream');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const frames = parseSse(await (await response).text());
      const last = frames[frames.length - 1].data;
      expect(last.type).toBe('complete');
      const message = await waitFor('search.completed', () => receiver.received.find((r) => r.body.includes('search.completed')));
      const body = verify(secret, message);
      expect(body.type).toBe('search.completed');
      expect((body.data as { leads: unknown[] }).leads).toEqual(last.results);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.received.filter((r) => r.body.includes('search.completed'))).toHaveLength(1);
    });

    expectNoConsoleErrors(consoleErrors);
  } finally {
    await receiver.close();
  }
});
