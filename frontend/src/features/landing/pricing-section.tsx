import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Button, buttonClasses } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { CHECKOUT_LINKS, PRO_PLAN } from '../../lib/brand';
import { useAuth } from '../../lib/session/auth-context';

export type BillingPeriod = 'monthly' | 'yearly';

const FEATURES = [
  'Unlimited searches (fair usage)',
  'Real-time sync to Google Sheets',
  'Premium support',
  'Cancel anytime',
];

/** Pricing with a monthly / yearly toggle (spec sections 2 and 9). */
export function PricingSection() {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const { isAuthenticated, login } = useAuth();
  const checkout = CHECKOUT_LINKS[period];

  return (
    <section id="pricing" aria-labelledby="pricing-title" className="bg-slate-50 py-20 sm:py-28">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-indigo-600 uppercase">Pricing</p>
          <h2 id="pricing-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            One plan. Everything included.
          </h2>
          <p className="mt-4 text-lg text-slate-600">Start free, no credit card required. Upgrade when Leadgen pays for itself.</p>
        </div>

        <div className="mt-10 flex justify-center">
          <div role="radiogroup" aria-label="Billing period" className="inline-flex rounded-full bg-white p-1 shadow-sm ring-1 ring-slate-200">
            {(['monthly', 'yearly'] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={period === value}
                onClick={() => setPeriod(value)}
                className={cn(
                  'rounded-full px-5 py-2 text-sm font-semibold transition-colors',
                  period === value ? 'bg-indigo-600 text-white shadow' : 'text-slate-600 hover:text-slate-900',
                )}
              >
                {value === 'monthly' ? 'Monthly' : 'Yearly'}
              </button>
            ))}
          </div>
        </div>

        <div className="mx-auto mt-10 max-w-md">
          <div className="relative rounded-3xl bg-white p-8 shadow-xl ring-2 ring-indigo-600">
            <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-indigo-600 px-3 py-1 text-xs font-semibold text-white">
              Most popular
            </span>
            <h3 className="text-lg font-semibold text-slate-900">{PRO_PLAN.name}</h3>
            <p className="mt-4 flex items-baseline gap-1" data-testid="plan-price">
              <span className="text-5xl font-bold tracking-tight text-slate-900">
                ${period === 'monthly' ? PRO_PLAN.monthlyPrice : PRO_PLAN.yearlyPrice}
              </span>
              <span className="text-base text-slate-500">/{period === 'monthly' ? 'month' : 'year'}</span>
            </p>
            {period === 'yearly' ? (
              <p className="mt-2 text-sm text-slate-600">
                Just ${PRO_PLAN.yearlyMonthlyEquivalent}/month, billed yearly.{' '}
                <span className="font-semibold text-green-700">Save ${PRO_PLAN.yearlySaving}!</span>
              </p>
            ) : (
              <p className="mt-2 text-sm text-slate-600">Billed monthly. Switch to yearly and save.</p>
            )}
            <ul className="mt-8 space-y-3 text-sm text-slate-700">
              {FEATURES.map((feature) => (
                <li key={feature} className="flex gap-3">
                  <CheckIcon />
                  {feature}
                </li>
              ))}
            </ul>
            <div className="mt-8">
              {checkout ? (
                <a href={checkout} className={buttonClasses('primary', 'lg', 'w-full')}>
                  Upgrade to Pro
                </a>
              ) : isAuthenticated ? (
                <Link to="/settings" search={{ tab: 'billing' }} className={buttonClasses('primary', 'lg', 'w-full')}>
                  Upgrade to Pro
                </Link>
              ) : (
                <Button size="lg" className="w-full" onClick={login}>
                  Start free
                </Button>
              )}
            </div>
            <p className="mt-4 text-center text-xs text-slate-500">
              Guarantee: 6,000 qualified leads in 60 days for $58, or your money back.
            </p>
          </div>
        </div>
      </div>
    </section>
  );
}

export function CheckIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="mt-0.5 size-5 shrink-0 text-indigo-600">
      <path fillRule="evenodd" d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z" clipRule="evenodd" />
    </svg>
  );
}
