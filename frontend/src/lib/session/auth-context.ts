import { createContext, useContext } from 'react';
import type { AuthContextValue } from './session-types';

export const AuthContext = createContext<AuthContextValue | null>(null);

/** The session; throws when used outside {@link AuthProvider} (spec section 8). */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
  return value;
}
