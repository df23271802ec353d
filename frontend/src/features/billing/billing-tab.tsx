import { BillingStatusWidget } from './billing-status-widget';
import { SubscriptionCard } from './subscription-card';
import { UsageWidget } from './usage-card';

/**
 * Settings → Billing (spec section 2): the subscription card, billing status and usage.
 * `canManage` false (not the workspace's owner) shows the plan without its buttons.
 */
export function BillingTab({ canManage = true }: { canManage?: boolean }) {
  return (
    <div className="space-y-6">
      <SubscriptionCard canManage={canManage} />
      <div className="grid gap-6 lg:grid-cols-2">
        <BillingStatusWidget />
        <UsageWidget />
      </div>
    </div>
  );
}
