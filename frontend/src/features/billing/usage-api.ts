import { apiFetch, callWithDefault } from '../../lib/api-fetch';
import type { UsageAnswer, UsageStats } from './usage-types';

// The usage calls of the billing feature in one place.

export const usageQueryKey = ['/api/leads/usage'] as const;

/** `GET /api/leads/usage`; default message 'Failed to get usage stats'. */
export async function fetchUsage(): Promise<UsageStats> {
  const answer = await callWithDefault(
    () => apiFetch<UsageAnswer>('/api/leads/usage', { method: 'GET' }),
    'Failed to get usage stats',
  );
  return answer.data;
}
