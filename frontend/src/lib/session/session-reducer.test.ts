import { describe, expect, it } from 'vitest';
import { testUser } from '../../test/fake-auth';
import { initialSessionState, sessionReducer } from './session-reducer';
import type { SessionState } from './session-types';

const signedIn: SessionState = { user: testUser, token: 'a.b.c', isAuthenticated: true, isLoading: false, error: null };

describe('sessionReducer', () => {
  it('starts loading and signed out', () => {
    expect(initialSessionState).toEqual({ user: null, token: null, isAuthenticated: false, isLoading: true, error: null });
  });

  it('LOGIN_START sets loading and clears the error, keeping the rest', () => {
    const state = sessionReducer({ ...signedIn, error: 'old' }, { type: 'LOGIN_START' });
    expect(state).toEqual({ ...signedIn, isLoading: true, error: null });
  });

  it('LOGIN_SUCCESS stores user and token and authenticates', () => {
    const state = sessionReducer({ ...initialSessionState, error: 'x' }, { type: 'LOGIN_SUCCESS', user: testUser, token: 't.o.k' });
    expect(state).toEqual({ user: testUser, token: 't.o.k', isAuthenticated: true, isLoading: false, error: null });
  });

  it('LOGIN_ERROR clears user and token and records the message', () => {
    const state = sessionReducer(signedIn, { type: 'LOGIN_ERROR', error: 'Authentication failed' });
    expect(state).toEqual({ user: null, token: null, isAuthenticated: false, isLoading: false, error: 'Authentication failed' });
  });

  it('LOGOUT clears everything and stops loading', () => {
    const state = sessionReducer({ ...signedIn, isLoading: true, error: 'e' }, { type: 'LOGOUT' });
    expect(state).toEqual({ user: null, token: null, isAuthenticated: false, isLoading: false, error: null });
  });

  it('REFRESH_SUCCESS replaces user and token and clears the error', () => {
    const other = { ...testUser, name: 'Grace Hopper' };
    const state = sessionReducer({ ...signedIn, error: 'e' }, { type: 'REFRESH_SUCCESS', user: other, token: 'n.e.w' });
    expect(state).toEqual({ ...signedIn, user: other, token: 'n.e.w', error: null });
  });

  it('CLEAR_ERROR and SET_LOADING change only their field', () => {
    expect(sessionReducer({ ...signedIn, error: 'e' }, { type: 'CLEAR_ERROR' })).toEqual(signedIn);
    expect(sessionReducer(signedIn, { type: 'SET_LOADING', isLoading: true })).toEqual({ ...signedIn, isLoading: true });
  });
});
