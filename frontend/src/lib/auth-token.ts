/** Local-storage key under which the session token is kept (spec section 9). */
export const AUTH_TOKEN_KEY = 'authToken';

/** Query parameter carrying the token on the sign-in return (spec section 9). */
export const TOKEN_QUERY_PARAM = 'token';

/**
 * A token from the address bar counts only if it has exactly three dot-separated
 * parts (the JWT shape); anything else is ignored (spec section 5). The server
 * validates the token itself.
 */
export function isValidTokenShape(token: string | null | undefined): token is string {
  if (!token) return false;
  const parts = token.split('.');
  return parts.length === 3 && parts.every((part) => part.length > 0);
}

/** Reads the stored session token; storage failures (private mode) read as none. */
export function getStoredToken(): string | null {
  try {
    return window.localStorage.getItem(AUTH_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  try {
    window.localStorage.setItem(AUTH_TOKEN_KEY, token);
  } catch {
    // Storage can be unavailable; the session then lasts for this page only.
  }
}

export function removeStoredToken(): void {
  try {
    window.localStorage.removeItem(AUTH_TOKEN_KEY);
  } catch {
    // Nothing stored that could be removed.
  }
}

/**
 * Takes the `token` query parameter out of the current address, if any, and
 * removes the whole query from the address bar while keeping the path (spec
 * section 2). Returns the token only when its shape is valid.
 *
 * Called once before the router is created, so the router never sees the token.
 */
export function takeTokenFromUrl(win: Window = window): string | null {
  const url = new URL(win.location.href);
  if (!url.searchParams.has(TOKEN_QUERY_PARAM)) return null;
  const token = url.searchParams.get(TOKEN_QUERY_PARAM);
  win.history.replaceState(win.history.state, '', url.pathname);
  return isValidTokenShape(token) ? token : null;
}
