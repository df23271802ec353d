import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillingStatusData } from '../../api/gen/model/billingStatusData';
import { goToPage } from '../../lib/page-navigation';
import { AuthContext } from '../../lib/session/auth-context';
import type { AuthContextValue } from '../../lib/session/session-types';
import { fakeAuth } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SubscriptionCard, WHAT_COUNTS } from './subscription-card';

vi.mock('../../lib/page-navigation', () => ({ goToPage: vi.fn() }));

type Answer = Response | Promise<Response> | (() => Response | Promise<Response>);

let subscription: Answer;
let status: Answer;
let portal: Answer;
let checkout: Answer;
let fetchMock: ReturnType<typeof vi.fn>;

function billing(overrides: Partial<BillingStatusData['subscription']> = {}, configured = true): BillingStatusData {
  return {
    subscription: { isActive: false, status: 'none', plan: 'free', cancelAtPeriodEnd: false, ...overrides },
    flags: { hasPaymentMethod: overrides.isActive ?? false, billingConfigured: configured },
    tier: overrides.isActive ? 'pro' : 'free',
  };
}

const card = (status: string, plan = 'monthly') => jsonResponse({ success: true, subscriptionStatus: status, subscriptionPlan: plan });
const statusOf = (data: BillingStatusData) => jsonResponse({ success: true, data });
// A Response is cloned per call so that a refetch can read it again.
const answer = (a: Answer) => (typeof a === 'function' ? a() : a instanceof Response ? a.clone() : a);

beforeEach(() => {
  subscription = card('none', 'free');
  status = statusOf(billing());
  portal = jsonResponse({ success: true, url: 'https://billing.example/p/session/1' });
  checkout = jsonResponse({ success: true, url: 'https://checkout.example/c/pay/cs_1', sessionId: 'cs_1' });
  fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/billing/subscription') return answer(subscription);
    if (url === '/api/billing/status') return answer(status);
    if (url === '/api/billing/create-portal-session') return answer(portal);
    if (url === '/api/billing/create-checkout-session') return answer(checkout);
    if (url === '/api/leads/usage') return jsonResponse({ success: true, data: usageOf(10000, null) });
    return jsonResponse({ error: 'not_found', message: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.mocked(goToPage).mockClear();
  // The fetch mutator sends the stored session token.
  window.localStorage.setItem('authToken', 'a.b.c');
});
afterEach(() => vi.unstubAllGlobals());

/** `GET /api/leads/usage`'s data for a Pro user with these allowances. */
function usageOf(limit: number, dailyLeadLimit: number | null) {
  return {
    usage: { current: 3, limit, remaining: limit - 3, percentage: 0, leadsThisMonth: 40, leadsToday: 0, dailyLeadLimit },
    period: { resetDate: '2026-12-01T00:00:00Z', daysUntilReset: 5 },
    apiKey: { configured: true, lastUpdated: null },
    tier: { current: 'pro', name: 'Pro' },
    status: { isOverLimit: false, isNearLimit: false, isApproachingLimit: false },
    recommendations: [],
  };
}

const render = (auth: AuthContextValue = fakeAuth(), canManage = true) =>
  renderWithProviders(<SubscriptionCard canManage={canManage} />, {
    wrap: (node: ReactNode) => <AuthContext.Provider value={auth}>{node}</AuthContext.Provider>,
  });

const calls = (path: string) => fetchMock.mock.calls.filter((c) => c[0] === path);
const region = () => screen.getByRole('region', { name: 'Subscription' });

describe('SubscriptionCard states', () => {
  it("says 'Please log in to view your subscription status.' when not logged in, and asks nothing", async () => {
    await render(fakeAuth({ isAuthenticated: false, user: null, token: null }));
    expect(screen.getByText('Please log in to view your subscription status.')).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows 'Loading...' until the subscription status answers", async () => {
    let release!: () => void;
    subscription = new Promise<Response>((resolve) => (release = () => resolve(card('active'))));
    await render();
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByText('Active Subscription')).not.toBeInTheDocument();
    release();
    expect(await screen.findByText('Active Subscription')).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).not.toBeInTheDocument();
  });

  it('active: green, the allowance, the capitalised plan, the renewal day and Manage Billing to the portal', async () => {
    subscription = card('active', 'monthly');
    status = statusOf(billing({ isActive: true, status: 'active', plan: 'monthly', currentPeriodEnd: '2026-12-22T12:00:00+00:00' }));
    const user = userEvent.setup();
    await render();
    expect(await screen.findByRole('heading', { name: 'Active Subscription' })).toBeInTheDocument();
    expect(region()).toHaveAttribute('data-state', 'active');
    expect(region().className).toContain('bg-green-50');
    // What the server counts (issue #26 item 8), not the spec's "API calls".
    expect(await within(region()).findByText('10,000 searches per month included, with no daily lead limit')).toBeInTheDocument();
    expect(within(region()).getByText(WHAT_COUNTS)).toBeInTheDocument();
    expect(within(region()).queryByText(/API calls/)).not.toBeInTheDocument();
    expect(within(region()).getByText('Plan: Pro Monthly')).toBeInTheDocument();
    expect(await within(region()).findByText('Renews on December 22, 2026')).toBeInTheDocument();
    expect(within(region()).queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Manage Billing' }));
    await waitFor(() => expect(goToPage).toHaveBeenCalledWith('https://billing.example/p/session/1'));
    const [, init] = calls('/api/billing/create-portal-session')[0];
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer a.b.c');
    // The browser is leaving: no second click.
    expect(screen.getByRole('button', { name: 'Manage Billing' })).toBeDisabled();
  });

  it("not the workspace's owner: the plan without Subscribe or Manage Billing, and who may change it", async () => {
    subscription = card('active', 'monthly');
    status = statusOf(billing({ isActive: true, status: 'active', plan: 'monthly' }));
    await render(fakeAuth(), false);
    expect(await screen.findByRole('heading', { name: 'Active Subscription' })).toBeInTheDocument();
    expect(within(region()).getByText('Plan: Pro Monthly')).toBeInTheDocument();
    expect(within(region()).getByText('Only an owner of this workspace can change its plan.')).toBeInTheDocument();
    expect(within(region()).queryByRole('button')).not.toBeInTheDocument();
    expect(calls('/api/billing/create-portal-session')).toHaveLength(0);
  });

  it('not the owner of a free workspace: no Subscribe either', async () => {
    await render(fakeAuth(), false);
    expect(await screen.findByRole('heading', { name: 'No Active Subscription' })).toBeInTheDocument();
    expect(within(region()).getByText('Only an owner of this workspace can change its plan.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument();
  });

  it('cancelled at period end: red, still Pro until the day, Manage Billing to resume', async () => {
    subscription = card('cancelled', 'yearly');
    status = statusOf(
      billing({ isActive: true, status: 'active', plan: 'yearly', cancelAtPeriodEnd: true, currentPeriodEnd: '2027-01-05T12:00:00Z' }),
    );
    await render();
    expect(await screen.findByRole('heading', { name: 'Subscription Cancelled' })).toBeInTheDocument();
    expect(region()).toHaveAttribute('data-state', 'cancelled');
    expect(region().className).toContain('bg-red-50');
    expect(within(region()).getByText('Plan: Pro Yearly')).toBeInTheDocument();
    expect(await within(region()).findByText(/Pro stays active until January 5, 2027/)).toBeInTheDocument();
    expect(within(region()).getByRole('button', { name: 'Manage Billing' })).toBeEnabled();
    expect(within(region()).queryByText('No Active Subscription')).not.toBeInTheDocument();
  });

  it('cancelled and ended: red, with Subscribe to buy again', async () => {
    subscription = card('cancelled', 'monthly');
    status = statusOf(billing({ isActive: false, status: 'canceled', plan: 'monthly' }));
    await render();
    expect(await screen.findByRole('heading', { name: 'Subscription Cancelled' })).toBeInTheDocument();
    expect(await screen.findByText(/Your Pro plan has ended/)).toBeInTheDocument();
    expect(within(region()).getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  });

  it.each([
    ['none', 'free'],
    ['past_due', 'monthly'],
    ['something-new', 'monthly'],
  ])("any other status (%s): yellow 'No Active Subscription' with the features and Subscribe", async (state, plan) => {
    subscription = card(state, plan);
    await render();
    expect(await screen.findByRole('heading', { name: 'No Active Subscription' })).toBeInTheDocument();
    expect(region()).toHaveAttribute('data-state', 'none');
    expect(region().className).toContain('bg-yellow-50');
    expect(within(region()).getByText('Upgrade to Pro for $29/month:')).toBeInTheDocument();
    const features = within(region()).getAllByRole('listitem').map((li) => li.textContent);
    expect(features).toEqual(['10,000 searches per month', 'Google Sheets integration', 'Advanced search filters', 'Priority support']);
    expect(within(region()).getByRole('button', { name: 'Subscribe' })).toBeInTheDocument();
  });

  it('Subscribe starts Checkout for Pro monthly and sends the browser to it', async () => {
    const user = userEvent.setup();
    await render();
    const subscribe = await screen.findByRole('button', { name: 'Subscribe' });
    await waitFor(() => expect(calls('/api/billing/status')).toHaveLength(1));
    await user.click(subscribe);
    await waitFor(() => expect(goToPage).toHaveBeenCalledWith('https://checkout.example/c/pay/cs_1'));
    const [, init] = calls('/api/billing/create-checkout-session')[0];
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ interval: 'monthly' });
    expect(screen.getByRole('button', { name: 'Subscribe' })).toBeDisabled();
  });

  it('without Stripe on the server, Subscribe is disabled with a note and nothing is sent', async () => {
    status = statusOf(billing({}, false));
    const user = userEvent.setup();
    await render();
    expect(await screen.findByText('Online checkout is not available on this server yet.')).toBeInTheDocument();
    const subscribe = screen.getByRole('button', { name: 'Subscribe' });
    expect(subscribe).toBeDisabled();
    await user.click(subscribe);
    expect(calls('/api/billing/create-checkout-session')).toHaveLength(0);
  });

  it("a failed status read shows 'Failed to load billing status' (no Subscribe) and Try again recovers", async () => {
    subscription = jsonResponse({}, 500);
    const user = userEvent.setup();
    await render();
    expect(await screen.findByText('Failed to load billing status')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).not.toBeInTheDocument();
    subscription = card('active');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Active Subscription')).toBeInTheDocument();
  });
});

describe('SubscriptionCard errors', () => {
  it("portal refused: 'Failed to open billing portal' with the server's reason; the button works again", async () => {
    subscription = card('active');
    status = statusOf(billing({ isActive: true, status: 'active', plan: 'monthly' }));
    portal = () => jsonResponse({ error: 'no_billing_account', message: 'You have no billing account yet: subscribe first.' }, 400);
    const user = userEvent.setup();
    await render();
    await user.click(await screen.findByRole('button', { name: 'Manage Billing' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to open billing portal');
    expect(alert).toHaveTextContent('You have no billing account yet: subscribe first.');
    expect(goToPage).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Manage Billing' })).toBeEnabled();
  });

  it("portal failing without a message: the title and the call's default 'Failed to create portal session'", async () => {
    subscription = card('active');
    portal = () => new Response('', { status: 502 });
    const user = userEvent.setup();
    await render();
    await user.click(await screen.findByRole('button', { name: 'Manage Billing' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to open billing portal');
    expect(alert).toHaveTextContent('Failed to create portal session');
  });

  it("checkout refused: 'Failed to start subscription process' with the server's reason", async () => {
    checkout = () => jsonResponse({ error: 'billing_not_configured', message: 'Billing is not configured on this server.' }, 503);
    const user = userEvent.setup();
    await render();
    await user.click(await screen.findByRole('button', { name: 'Subscribe' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to start subscription process');
    expect(alert).toHaveTextContent('Billing is not configured on this server.');
    expect(goToPage).not.toHaveBeenCalled();
  });

  it("checkout unreachable (network error): just 'Failed to start subscription process'", async () => {
    checkout = () => Promise.reject(new TypeError('Failed to fetch'));
    const user = userEvent.setup();
    await render();
    await user.click(await screen.findByRole('button', { name: 'Subscribe' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^Failed to start subscription process$/);
  });

  it("a user without a token gets 'Please log in to subscribe' and nothing is sent", async () => {
    const user = userEvent.setup();
    await render(fakeAuth({ token: null }));
    await user.click(await screen.findByRole('button', { name: 'Subscribe' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please log in to subscribe');
    expect(calls('/api/billing/create-checkout-session')).toHaveLength(0);
  });

  it("a user without a token gets 'Please log in to manage billing' and nothing is sent", async () => {
    subscription = card('active');
    const user = userEvent.setup();
    await render(fakeAuth({ token: null }));
    await user.click(await screen.findByRole('button', { name: 'Manage Billing' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please log in to manage billing');
    expect(calls('/api/billing/create-portal-session')).toHaveLength(0);
  });
});
