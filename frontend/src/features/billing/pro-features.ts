import { PRO_PLAN } from '../../lib/brand';

/** What Pro includes, as the settings and billing pages put it (spec sections 1 and 9). */
export const PRO_FEATURES = [
  `${PRO_PLAN.searchesPerMonth} searches per month`,
  'Google Sheets integration',
  'Advanced search filters',
  'Priority support',
] as const;
