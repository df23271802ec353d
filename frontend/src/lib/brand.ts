/** Product-wide facts shown in several places. */
export const SUPPORT_EMAIL = 'support@leadgen.app';

/** Pro plan facts (spec section 9). */
export const PRO_PLAN = {
  name: 'Pro',
  monthlyPrice: 29,
  yearlyPrice: 99,
  yearlyMonthlyEquivalent: '8.25',
  yearlySaving: 249,
  searchesPerMonth: '10,000',
} as const;

/** Optional demo/tutorial video; when unset the player shows a placeholder. */
export const DEMO_VIDEO_URL = import.meta.env.VITE_DEMO_VIDEO_URL as string | undefined;
