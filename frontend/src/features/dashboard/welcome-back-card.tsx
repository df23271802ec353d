import { Link } from '@tanstack/react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';

/** Shown when onboarding is unfinished but this is not the first login (spec section 2). */
export function WelcomeBackCard({ name, onSkip }: { name: string; onSkip: () => void }) {
  return (
    <main className="flex min-h-[70vh] items-center justify-center px-4">
      <Card className="w-full max-w-lg text-center">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-indigo-100 text-indigo-700" aria-hidden="true">
          <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className="size-6">
            <path strokeLinecap="round" strokeLinejoin="round" d="M12 8v4l3 3m6-3a9 9 0 1 1-18 0 9 9 0 0 1 18 0z" />
          </svg>
        </span>
        <h1 className="mt-4 text-2xl font-bold text-slate-900">Welcome back, {name}!</h1>
        <p className="mt-2 text-slate-600">
          You haven't finished setting up your account. Add your Google Places API key to start generating leads.
        </p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/onboarding" className={buttonClasses('primary', 'lg')}>
            Complete Setup Now
          </Link>
          <Button variant="secondary" size="lg" onClick={onSkip}>
            Skip for now
          </Button>
        </div>
      </Card>
    </main>
  );
}
