import { redirect } from '@tanstack/react-router';
import { isAppPath } from '../../lib/return-to';
import type { SessionState } from '../../lib/session/session-types';

/** Where a signed-out visitor of a protected page is sent (spec section 2). */
export const SIGN_IN_ROUTE = '/auth/sign-in';

/** The sign-in screen's search: the page to come back to, if it is one of ours. */
export interface SignInSearch {
  redirect?: string;
}

/**
 * Validates `/auth/sign-in?redirect=`: only a path inside this app is kept (never another
 * origin, `//host`, an API or another `/auth/` page), so the screen cannot be used to send
 * a user elsewhere after signing in.
 */
export function signInSearch(search: Record<string, unknown>): SignInSearch {
  return isAppPath(search.redirect) ? { redirect: search.redirect } : {};
}

type SessionFlags = Pick<SessionState, 'isLoading' | 'isAuthenticated'>;

/** The start-up session check has not answered yet: nothing can be decided. */
export function sessionUndecided(auth: SessionFlags): boolean {
  return auth.isLoading && !auth.isAuthenticated;
}

/**
 * The `_authed` layout's `beforeLoad`: a signed-out visitor goes to the sign-in screen,
 * which keeps `href` (path and query) to come back to. While the start-up check runs it
 * lets the load go on (the layout shows 'Checking authentication...'); main.tsx re-runs
 * every guard once the session settles. UX only: the API authorises every call.
 */
export function requireSession(auth: SessionFlags | undefined, href: string): void {
  // No session handed to the router yet (router.tsx): as undecided.
  if (!auth || sessionUndecided(auth) || auth.isAuthenticated) return;
  throw redirect({ to: SIGN_IN_ROUTE, search: signInSearch({ redirect: href }), replace: true });
}

/**
 * The sign-in screen's `beforeLoad`: someone signed in (a reload once the session is
 * back, a second tab) goes on to the page they asked for, else the dashboard.
 */
export function leaveSignInWhenSignedIn(auth: SessionFlags | undefined, search: SignInSearch): void {
  if (!auth?.isAuthenticated) return;
  if (search.redirect) throw redirect({ href: search.redirect, replace: true });
  throw redirect({ to: '/dashboard', replace: true });
}
