/**
 * First login with setup unfinished: the dashboard sends the user to onboarding (spec
 * section 2). A module of its own: the route's `beforeLoad` needs it in the first chunk,
 * the Welcome back card does not.
 */
export function needsFirstOnboarding(user: { needsOnboarding: boolean; isFirstLogin: boolean } | null | undefined) {
  return Boolean(user?.needsOnboarding && user.isFirstLogin);
}
