import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { cn } from '../../components/ui/cn';
import { Spinner } from '../../components/ui/spinner';
import { PRO_PLAN } from '../../lib/brand';
import { useAuth } from '../../lib/session/auth-context';
import { billingStatusQueryKey, createPortalSession, fetchBillingStatus } from './billing-api';
import { CheckIcon } from './check-icon';

export type SubscriptionStatus = 'active' | 'cancelled' | string;

export interface SubscriptionViewProps {
  /** undefined while loading. */
  status: SubscriptionStatus | undefined;
  plan: string | null | undefined;
  signedIn: boolean;
  onManage?: () => void;
  onSubscribe?: () => void;
  busy?: boolean;
  subscribeAvailable?: boolean;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Subscription card states (spec section 4, Subscription card). */
export function SubscriptionView({ status, plan, signedIn, onManage, onSubscribe, busy, subscribeAvailable = true }: SubscriptionViewProps) {
  if (!signedIn) return <Card><p className="text-sm text-slate-600">Please log in to view your subscription status.</p></Card>;
  if (status === undefined) return <Card><p className="text-sm text-slate-600" role="status">Loading...</p></Card>;

  if (status === 'active') {
    return (
      <Card className="border-green-200 bg-green-50">
        <h3 className="text-lg font-semibold text-green-900">Active Subscription</h3>
        {plan && <p className="mt-1 text-sm text-green-800">Plan: {capitalise(plan)}</p>}
        <p className="mt-1 text-sm text-green-800">10,000 API calls per month included</p>
        <Button className="mt-4" onClick={onManage} disabled={busy}>
          {busy && <Spinner />}
          Manage Billing
        </Button>
      </Card>
    );
  }

  if (status === 'cancelled') {
    return (
      <Card className="border-red-200 bg-red-50">
        <h3 className="text-lg font-semibold text-red-900">Subscription Cancelled</h3>
        {plan && <p className="mt-1 text-sm text-red-800">Plan: {capitalise(plan)}</p>}
        <p className="mt-1 text-sm text-red-800">Your Pro features end with the current billing period.</p>
      </Card>
    );
  }

  return (
    <Card className="border-yellow-200 bg-yellow-50">
      <h3 className="text-lg font-semibold text-yellow-900">No Active Subscription</h3>
      <p className="mt-1 text-sm text-yellow-900">
        Upgrade to {PRO_PLAN.name} for ${PRO_PLAN.monthlyPrice}/month:
      </p>
      <ul className="mt-3 space-y-1.5 text-sm text-yellow-900">
        {[`${PRO_PLAN.searchesPerMonth} searches per month`, 'Google Sheets integration', 'Advanced search filters', 'Priority support'].map((feature) => (
          <li key={feature} className="flex gap-2">
            <CheckIcon className="text-yellow-700" />
            {feature}
          </li>
        ))}
      </ul>
      <Button className={cn('mt-4')} onClick={onSubscribe} disabled={busy || !subscribeAvailable}>
        Subscribe
      </Button>
      {!subscribeAvailable && <p className="mt-2 text-xs text-yellow-800">Online checkout is opening soon.</p>}
    </Card>
  );
}

/**
 * The Billing tab's subscription card, wired to `GET /api/billing/status`. The
 * checkout start path is not in the spec, so Subscribe stays unavailable for now.
 */
export function SubscriptionCard() {
  const { isAuthenticated, token } = useAuth();
  const signedIn = isAuthenticated && Boolean(token);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const query = useQuery({ queryKey: billingStatusQueryKey, queryFn: fetchBillingStatus, enabled: signedIn, retry: false });

  async function manage() {
    if (!signedIn) {
      setError('Please log in to manage billing');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      window.location.href = await createPortalSession();
    } catch {
      setError('Failed to open billing portal');
      setBusy(false);
    }
  }

  const status = query.isError ? 'none' : query.data?.subscription.status;
  return (
    <div className="space-y-3">
      <SubscriptionView
        status={status}
        plan={query.data?.subscription.plan}
        signedIn={signedIn}
        onManage={manage}
        busy={busy}
        subscribeAvailable={false}
      />
      {query.isError && (
        <p className="text-xs text-slate-500">Failed to load billing status</p>
      )}
      {error && <Banner tone="error">{error}</Banner>}
    </div>
  );
}
