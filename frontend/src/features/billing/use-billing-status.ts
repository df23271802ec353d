import { useGetBillingStatus } from '../../api/gen/billing/billing';
import type { BillingStatusData } from '../../api/gen/model/billingStatusData';
import type { BillingStatusResponse } from '../../api/gen/model/billingStatusResponse';

const selectData = (answer: BillingStatusResponse): BillingStatusData => answer.data;

/**
 * `GET /api/billing/status` (subscription, flags and tier), shared by the status widget
 * and the subscription card: one cache entry under the generated query key.
 */
export function useBillingStatus(enabled: boolean) {
  return useGetBillingStatus({ query: { enabled, select: selectData } });
}
