import type { SessionState, SessionUser } from './session-types';

/** Session transitions of spec section 4, as a pure reducer. */
export type SessionAction =
  | { type: 'LOGIN_START' }
  | { type: 'LOGIN_SUCCESS'; user: SessionUser; token: string }
  | { type: 'LOGIN_ERROR'; error: string }
  | { type: 'LOGOUT' }
  | { type: 'REFRESH_SUCCESS'; user: SessionUser; token: string }
  | { type: 'CLEAR_ERROR' }
  | { type: 'SET_LOADING'; isLoading: boolean };

export const initialSessionState: SessionState = {
  user: null,
  token: null,
  isAuthenticated: false,
  isLoading: true,
  error: null,
};

export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'LOGIN_START':
      return { ...state, isLoading: true, error: null };
    case 'LOGIN_SUCCESS':
      return {
        user: action.user,
        token: action.token,
        isAuthenticated: true,
        isLoading: false,
        error: null,
      };
    case 'LOGIN_ERROR':
      return {
        user: null,
        token: null,
        isAuthenticated: false,
        isLoading: false,
        error: action.error,
      };
    case 'LOGOUT':
      return { user: null, token: null, isAuthenticated: false, isLoading: false, error: null };
    case 'REFRESH_SUCCESS':
      return { ...state, user: action.user, token: action.token, error: null };
    case 'CLEAR_ERROR':
      return { ...state, error: null };
    case 'SET_LOADING':
      return { ...state, isLoading: action.isLoading };
  }
}
