import { Navigate, useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { useAuth } from '../../lib/session/auth-context';
import { useCurrentWorkspaceId } from '../../lib/workspace/current-workspace';
import { needsFirstOnboarding } from './first-onboarding';
import { greetingName } from './greeting';
import { WelcomeBackCard } from './welcome-back-card';

/** Remembers 'Skip for now' on the Welcome back card for this browser tab. */
const SKIP_KEY = 'leadgen:onboardingSkipped';

function skippedInThisTab(): boolean {
  try {
    return window.sessionStorage.getItem(SKIP_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * The dashboard's door while setup is unfinished (spec section 2): a first login goes to
 * onboarding; a later one sees the Welcome back card until 'Skip for now' (remembered for
 * the tab); everyone else sees `children`.
 */
export function OnboardingGate({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const [skipped, setSkipped] = useState(skippedInThisTab);
  const navigate = useNavigate();
  // Onboarding sets up the person's own workspace; a team's (an invitation just accepted)
  // has its own key and plan, which 'save your key' must not replace.
  const inTeamWorkspace = useCurrentWorkspaceId() !== undefined;

  // The route's beforeLoad redirects too; this covers a user that changes on the page.
  if (inTeamWorkspace) return <>{children}</>;
  if (needsFirstOnboarding(user)) return <Navigate to="/onboarding" replace />;
  if (user?.needsOnboarding && !skipped) {
    return (
      <WelcomeBackCard
        name={greetingName(user)}
        onSkip={() => {
          try {
            window.sessionStorage.setItem(SKIP_KEY, '1');
          } catch {
            // Not remembered; skipping still works for this visit.
          }
          setSkipped(true);
          void navigate({ to: '/dashboard' });
        }}
      />
    );
  }
  return <>{children}</>;
}
