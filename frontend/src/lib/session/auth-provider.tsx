import { useCallback, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react';
import { ApiError } from '../api-fetch';
import { getStoredToken, removeStoredToken, storeToken } from '../auth-token';
import { forgetReturnState } from '../return-to';
import { AuthContext } from './auth-context';
import {
  endServerSession,
  fetchCurrentUser,
  refreshSessionToken,
  SIGN_IN_PATH,
} from './session-api';
import { initialSessionState, sessionReducer } from './session-reducer';
import type { AuthContextValue } from './session-types';

export interface AuthProviderProps {
  children: ReactNode;
  /**
   * A token taken from the address bar before the app rendered (already
   * shape-checked by `takeTokenFromUrl`), or null.
   */
  urlToken?: string | null;
  /** Page navigation for sign-in; injectable for tests. */
  redirect?: (url: string) => void;
}

function messageOf(error: unknown): string | undefined {
  return error instanceof Error && error.message ? error.message : undefined;
}

const defaultRedirect = (url: string) => {
  window.location.href = url;
};

/** Holds the session (spec sections 4, 5 and 8) and restores it on start. */
export function AuthProvider({ children, urlToken = null, redirect = defaultRedirect }: AuthProviderProps) {
  const [state, dispatch] = useReducer(sessionReducer, initialSessionState);
  const tokenRef = useRef<string | null>(null);
  tokenRef.current = state.token;

  useEffect(() => {
    let cancelled = false;

    async function start() {
      if (urlToken) {
        dispatch({ type: 'LOGIN_START' });
        try {
          const user = await fetchCurrentUser(urlToken);
          if (cancelled) return;
          storeToken(urlToken);
          dispatch({ type: 'LOGIN_SUCCESS', user, token: urlToken });
        } catch (error) {
          if (cancelled) return;
          removeStoredToken();
          dispatch({ type: 'LOGIN_ERROR', error: messageOf(error) ?? 'Authentication failed' });
        }
        return;
      }

      const stored = getStoredToken();
      if (!stored) {
        dispatch({ type: 'SET_LOADING', isLoading: false });
        return;
      }
      try {
        const user = await fetchCurrentUser(stored);
        if (cancelled) return;
        dispatch({ type: 'LOGIN_SUCCESS', user, token: stored });
      } catch (error) {
        if (cancelled) return;
        // Only the server's refusal ends the stored session. A check that never got an
        // answer (the page was left while it loaded, the network dropped) keeps the token
        // for the next load: dropping it signed out anyone who moved between pages quickly.
        if (isRefusal(error)) removeStoredToken();
        dispatch({ type: 'SET_LOADING', isLoading: false });
      }
    }

    void start();
    return () => {
      cancelled = true;
    };
  }, [urlToken]);

  const login = useCallback(() => {
    dispatch({ type: 'LOGIN_START' });
    redirect(SIGN_IN_PATH);
  }, [redirect]);

  const logout = useCallback(async () => {
    try {
      await endServerSession(tokenRef.current ?? getStoredToken());
    } catch (error) {
      // Spec section 8: a failed logout call is only logged; the session ends anyway.
      console.warn('Logout request failed; clearing the local session anyway.', error);
    }
    removeStoredToken();
    forgetReturnState();
    dispatch({ type: 'LOGOUT' });
  }, []);

  const refresh = useCallback(async () => {
    try {
      const token = tokenRef.current;
      if (!token) throw new Error('No token to refresh');
      const answer = await refreshSessionToken(token);
      storeToken(answer.token);
      dispatch({ type: 'REFRESH_SUCCESS', user: answer.user, token: answer.token });
    } catch (error) {
      removeStoredToken();
      dispatch({ type: 'LOGIN_ERROR', error: messageOf(error) ?? 'Token refresh failed' });
      dispatch({ type: 'LOGOUT' });
      throw error;
    }
  }, []);

  const reloadUser = useCallback(async () => {
    const token = tokenRef.current;
    if (!token) return;
    const user = await fetchCurrentUser(token);
    dispatch({ type: 'REFRESH_SUCCESS', user, token });
  }, []);

  const clearError = useCallback(() => dispatch({ type: 'CLEAR_ERROR' }), []);
  const setLoading = useCallback(
    (isLoading: boolean) => dispatch({ type: 'SET_LOADING', isLoading }),
    [],
  );

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, login, logout, refresh, reloadUser, clearError, setLoading }),
    [state, login, logout, refresh, reloadUser, clearError, setLoading],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The server answered that the token is not (or no longer) valid. */
function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || error.status === 403);
}
