import { getMe, logout, refreshSession } from '../../api/gen/auth/auth';
import type { SessionResponse } from '../../api/gen/model/sessionResponse';
import type { SessionUser } from './session-types';

// The session's calls in one place, over the generated fetchers rather than hooks: the
// session is a state machine of its own (session-reducer.ts), started before any query
// runs. Each call passes the token explicitly because at start-up the token from the
// address bar is checked before it is stored. Failure texts come from the fetch
// mutator's table (lib/api-error-messages.ts).

function bearer(token: string): RequestInit {
  return { headers: { Authorization: `Bearer ${token}` } };
}

/** `GET /api/auth/me`; failure uses the server's text, else 'Failed to get user info'. */
export function fetchCurrentUser(token: string): Promise<SessionUser> {
  return getMe(bearer(token));
}

/** `POST /api/auth/refresh`; failure uses the server's text, else 'Failed to refresh token'. */
export function refreshSessionToken(token: string): Promise<SessionResponse> {
  return refreshSession(bearer(token));
}

/**
 * `POST /api/auth/logout`. The token is sent so the server can revoke the session
 * (see DECISIONS-frontend.md); the answer is ignored.
 */
export async function endServerSession(token: string | null): Promise<void> {
  await logout(token ? bearer(token) : {});
}

/** Where the browser goes to sign in (full-page redirect, spec section 4). */
export const SIGN_IN_PATH = '/api/auth/google';

/** Sign-in path that also asks for spreadsheet access (re-authentication for export). */
export const SHEETS_SIGN_IN_PATH = '/api/auth/google?feature=sheets';
