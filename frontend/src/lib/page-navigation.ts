/**
 * Full-page navigation away from the app (sign-in, re-authentication, billing portal).
 * One tiny module so tests can replace it: jsdom cannot leave the page.
 */
export function goToPage(url: string): void {
  window.location.assign(url);
}
