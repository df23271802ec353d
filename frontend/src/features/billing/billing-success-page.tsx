import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { getGetBillingStatusQueryKey, getGetSubscriptionStatusQueryKey } from '../../api/gen/billing/billing';
import { getGetUsageQueryKey } from '../../api/gen/leads/leads';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PageLoading } from '../../components/ui/spinner';
import { CheckIcon } from './check-icon';
import { PRO_FEATURES } from './pro-features';

/** How long the confirmation spinner shows (spec section 9). */
export const BILLING_SUCCESS_DELAY_MS = 1000;

/** After checkout (spec section 2). The checkout session id is read but unused. */
export function BillingSuccessPage() {
  const queryClient = useQueryClient();
  const [processing, setProcessing] = useState(true);
  useEffect(() => {
    // Whatever this tab read before checkout is out of date now.
    for (const queryKey of [getGetSubscriptionStatusQueryKey(), getGetBillingStatusQueryKey(), getGetUsageQueryKey()]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [queryClient]);
  useEffect(() => {
    const timer = window.setTimeout(() => setProcessing(false), BILLING_SUCCESS_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (processing) return <PageLoading message="Processing your subscription..." />;

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-b from-green-50 to-white px-4 py-12">
      <Card className="w-full max-w-lg text-center">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-green-100 text-green-700">
          <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} className="size-7">
            <path strokeLinecap="round" strokeLinejoin="round" d="M5 13l4 4L19 7" />
          </svg>
        </span>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Welcome to Leadgen Pro!</h1>
        <p className="mt-2 text-slate-600">Your subscription is active. Here is what you just unlocked:</p>
        <ul className="mx-auto mt-6 max-w-xs space-y-2 text-left text-sm text-slate-700">
          {PRO_FEATURES.map((benefit) => (
            <li key={benefit} className="flex gap-3">
              <CheckIcon />
              {benefit}
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/dashboard" className={buttonClasses('primary', 'lg')}>
            Start Generating Leads
          </Link>
          <Link to="/settings" className={buttonClasses('secondary', 'lg')}>
            Go to Settings
          </Link>
        </div>
      </Card>
    </main>
  );
}
