import type { ReactNode } from 'react';
import type { BillingStatusData } from '../../api/gen/model/billingStatusData';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { useAuth } from '../../lib/session/auth-context';
import { formatDay, statusLabel } from './format';
import { useBillingStatus } from './use-billing-status';

/** The widget's error text (spec section 8, Widgets). */
export const BILLING_STATUS_LOAD_FAILED = 'Failed to load billing status';

export interface BillingStatusViewProps {
  data: BillingStatusData | undefined;
  isLoading?: boolean;
  error?: boolean;
}

/** Tier, Stripe's subscription status, billing period and payment method. */
export function BillingStatusView({ data, isLoading, error }: BillingStatusViewProps) {
  return (
    <Card>
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">Billing status</h2>
        {data && <Badge tone={data.tier === 'pro' ? 'indigo' : 'gray'}>{data.tier === 'pro' ? 'Pro' : 'Free'}</Badge>}
      </div>
      <div className="mt-4">
        {isLoading ? (
          <div className="space-y-2" role="status" aria-label="Loading billing status">
            <div className="h-4 w-40 animate-pulse rounded bg-slate-100" />
            <div className="h-4 w-56 animate-pulse rounded bg-slate-100" />
          </div>
        ) : error || !data ? (
          <p className="text-sm text-red-700">{BILLING_STATUS_LOAD_FAILED}</p>
        ) : (
          <Details data={data} />
        )}
      </div>
    </Card>
  );
}

function Details({ data }: { data: BillingStatusData }) {
  const { subscription, flags } = data;
  const end = formatDay(subscription.currentPeriodEnd);
  const hasSubscription = subscription.status !== 'none';
  return (
    <>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <Row label="Subscription">{hasSubscription ? statusLabel(subscription.status) : 'None'}</Row>
        <Row label="Billing">
          {subscription.plan === 'monthly' ? 'Monthly' : subscription.plan === 'yearly' ? 'Yearly' : 'Free plan'}
        </Row>
        {end && hasSubscription && (
          <Row label={subscription.cancelAtPeriodEnd || !subscription.isActive ? 'Ends' : 'Renews'}>{end}</Row>
        )}
        <Row label="Payment method">{flags.hasPaymentMethod ? 'On file' : 'None on file'}</Row>
      </dl>
      {!flags.billingConfigured && (
        <p className="mt-3 text-xs text-slate-500">Online payments are not set up on this server.</p>
      )}
    </>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900">{children}</dd>
    </>
  );
}

/** The widget wired to `GET /api/billing/status` (the query the subscription card shares). */
export function BillingStatusWidget() {
  const { isAuthenticated, user } = useAuth();
  const signedIn = isAuthenticated && user !== null;
  const query = useBillingStatus(signedIn);
  // Signed out, the subscription card says why nothing is shown.
  if (!signedIn) return null;
  return <BillingStatusView data={query.data} isLoading={query.isPending} error={query.isError} />;
}
