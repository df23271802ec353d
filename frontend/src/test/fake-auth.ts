import { vi } from 'vitest';
import type { AuthContextValue, SessionUser } from '../lib/session/session-types';

export const testUser: SessionUser = {
  id: 'u1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  needsOnboarding: false,
  isFirstLogin: false,
};

/** A signed-in auth context value with spy actions. */
export function fakeAuth(overrides: Partial<AuthContextValue> = {}): AuthContextValue {
  return {
    user: testUser,
    token: 'a.b.c',
    isAuthenticated: true,
    isLoading: false,
    error: null,
    login: vi.fn(),
    logout: vi.fn(async () => {}),
    refresh: vi.fn(async () => {}),
    reloadUser: vi.fn(async () => {}),
    clearError: vi.fn(),
    setLoading: vi.fn(),
    ...overrides,
  };
}
