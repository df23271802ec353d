import type { UserInfo } from '../../api/gen/model/userInfo';

/** The signed-in user as `GET /api/auth/me` returns it (spec section 3). */
export type SessionUser = UserInfo;

/** Session state (spec section 3): loading at start, nobody signed in. */
export interface SessionState {
  user: SessionUser | null;
  token: string | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  error: string | null;
}

/** What the app can do with the session; exposed by `useAuth`. */
export interface AuthContextValue extends SessionState {
  /** Full-page redirect to the identity provider sign-in. */
  login: () => void;
  /** Calls the server (failure only logged), then always clears token and state. */
  logout: () => Promise<void>;
  /** Exchanges the current token for a fresh one; rethrows on failure. */
  refresh: () => Promise<void>;
  /** Re-reads the user (e.g. after onboarding) without changing the token. */
  reloadUser: () => Promise<void>;
  clearError: () => void;
  setLoading: (isLoading: boolean) => void;
}
