import { useCallback, useEffect, useState } from "react";
import { useListPlans } from "../../api/gen/billing/billing";
import type { Plan } from "../../api/gen/model/plan";
import type { PlansResponse } from "../../api/gen/model/plansResponse";
import { Banner } from "../../components/ui/banner";
import { Button } from "../../components/ui/button";
import { cn } from "../../components/ui/cn";
import { Spinner } from "../../components/ui/spinner";
import { PRO_PLAN } from "../../lib/brand";
import { formatPrice } from "../../lib/money";
import {
  CHECKOUT_FAILED,
  errorDetail,
  rememberCheckoutIntent,
  takeCheckoutIntent,
  useStartCheckout,
  type CheckoutInterval,
} from "../../lib/checkout";
import { rememberReturnTo } from "../../lib/return-to";
import { useAuth } from "../../lib/session/auth-context";

export type BillingPeriod = CheckoutInterval;

/** Shown until the plans answer (the same facts: spec section 9). */
const FEATURES = [
  "Unlimited searches (fair usage)",
  "Real-time sync to Google Sheets",
  "Premium support",
  "Cancel anytime",
];

/** Where a visitor who chose a plan comes back to after signing in. */
export const PRICING_PATH = "/#pricing";

export const CHECKOUT_UNAVAILABLE =
  "Online checkout is not available on this server yet.";

/** Shown under the plan when `GET /api/billing/plans` fails (spec section 8). */
export const FETCH_PLANS_FAILED = "Failed to fetch plans";

const selectPlans = (answer: PlansResponse): Plan[] => answer.data.plans;

/**
 * Pricing with a monthly / yearly toggle (spec sections 2 and 9). Subscribe starts
 * Stripe Checkout for the chosen period; a signed-out visitor signs in first and is
 * then taken straight into Checkout for the plan they chose. When the server has no
 * Stripe (`checkoutAvailable: false`) the plans show with Subscribe disabled.
 */
export function PricingSection() {
  const [period, setPeriod] = useState<BillingPeriod>("monthly");
  const { isAuthenticated, isLoading, user, token, login } = useAuth();
  const signedIn = isAuthenticated && user !== null && Boolean(token);
  const plans = useListPlans({ query: { select: selectPlans } });
  const startCheckout = useStartCheckout();
  const plan = plans.data?.find((p) => p.id === period);
  const [redirecting, setRedirecting] = useState(false);
  const [error, setError] = useState<{ title: string; detail?: string } | null>(
    null,
  );

  const checkout = useCallback(
    async (interval: BillingPeriod) => {
      setError(null);
      setRedirecting(true);
      try {
        await startCheckout(interval);
        // The browser is leaving for Checkout: stay busy.
      } catch (failure) {
        setError({
          title: CHECKOUT_FAILED,
          detail: errorDetail(failure, CHECKOUT_FAILED),
        });
        setRedirecting(false);
      }
    },
    [startCheckout],
  );

  // Back from signing in with a plan chosen: on to Checkout for that plan.
  useEffect(() => {
    if (isLoading || !signedIn) return;
    const intent = takeCheckoutIntent();
    if (!intent) return;
    setPeriod(intent);
    void checkout(intent);
  }, [isLoading, signedIn, checkout]);

  function subscribe() {
    if (signedIn) {
      void checkout(period);
      return;
    }
    rememberCheckoutIntent(period);
    rememberReturnTo(PRICING_PATH);
    login();
  }

  const unavailable = plan?.checkoutAvailable === false;
  const price =
    plan?.price ??
    (period === "monthly" ? PRO_PLAN.monthlyPrice : PRO_PLAN.yearlyPrice);
  const monthlyEquivalent =
    plan?.monthlyEquivalent ?? Number(PRO_PLAN.yearlyMonthlyEquivalent);
  const savings = plan?.savings ?? PRO_PLAN.yearlySaving;
  const features = plan?.features ?? FEATURES;

  return (
    <section
      id="pricing"
      aria-labelledby="pricing-title"
      className="bg-slate-50 py-20 sm:py-28"
    >
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">
            Pricing
          </p>
          <h2
            id="pricing-title"
            className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl"
          >
            One plan. Everything included.
          </h2>
          <p className="mt-4 text-lg text-slate-600">
            Start free, no credit card required. Upgrade when Leadgen pays for
            itself.
          </p>
        </div>

        <div className="mt-10 flex justify-center">
          <div
            role="radiogroup"
            aria-label="Billing period"
            className="inline-flex rounded-full bg-white p-1 shadow-sm ring-1 ring-slate-200"
          >
            {(["monthly", "yearly"] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={period === value}
                onClick={() => setPeriod(value)}
                disabled={redirecting}
                className={cn(
                  "rounded-full px-5 py-2 text-sm font-semibold transition-colors",
                  period === value
                    ? "bg-indigo-600 text-white shadow"
                    : "text-slate-600 hover:text-slate-900",
                )}
              >
                {value === "monthly" ? "Monthly" : "Yearly"}
              </button>
            ))}
          </div>
        </div>

        <div className="mx-auto mt-10 max-w-md">
          <div className="relative rounded-3xl bg-white p-8 shadow-xl ring-2 ring-indigo-600">
            <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold text-white">
              Most popular
            </span>
            <h3 className="text-lg font-semibold text-slate-900">
              {plan?.name ?? PRO_PLAN.name}
            </h3>
            <p
              className="mt-4 flex items-baseline gap-1"
              data-testid="plan-price"
            >
              <span className="text-5xl font-bold tracking-tight text-slate-900">
                {formatPrice(price)}
              </span>
              <span className="text-base text-slate-500">
                /{period === "monthly" ? "month" : "year"}
              </span>
            </p>
            {period === "yearly" ? (
              <p className="mt-2 text-sm text-slate-600">
                Just {formatPrice(monthlyEquivalent)}/month, billed yearly.{" "}
                <span className="font-semibold text-green-700">
                  Save {formatPrice(savings)}!
                </span>
              </p>
            ) : (
              <p className="mt-2 text-sm text-slate-600">
                Billed monthly. Switch to yearly and save.
              </p>
            )}
            <ul className="mt-8 space-y-3 text-sm text-slate-700">
              {features.map((feature) => (
                <li key={feature} className="flex gap-3">
                  <CheckIcon />
                  {feature}
                </li>
              ))}
            </ul>
            <div className="mt-8">
              <Button
                size="lg"
                className="w-full"
                onClick={subscribe}
                disabled={
                  plans.isPending || unavailable || redirecting || isLoading
                }
                aria-describedby={
                  unavailable ? "pricing-unavailable" : undefined
                }
              >
                {redirecting && <Spinner />}
                {redirecting ? "Taking you to checkout..." : "Subscribe"}
              </Button>
              {unavailable ? (
                <p
                  id="pricing-unavailable"
                  className="mt-3 text-center text-sm text-slate-600"
                >
                  {CHECKOUT_UNAVAILABLE}
                </p>
              ) : (
                !signedIn &&
                !redirecting && (
                  <p className="mt-3 text-center text-xs text-slate-500">
                    You'll sign in with Google first, then pay on Stripe.
                  </p>
                )
              )}
              {plans.isError && (
                <p className="mt-3 text-center text-xs text-red-700">
                  {FETCH_PLANS_FAILED}
                </p>
              )}
              {error && (
                <Banner
                  tone="error"
                  title={error.title}
                  onDismiss={() => setError(null)}
                  className="mt-4 text-left"
                >
                  {error.detail}
                </Banner>
              )}
            </div>
            <p className="mt-4 text-center text-xs text-slate-500">
              Guarantee: 6,000 qualified leads in 60 days for $58, or your money
              back.
            </p>
          </div>
        </div>
      </div>
    </section>
  );
}

export function CheckIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      fill="currentColor"
      className="mt-0.5 size-5 shrink-0 text-indigo-600"
    >
      <path
        fillRule="evenodd"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z"
        clipRule="evenodd"
      />
    </svg>
  );
}
