import { apiFetch, callWithDefault } from '../../lib/api-fetch';

// The onboarding feature's calls in one place.

/** Stores the key (`POST /api/user/api-key`). */
export function saveOnboardingKey(apiKey: string): Promise<{ message: string }> {
  return callWithDefault(
    () => apiFetch<{ message: string }>('/api/user/api-key', { method: 'POST', body: JSON.stringify({ api_key: apiKey }) }),
    'Failed to validate API key',
  );
}

/** `POST /api/user/complete-onboarding`. */
export function completeOnboarding(): Promise<{ success: boolean; message: string }> {
  return callWithDefault(
    () => apiFetch<{ success: boolean; message: string }>('/api/user/complete-onboarding', { method: 'POST' }),
    'Failed to complete onboarding',
  );
}
