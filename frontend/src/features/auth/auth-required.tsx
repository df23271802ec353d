import { Link } from '@tanstack/react-router';
import { LocalModeNote } from '../../components/local-mode-note';
import { Card } from '../../components/ui/card';
import { Logo } from '../../components/ui/logo';
import { SignInButton } from './sign-in-button';

/**
 * The 'Authentication Required' screen of `/auth/sign-in` (spec section 2). Signing in
 * from it comes back to `returnTo`, the protected page the visitor asked for.
 */
export function AuthRequired({ returnTo }: { returnTo?: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-b from-indigo-50 to-white px-4 py-12">
      <Card className="w-full max-w-md text-center">
        <Link to="/" className="inline-block rounded-md" aria-label="Leadgen home">
          <Logo />
        </Link>
        <div className="mx-auto mt-6 flex size-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700">
          <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className="size-6">
            <rect x="5" y="11" width="14" height="10" rx="2" />
            <path d="M8 11V7a4 4 0 1 1 8 0v4" />
          </svg>
        </div>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Authentication Required</h1>
        <p className="mt-2 text-slate-600">
          Sign in to search local businesses and generate up to 1000 leads per day.
        </p>
        <div className="mt-6">
          <SignInButton returnTo={returnTo} />
        </div>
        <LocalModeNote className="mt-3" />
        <p className="mt-6 text-xs text-slate-500">
          By signing in you agree to our{' '}
          <Link to="/terms" className="underline hover:text-slate-700">
            Terms
          </Link>{' '}
          and{' '}
          <Link to="/privacy" className="underline hover:text-slate-700">
            Privacy Policy
          </Link>
          .
        </p>
      </Card>
    </main>
  );
}
