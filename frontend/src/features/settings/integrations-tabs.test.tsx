import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { ApiAccessTab } from './api-access-tab';
import { WebhooksTab } from './webhooks-tab';

const SCOPES = [
  { name: 'searches:run', description: 'Estimate, run, follow, list and cancel searches' },
  { name: 'usage:read', description: 'Read usage, plan and subscription status' },
  { name: 'keys:write', description: 'Save, delete or test the Places API key' },
];
const TOKEN = {
  id: 't1',
  name: 'CRM sync',
  prefix: 'lgp_1a2b3c4d',
  scopes: ['searches:run'],
  createdAt: '2026-11-25T15:00:00+00:00',
  lastUsedAt: null,
  expiresAt: null,
};

afterEach(() => vi.unstubAllGlobals());

/** Stubs fetch with `routes` ("METHOD path" → answer) and records the calls. */
function stub(routes: Record<string, () => Response>) {
  const calls: Array<{ method: string; url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = (init?.method ?? 'GET').toUpperCase();
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const answer = routes[`${method} ${url}`];
      return answer ? answer() : jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
    }),
  );
  return calls;
}

describe('ApiAccessTab', () => {
  it('creates a token with the chosen scopes and expiry, shows it once, and lists it', async () => {
    let tokens: unknown[] = [];
    const calls = stub({
      'GET /api/user/tokens': () => jsonResponse({ tokens, availableScopes: SCOPES }),
      'POST /api/user/tokens': () => {
        tokens = [TOKEN];
        return jsonResponse({ token: 'lgp_1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081', info: TOKEN });
      },
    });
    const user = userEvent.setup();
    await renderWithProviders(<ApiAccessTab />);
    expect(await screen.findByText('No tokens yet.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Token name'), 'CRM sync');
    await user.click(screen.getByRole('checkbox', { name: /usage:read/ }));
    await user.click(screen.getByRole('checkbox', { name: /keys:write/ }));
    await user.selectOptions(screen.getByLabelText('Expires after'), 'Never');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('textbox', { name: 'New API token' })).toHaveValue('lgp_1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081');
    const created = calls.find((c) => c.method === 'POST');
    expect(created?.body).toEqual({ name: 'CRM sync', scopes: ['searches:run', 'keys:write'] });
    const row = await screen.findByRole('row', { name: /CRM sync/ });
    expect(row).toHaveTextContent('lgp_1a2b3c4d');
    expect(within(row).getAllByText('Never')).toHaveLength(2);
  });

  it('refuses to create a token without a name or a scope, and revokes after a confirmation', async () => {
    const calls = stub({
      'GET /api/user/tokens': () => jsonResponse({ tokens: [TOKEN], availableScopes: SCOPES }),
      'DELETE /api/user/tokens/t1': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    await renderWithProviders(<ApiAccessTab />);
    await user.click(await screen.findByRole('button', { name: 'Create token' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Give the token a name.');
    await user.click(screen.getByRole('button', { name: 'Revoke CRM sync' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Confirm revoke' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/user/tokens/t1')).toBe(true));
  });
});

describe('WebhooksTab', () => {
  const ENDPOINT = {
    id: 'w1',
    url: 'https://hooks.example.com/leadgen',
    events: ['search.completed'],
    enabled: false,
    disabledReason: 'Disabled after 16 failed attempts to deliver search.completed (last: the endpoint answered 500).',
    createdAt: '2026-11-25T15:00:00+00:00',
  };

  it("tells a team workspace's member that webhooks are an admin's, and asks the API nothing", async () => {
    const calls = stub({});
    await renderWithProviders(<WebhooksTab canManage={false} />);
    expect(screen.getByText(/Only an admin or owner of this workspace can see and change them\./)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('no longer says coming soon; adds an endpoint and shows its secret once', async () => {
    let webhooks: unknown[] = [];
    const calls = stub({
      'GET /api/user/webhooks': () => jsonResponse({ webhooks, availableEvents: ['search.completed', 'search.failed'] }),
      'POST /api/user/webhooks': () => {
        webhooks = [{ ...ENDPOINT, enabled: true, disabledReason: null }];
        return jsonResponse({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', webhook: webhooks[0] });
      },
    });
    const user = userEvent.setup();
    await renderWithProviders(<WebhooksTab />);
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();
    expect(screen.queryByText(/coming soon/)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Endpoint URL'), 'https://hooks.example.com/leadgen');
    await user.click(screen.getByRole('checkbox', { name: /search\.failed/ }));
    await user.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('textbox', { name: 'Signing secret' })).toHaveValue('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ url: 'https://hooks.example.com/leadgen', events: ['search.completed'] });
    expect(await screen.findByText('Active')).toBeInTheDocument();
  });

  it("shows a disabled endpoint's notice, sends a test event and shows the delivery log", async () => {
    const calls = stub({
      'GET /api/user/webhooks': () => jsonResponse({ webhooks: [ENDPOINT], availableEvents: ['search.completed', 'search.failed'] }),
      'POST /api/user/webhooks/w1/test': () => jsonResponse({ messageId: 'msg_test_1' }, 202),
      'GET /api/user/webhooks/w1/deliveries': () =>
        jsonResponse({
          deliveries: [
            { at: '2026-11-25T15:00:03+00:00', event: 'webhook.test', messageId: 'msg_test_1', attempt: 1, statusCode: 200, latencyMs: 142, succeeded: true },
          ],
        }),
    });
    const user = userEvent.setup();
    await renderWithProviders(<WebhooksTab />);
    expect(await screen.findByText('Disabled')).toBeInTheDocument();
    expect(screen.getByText(/Disabled after 16 failed attempts/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send test event to https://hooks.example.com/leadgen' }));
    expect(await screen.findByText(/Test event queued/)).toBeInTheDocument();
    const log = await screen.findByRole('table', { name: 'Delivery log' });
    const row = within(log).getByRole('row', { name: /webhook\.test/ });
    expect(row).toHaveTextContent('200');
    expect(row).toHaveTextContent('142 ms');
    expect(calls.some((c) => c.method === 'POST' && c.url === '/api/user/webhooks/w1/test')).toBe(true);
  });
});
