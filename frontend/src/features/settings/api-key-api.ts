import { apiFetch, callWithDefault } from '../../lib/api-fetch';

// The settings feature's calls in one place.

/** `GET /api/user/api-key/status` (spec section 3, API key status). */
export interface ApiKeyStatus {
  has_key: boolean;
  key_preview: string | null;
  is_valid: boolean | null;
}

export const apiKeyStatusQueryKey = ['/api/user/api-key/status'] as const;

export async function fetchApiKeyStatus(): Promise<ApiKeyStatus> {
  const answer = await callWithDefault(
    () => apiFetch<{ api_key_status: ApiKeyStatus }>('/api/user/api-key/status', { method: 'GET' }),
    'Failed to load API key status',
  );
  return answer.api_key_status;
}

/** `POST /api/user/api-key` with the trimmed key. */
export function saveApiKey(apiKey: string): Promise<{ message: string }> {
  return callWithDefault(
    () => apiFetch<{ message: string }>('/api/user/api-key', { method: 'POST', body: JSON.stringify({ api_key: apiKey }) }),
    'Failed to save API key',
  );
}

/** `POST /api/user/api-key` with an empty key, which deletes it. */
export function deleteApiKey(): Promise<{ message: string }> {
  return callWithDefault(
    () => apiFetch<{ message: string }>('/api/user/api-key', { method: 'POST', body: JSON.stringify({ api_key: '' }) }),
    'Failed to delete API key',
  );
}

/** `POST /api/leads/test-api-key`. */
export function testApiKey(): Promise<{ message: string; valid: boolean }> {
  return callWithDefault(
    () => apiFetch<{ message: string; valid: boolean }>('/api/leads/test-api-key', { method: 'POST' }),
    'API key test failed',
  );
}

/** `GET /api/leads/sheets/auth-status` (spec section 3, Sheets auth status). */
export interface SheetsAuthStatus {
  success: boolean;
  authenticated: boolean;
  hasRefreshToken: boolean;
  needsReauth: boolean;
  message: string;
}

export const sheetsAuthStatusQueryKey = ['/api/leads/sheets/auth-status'] as const;

/** A failed check counts as unauthenticated with needsReauth (spec section 4). */
export async function fetchSheetsAuthStatus(): Promise<SheetsAuthStatus> {
  try {
    return await apiFetch<SheetsAuthStatus>('/api/leads/sheets/auth-status', { method: 'GET' });
  } catch {
    return {
      success: false,
      authenticated: false,
      hasRefreshToken: false,
      needsReauth: true,
      message: 'Failed to check authentication status',
    };
  }
}
