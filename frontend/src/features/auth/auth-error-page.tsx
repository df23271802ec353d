import { Link } from '@tanstack/react-router';
import { LocalModeNote } from '../../components/local-mode-note';
import { buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { SUPPORT_EMAIL } from '../../lib/brand';
import { useAuth } from '../../lib/session/auth-context';

const CAUSES = [
  'You denied permission to access your account',
  'A temporary issue with the identity provider',
  'Your browser blocked the sign-in popup or redirect',
  'Network connectivity issues',
];

/** The sign-in failure page at /auth/error (spec section 2). */
export function AuthErrorPage() {
  const { login } = useAuth();
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-b from-red-50 to-white px-4 py-12">
      <Card className="w-full max-w-md">
        <div className="flex flex-col items-center text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-red-100 text-red-700">
            <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className="size-6">
              <path strokeLinecap="round" strokeLinejoin="round" d="M12 9v4m0 4h.01M10.29 3.86 1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.71 3.86a2 2 0 0 0-3.42 0z" />
            </svg>
          </span>
          <h1 className="mt-4 text-2xl font-bold text-slate-900">Authentication Failed</h1>
          <p className="mt-2 text-slate-600">We couldn't sign you in. This is usually caused by one of the following:</p>
        </div>
        <ul className="mt-4 list-disc space-y-1.5 pl-6 text-sm text-slate-700">
          {CAUSES.map((cause) => (
            <li key={cause}>{cause}</li>
          ))}
        </ul>
        <div className="mt-6 flex flex-col gap-3">
          <button type="button" onClick={login} className={buttonClasses('primary', 'lg', 'w-full')}>
            Try Signing In Again
          </button>
          <Link to="/" className={buttonClasses('secondary', 'lg', 'w-full')}>
            Return to Home
          </Link>
        </div>
        <LocalModeNote className="mt-3 text-center" />
        <p className="mt-6 text-center text-sm text-slate-600">
          Still stuck? Contact{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-indigo-700 underline hover:text-indigo-600">
            {SUPPORT_EMAIL}
          </a>
        </p>
      </Card>
    </main>
  );
}
