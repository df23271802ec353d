import { apiFetch, callWithDefault } from '../../lib/api-fetch';

// The billing calls in one place (spec section 7).

/** `GET /api/billing/status` data (spec section 3, Billing status). */
export interface BillingStatus {
  subscription: { isActive: boolean; status: string; plan: string | null };
  flags: { hasPaymentMethod: boolean };
}

export const billingStatusQueryKey = ['/api/billing/status'] as const;

export async function fetchBillingStatus(): Promise<BillingStatus> {
  const answer = await callWithDefault(
    () => apiFetch<{ success: boolean; data: BillingStatus }>('/api/billing/status', { method: 'GET' }),
    'Failed to fetch billing status',
  );
  return answer.data;
}

/** `POST /api/billing/create-portal-session`: returns the portal address. */
export async function createPortalSession(): Promise<string> {
  const answer = await callWithDefault(
    () => apiFetch<{ url: string }>('/api/billing/create-portal-session', { method: 'POST' }),
    'Failed to create portal session',
  );
  return answer.url;
}
