import {
  createPortalSession,
  getBillingStatus,
  getGetBillingStatusQueryKey,
  getGetSubscriptionStatusQueryKey,
  getSubscriptionStatus,
} from '../../api/gen/billing/billing';
import type { BillingStatusData } from '../../api/gen/model/billingStatusData';
import type { SubscriptionStatusResponse } from '../../api/gen/model/subscriptionStatusResponse';
import { callWithDefault } from '../../lib/api-fetch';
import { goToPage } from '../../lib/page-navigation';

// The billing calls of the settings Billing tab, over the generated client. Starting
// Checkout is shared with the landing page: src/lib/checkout.ts.

export type { BillingStatusData, SubscriptionStatusResponse };

export const billingStatusQueryKey = getGetBillingStatusQueryKey();
export const subscriptionStatusQueryKey = getGetSubscriptionStatusQueryKey();

/** Default text of a failed billing status read (spec section 8). */
export const FETCH_STATUS_FAILED = 'Failed to fetch billing status';

/** `GET /api/billing/status`: subscription, flags and tier. */
export async function fetchBillingStatus(): Promise<BillingStatusData> {
  const answer = await callWithDefault(() => getBillingStatus(), FETCH_STATUS_FAILED);
  return answer.data;
}

/**
 * `GET /api/billing/subscription`: what the settings card shows. The spec names no
 * default for this read; it is part of the billing status, so it shares that text.
 */
export function fetchSubscriptionStatus(): Promise<SubscriptionStatusResponse> {
  return callWithDefault(() => getSubscriptionStatus(), FETCH_STATUS_FAILED);
}

/**
 * `POST /api/billing/create-portal-session`, then to Stripe's customer portal (a full
 * navigation; the portal returns to /settings?tab=billing).
 */
export async function openBillingPortal(): Promise<void> {
  const answer = await callWithDefault(() => createPortalSession(), 'Failed to create portal session');
  goToPage(answer.url);
}
