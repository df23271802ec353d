import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { hasReturnTo, takeReturnTo } from '../../lib/return-to';
import { useAuth } from '../../lib/session/auth-context';

/** Delay before going on after a successful sign-in (spec section 9). */
export const SUCCESS_REDIRECT_MS = 1500;
/** Delay before returning home after a failed sign-in (spec section 9). */
export const FAILURE_REDIRECT_MS = 3000;

/** The sign-in return page at /auth/success (spec section 2). */
export function AuthSuccessPage() {
  const { isLoading, isAuthenticated, user, error } = useAuth();
  const navigate = useNavigate();
  const [returning] = useState(hasReturnTo);

  useEffect(() => {
    if (isLoading) return;
    const timer = window.setTimeout(() => {
      // Back from re-authenticating (Sheets): to the page the user left, else the dashboard.
      const returnTo = takeReturnTo();
      if (!isAuthenticated) void navigate({ to: '/', replace: true });
      else if (returnTo) void navigate({ href: returnTo, replace: true });
      else void navigate({ to: '/dashboard', replace: true });
    }, isAuthenticated ? SUCCESS_REDIRECT_MS : FAILURE_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [isLoading, isAuthenticated, navigate]);

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-b from-indigo-50 to-white px-4">
      <Card className="w-full max-w-md text-center" aria-live="polite">
        {isLoading ? (
          <div role="status" className="flex flex-col items-center gap-4 py-4">
            <Spinner className="size-8 text-indigo-600" />
            <h1 className="text-xl font-semibold text-slate-900">Processing Authentication...</h1>
          </div>
        ) : isAuthenticated ? (
          <div className="flex flex-col items-center gap-3 py-4">
            <span className="flex size-12 items-center justify-center rounded-full bg-green-100 text-green-700">
              <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} className="size-6">
                <path strokeLinecap="round" strokeLinejoin="round" d="M5 13l4 4L19 7" />
              </svg>
            </span>
            <h1 className="text-2xl font-bold text-slate-900">Welcome{user?.name ? `, ${user.name.split(' ')[0]}` : ''}!</h1>
            <p className="text-slate-600">{returning ? 'Taking you back...' : 'Taking you to your dashboard...'}</p>
          </div>
        ) : (
          <div className="flex flex-col items-center gap-3 py-4">
            <span className="flex size-12 items-center justify-center rounded-full bg-red-100 text-red-700">
              <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} className="size-6">
                <path strokeLinecap="round" d="M6 6l12 12M18 6L6 18" />
              </svg>
            </span>
            <h1 className="text-2xl font-bold text-slate-900">Authentication Failed</h1>
            {error && <p className="text-sm text-red-700">{error}</p>}
            <p className="text-slate-600">Returning to the home page...</p>
          </div>
        )}
      </Card>
    </main>
  );
}
