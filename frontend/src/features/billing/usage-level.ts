import type { UsageLevel } from '../../api/gen/model/usageLevel';
import type { UsageTier } from '../../api/gen/model/usageTier';

// How the usage card reads the server's usage stats (generated types in api/gen/model).

/** Default monthly limit when the server gives none (spec section 9; older servers). */
export const DEFAULT_MONTHLY_LIMIT = 10000;

/** The one warning the card shows: the most severe of the server's flags. */
export type UsageWarning = 'ok' | 'approaching' | 'near' | 'over';

/** The most severe warning level the server's flags call for. */
export function usageWarning(status: UsageLevel): UsageWarning {
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
export function isFreeTier(tier: UsageTier): boolean {
  return tier.current === 'free';
}
