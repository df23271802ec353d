import { useState, type ReactNode } from 'react';
import { useCreatePortalSession, useGetSubscriptionStatus } from '../../api/gen/billing/billing';
import { useGetUsage } from '../../api/gen/leads/leads';
import type { BillingStatusData } from '../../api/gen/model/billingStatusData';
import { Banner } from '../../components/ui/banner';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { PRO_PLAN } from '../../lib/brand';
import { CHECKOUT_FAILED, errorDetail, useStartCheckout } from '../../lib/checkout';
import { goToPage } from '../../lib/page-navigation';
import { useAuth } from '../../lib/session/auth-context';
import { CheckIcon } from './check-icon';
import { formatDay } from './format';
import { PRO_FEATURES } from './pro-features';
import { useBillingStatus } from './use-billing-status';

/** Card and action texts (spec sections 4 and 8). */
export const CARD_TEXT = {
  signedOut: 'Please log in to view your subscription status.',
  loading: 'Loading...',
  loadFailed: 'Failed to load billing status',
  portalFailed: 'Failed to open billing portal',
  manageNeedsLogin: 'Please log in to manage billing',
  subscribeNeedsLogin: 'Please log in to subscribe',
  checkoutUnavailable: 'Online checkout is not available on this server yet.',
  ownersOnly: "Only an owner of this workspace can change its plan.",
} as const;

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

interface ActionError {
  title: string;
  detail?: string;
}

/**
 * The Billing tab's subscription card (spec section 4): green when active, red when
 * cancelled, yellow otherwise. Reads `GET /api/billing/subscription`; the billing
 * status (shared with the status widget) adds the period end and whether Checkout is
 * configured. Subscribe starts Checkout for Pro monthly, the plan the settings copy
 * names; yearly is offered on the pricing page.
 */
export function SubscriptionCard({ canManage = true }: { canManage?: boolean }) {
  const { isAuthenticated, user, token } = useAuth();
  const signedIn = isAuthenticated && user !== null;
  const subscription = useGetSubscriptionStatus({ query: { enabled: signedIn } });
  const billing = useBillingStatus(signedIn);
  const portal = useCreatePortalSession();
  const startCheckout = useStartCheckout();
  const [busy, setBusy] = useState<'portal' | 'checkout' | null>(null);
  const [error, setError] = useState<ActionError | null>(null);

  // Billing actions need both a signed-in user and a token (spec section 6).
  const canAct = signedIn && Boolean(token);

  async function manage() {
    setError(null);
    if (!canAct) {
      setError({ title: CARD_TEXT.manageNeedsLogin });
      return;
    }
    setBusy('portal');
    try {
      // Then on to Stripe's customer portal (a full navigation; it returns to
      // /settings?tab=billing).
      const answer = await portal.mutateAsync();
      goToPage(answer.url);
      // The browser is leaving for the portal: the button stays busy.
    } catch (failure) {
      setError({ title: CARD_TEXT.portalFailed, detail: errorDetail(failure, CARD_TEXT.portalFailed) });
      setBusy(null);
    }
  }

  async function subscribe() {
    setError(null);
    if (!canAct) {
      setError({ title: CARD_TEXT.subscribeNeedsLogin });
      return;
    }
    setBusy('checkout');
    try {
      await startCheckout('monthly');
    } catch (failure) {
      setError({ title: CHECKOUT_FAILED, detail: errorDetail(failure, CHECKOUT_FAILED) });
      setBusy(null);
    }
  }

  if (!signedIn) {
    return (
      <Card role="region" aria-label="Subscription" data-state="signed-out">
        <p className="text-sm text-slate-600">{CARD_TEXT.signedOut}</p>
      </Card>
    );
  }

  let body: ReactNode;
  if (subscription.isPending) {
    body = (
      <Card role="region" aria-label="Subscription" aria-busy="true" data-state="loading">
        <p role="status" className="text-sm text-slate-600">
          {CARD_TEXT.loading}
        </p>
      </Card>
    );
  } else if (subscription.isError) {
    // Not a status: offering Subscribe here could sell Pro to someone who has it.
    body = (
      <Card role="region" aria-label="Subscription" data-state="error">
        <p className="text-sm font-medium text-red-700">{CARD_TEXT.loadFailed}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void subscription.refetch()}>
          Try again
        </Button>
      </Card>
    );
  } else {
    body = (
      <StatusCard
        status={subscription.data.subscriptionStatus}
        plan={subscription.data.subscriptionPlan}
        billing={billing.data}
        busy={busy}
        canManage={canManage}
        onManage={() => void manage()}
        onSubscribe={() => void subscribe()}
      />
    );
  }

  return (
    <div className="space-y-3">
      {body}
      {error && (
        <Banner tone="error" title={error.title} onDismiss={() => setError(null)}>
          {error.detail}
        </Banner>
      )}
    </div>
  );
}

interface StatusCardProps {
  status: string;
  plan: string;
  billing: BillingStatusData | undefined;
  busy: 'portal' | 'checkout' | null;
  /** False for a team workspace's admins and members: the plan is the owner's to change (issue #28 item 2). */
  canManage: boolean;
  onManage: () => void;
  onSubscribe: () => void;
}

function StatusCard({ status, plan, billing, busy, canManage, onManage, onSubscribe }: StatusCardProps) {
  // Unknown until the billing status answers: only a definite "not configured" disables.
  const checkoutAvailable = billing?.flags.billingConfigured !== false;
  const periodEnd = formatDay(billing?.subscription.currentPeriodEnd);
  const planLine = plan && plan !== 'free' ? `Plan: Pro ${capitalise(plan)}` : null;

  const ownersOnly = <p className="text-sm">{CARD_TEXT.ownersOnly}</p>;
  const manageButton = !canManage ? ownersOnly : (
    <Button onClick={onManage} disabled={busy !== null || !checkoutAvailable}>
      {busy === 'portal' && <Spinner />}
      Manage Billing
    </Button>
  );
  const subscribeButton = !canManage ? ownersOnly : (
    <>
      <Button onClick={onSubscribe} disabled={busy !== null || !checkoutAvailable}>
        {busy === 'checkout' && <Spinner />}
        Subscribe
      </Button>
      {!checkoutAvailable && <p className="mt-2 text-xs">{CARD_TEXT.checkoutUnavailable}</p>}
    </>
  );

  if (status === 'active') {
    return (
      <Tinted tone="green" data-state="active">
        <h3 className="text-lg font-semibold text-green-900">Active Subscription</h3>
        {planLine && <p className="mt-1 text-sm text-green-800">{planLine}</p>}
        <AllowanceLines />
        {periodEnd && <p className="mt-1 text-sm text-green-800">Renews on {periodEnd}</p>}
        <div className="mt-4">{manageButton}</div>
      </Tinted>
    );
  }

  if (status === 'cancelled') {
    // Cancelled in the portal keeps Pro until the period ends (and can be resumed there);
    // an ended subscription can only be bought again.
    const stillActive = billing?.subscription.isActive === true;
    return (
      <Tinted tone="red" data-state="cancelled">
        <h3 className="text-lg font-semibold text-red-900">Subscription Cancelled</h3>
        {planLine && <p className="mt-1 text-sm text-red-800">{planLine}</p>}
        {stillActive ? (
          <p className="mt-1 text-sm text-red-800">
            {periodEnd ? `Pro stays active until ${periodEnd}` : 'Pro stays active until the end of the billing period'}, then
            it ends. Changed your mind? Resume it from Manage Billing.
          </p>
        ) : billing ? (
          <p className="mt-1 text-sm text-red-800">Your Pro plan has ended. Subscribe again any time.</p>
        ) : null}
        {billing && <div className="mt-4 text-red-900">{stillActive ? manageButton : subscribeButton}</div>}
      </Tinted>
    );
  }

  return (
    <Tinted tone="yellow" data-state="none">
      <h3 className="text-lg font-semibold text-yellow-900">No Active Subscription</h3>
      <p className="mt-1 text-sm text-yellow-900">
        Upgrade to {PRO_PLAN.name} for ${PRO_PLAN.monthlyPrice}/month:
      </p>
      <ul className="mt-3 space-y-1.5 text-sm text-yellow-900">
        {PRO_FEATURES.map((feature) => (
          <li key={feature} className="flex gap-2">
            <CheckIcon className="text-yellow-700" />
            {feature}
          </li>
        ))}
      </ul>
      <div className="mt-4 text-yellow-900">{subscribeButton}</div>
    </Tinted>
  );
}

const count = new Intl.NumberFormat('en-US');

/** What counts against a plan, in the words of the usage rules the server applies. */
export const WHAT_COUNTS =
  'Each search you start counts, cancelled or not, unless it fails before Google answers (a wrong key, for example).';

/**
 * What Pro includes, as the server counts it (issue #26 item 8): searches a month and
 * leads a day from `GET /api/leads/usage`, which says the allowances that apply to this
 * user. The spec's "10,000 API calls per month included" said neither what counts (a
 * search, not an API call) nor the daily lead allowance; until usage answers, the plan's
 * advertised figure stands in.
 */
function AllowanceLines() {
  const usage = useGetUsage({ query: { select: (answer) => answer.data } }).data;
  const searches = usage ? count.format(usage.usage.limit) : PRO_PLAN.searchesPerMonth;
  const daily = usage?.usage.dailyLeadLimit;
  const leads = !usage ? '' : daily == null ? ', with no daily lead limit' : `, up to ${count.format(daily)} leads a day`;
  return (
    <>
      <p className="mt-1 text-sm text-green-800">
        {searches} searches per month included{leads}
      </p>
      <p className="mt-1 text-xs text-green-800">{WHAT_COUNTS}</p>
    </>
  );
}

const tints = {
  green: 'border-green-200 bg-green-50',
  red: 'border-red-200 bg-red-50',
  yellow: 'border-yellow-200 bg-yellow-50',
} as const;

/** A card in the state's colour (Card's own white background would compete with it). */
function Tinted({ tone, children, ...rest }: { tone: keyof typeof tints; children: ReactNode; 'data-state': string }) {
  return (
    <section aria-label="Subscription" className={`rounded-2xl border p-6 shadow-sm ${tints[tone]}`} {...rest}>
      {children}
    </section>
  );
}
