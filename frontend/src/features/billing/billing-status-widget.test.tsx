import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getBillingStatus } from '../../api/gen/billing/billing';
import type { BillingStatusData } from '../../api/gen/model/billingStatusData';
import { AuthContext } from '../../lib/session/auth-context';
import { fakeAuth } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { BillingStatusView, BillingStatusWidget } from './billing-status-widget';

afterEach(() => vi.unstubAllGlobals());

const pro: BillingStatusData = {
  subscription: { isActive: true, status: 'active', plan: 'yearly', cancelAtPeriodEnd: false, currentPeriodEnd: '2027-03-04T12:00:00Z' },
  flags: { hasPaymentMethod: true, billingConfigured: true },
  tier: 'pro',
};
const free: BillingStatusData = {
  subscription: { isActive: false, status: 'none', plan: 'free', cancelAtPeriodEnd: false },
  flags: { hasPaymentMethod: false, billingConfigured: false },
  tier: 'free',
};

const value = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('BillingStatusView', () => {
  it('Pro: tier, status, period, renewal day and payment method', () => {
    render(<BillingStatusView data={pro} />);
    expect(screen.getByText('Pro')).toBeInTheDocument();
    expect(value('Subscription')).toHaveTextContent('Active');
    expect(value('Billing')).toHaveTextContent('Yearly');
    expect(value('Renews')).toHaveTextContent('March 4, 2027');
    expect(value('Payment method')).toHaveTextContent('On file');
    expect(screen.queryByText(/not set up on this server/)).not.toBeInTheDocument();
  });

  it('cancelled at period end says Ends, and Stripe words read as words', () => {
    render(<BillingStatusView data={{ ...pro, subscription: { ...pro.subscription, status: 'past_due', cancelAtPeriodEnd: true } }} />);
    expect(value('Subscription')).toHaveTextContent('Past due');
    expect(value('Ends')).toHaveTextContent('March 4, 2027');
    expect(screen.queryByText('Renews')).not.toBeInTheDocument();
  });

  it('Free without Stripe: no period, no payment method, and a note that payments are off', () => {
    render(<BillingStatusView data={free} />);
    expect(screen.getByText('Free')).toBeInTheDocument();
    expect(value('Subscription')).toHaveTextContent('None');
    expect(value('Billing')).toHaveTextContent('Free plan');
    expect(value('Payment method')).toHaveTextContent('None on file');
    expect(screen.getByText('Online payments are not set up on this server.')).toBeInTheDocument();
  });

  it("shows 'Failed to load billing status' on error", () => {
    render(<BillingStatusView data={undefined} error />);
    expect(screen.getByText('Failed to load billing status')).toBeInTheDocument();
  });
});

describe('BillingStatusWidget', () => {
  const wrap = (node: ReactNode) => <AuthContext.Provider value={fakeAuth()}>{node}</AuthContext.Provider>;

  it('reads GET /api/billing/status', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ success: true, data: pro })));
    await renderWithProviders(<BillingStatusWidget />, { wrap });
    expect(screen.getByRole('status', { name: 'Loading billing status' })).toBeInTheDocument();
    const card = (await screen.findByText('On file')).closest('div')!;
    expect(within(card.parentElement!).getByText('Yearly')).toBeInTheDocument();
  });

  it("a failed read shows 'Failed to load billing status'", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 500 })));
    await renderWithProviders(<BillingStatusWidget />, { wrap });
    expect(await screen.findByText('Failed to load billing status')).toBeInTheDocument();
  });
});

describe('GET /api/billing/status through the generated client', () => {
  it("uses the server's message, else 'Failed to fetch billing status'", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 500 })));
    await expect(getBillingStatus()).rejects.toThrow('Failed to fetch billing status');
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse({ error: 'unauthorized', message: 'Session expired' }, 401)));
    await expect(getBillingStatus()).rejects.toThrow('Session expired');
  });
});
