import { getUsage } from '../../api/gen/leads/leads';
import { callWithDefault } from '../../lib/api-fetch';
import type { UsageStats } from './usage-types';

// The usage calls of the billing feature in one place.

export const usageQueryKey = ['/api/leads/usage'] as const;

/** `GET /api/leads/usage` through the generated client; default message 'Failed to get usage stats'. */
export async function fetchUsage(): Promise<UsageStats> {
  const answer = await callWithDefault(() => getUsage(), 'Failed to get usage stats');
  return answer.data;
}
