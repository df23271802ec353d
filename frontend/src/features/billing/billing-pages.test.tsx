import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { BillingCancelPage } from './billing-cancel-page';
import { BILLING_SUCCESS_DELAY_MS, BillingSuccessPage } from './billing-success-page';

afterEach(() => vi.useRealTimers());

describe('BillingSuccessPage', () => {
  it("shows 'Processing your subscription...' for exactly 1 s, then the Pro welcome with its two buttons", async () => {
    expect(BILLING_SUCCESS_DELAY_MS).toBe(1000);
    vi.useFakeTimers();
    await renderWithProviders(<BillingSuccessPage />, { path: '/billing/success' });
    expect(screen.getByRole('status')).toHaveTextContent('Processing your subscription...');

    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(screen.getByText('Processing your subscription...')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Welcome to Leadgen Pro/ })).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('heading', { name: 'Welcome to Leadgen Pro!' })).toBeInTheDocument();
    expect(screen.queryByText('Processing your subscription...')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Generating Leads' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Go to Settings' })).toHaveAttribute('href', '/settings');
  });
});

describe('BillingCancelPage', () => {
  it('says no payment was made, lists Pro at $29/month, and links back', async () => {
    await renderWithProviders(<BillingCancelPage />, { path: '/billing/cancel' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Subscription Cancelled');
    expect(screen.getByText(/No payment was made/)).toBeInTheDocument();
    expect(screen.getByText(/\$29\/month/)).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      '10,000 searches per month',
      'Google Sheets integration',
      'Advanced search filters',
      'Priority support',
    ]);
    expect(screen.getByRole('link', { name: 'Try Again' })).toHaveAttribute('href', '/settings?tab=billing');
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
  });
});
