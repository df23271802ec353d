import { Link } from '@tanstack/react-router';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PRO_PLAN, SUPPORT_EMAIL } from '../../lib/brand';
import { CheckIcon } from './check-icon';
import { PRO_FEATURES } from './pro-features';

/** After leaving checkout without paying (spec section 2). */
export function BillingCancelPage() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-b from-slate-100 to-white px-4 py-12">
      <Card className="w-full max-w-lg">
        <div className="text-center">
          <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-yellow-100 text-yellow-700">
            <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className="size-7">
              <path strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
            </svg>
          </span>
          <h1 className="mt-4 text-2xl font-bold text-slate-900">Subscription Cancelled</h1>
          <p className="mt-2 text-slate-600">You left checkout before finishing. No payment was made.</p>
        </div>
        <div className="mt-6 rounded-xl bg-indigo-50 p-5">
          <p className="font-semibold text-indigo-900">
            Leadgen {PRO_PLAN.name} — ${PRO_PLAN.monthlyPrice}/month
          </p>
          <ul className="mt-3 space-y-2 text-sm text-indigo-900">
            {PRO_FEATURES.map((benefit) => (
              <li key={benefit} className="flex gap-3">
                <CheckIcon />
                {benefit}
              </li>
            ))}
          </ul>
        </div>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <Link to="/settings" search={{ tab: 'billing' }} className={buttonClasses('primary', 'lg', 'flex-1')}>
            Try Again
          </Link>
          <Link to="/dashboard" className={buttonClasses('secondary', 'lg', 'flex-1')}>
            Back to Dashboard
          </Link>
        </div>
        <p className="mt-6 text-center text-sm text-slate-600">
          Questions about billing?{' '}
          <a href={`mailto:${SUPPORT_EMAIL}?subject=Billing`} className="font-medium text-indigo-700 underline">
            Contact support
          </a>
        </p>
      </Card>
    </main>
  );
}
