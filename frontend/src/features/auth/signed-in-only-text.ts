/** What a signed-in page shows while the start-up check asks who the stored token is. */
export const CHECKING_SESSION = 'Checking authentication...';
