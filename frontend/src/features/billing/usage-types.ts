/** `GET /api/leads/usage` data (spec section 3, Usage stats). */
export interface UsageStats {
  /**
   * `current`, `limit`, `remaining` and `percentage` count searches (openapi.json
   * UsageNumbers); `leadsThisMonth` counts the leads those searches delivered.
   */
  usage: {
    current: number;
    limit?: number | null;
    remaining: number;
    percentage: number;
    leadsThisMonth?: number;
    leadsToday?: number;
    dailyLeadLimit?: number | null;
  };
  period: { resetDate: string; daysUntilReset: number };
  apiKey: { configured: boolean; lastUpdated?: string | null };
  tier: { current: string; name: string };
  status: { isOverLimit: boolean; isNearLimit: boolean; isApproachingLimit: boolean };
  recommendations: string[];
}

/** Default monthly limit when the server gives none (spec section 9). */
export const DEFAULT_MONTHLY_LIMIT = 10000;

export type UsageLevel = 'ok' | 'approaching' | 'near' | 'over';

/** The most severe warning level the server's flags call for. */
export function usageLevel(status: UsageStats['status']): UsageLevel {
  if (status.isOverLimit) return 'over';
  if (status.isNearLimit) return 'near';
  if (status.isApproachingLimit) return 'approaching';
  return 'ok';
}

/** Progress-bar width in percent: never below 0 or above 100. */
export function usageBarWidth(percentage: number): number {
  if (!Number.isFinite(percentage) || percentage < 0) return 0;
  return Math.min(100, percentage);
}

/** Free tier versus any other (paid) tier. */
export function isFreeTier(tier: UsageStats['tier']): boolean {
  return tier.current === 'free';
}
