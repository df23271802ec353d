import { getListPlansQueryKey, listPlans } from '../../api/gen/billing/billing';
import type { Plan } from '../../api/gen/model/plan';
import { callWithDefault } from '../../lib/api-fetch';

export type { Plan };

export const plansQueryKey = getListPlansQueryKey();

/** Default text of a failed plans read (spec section 8). */
export const FETCH_PLANS_FAILED = 'Failed to fetch plans';

/** `GET /api/billing/plans` (public): Pro monthly and yearly, and whether Checkout can start. */
export async function fetchPlans(): Promise<Plan[]> {
  const answer = await callWithDefault(() => listPlans(), FETCH_PLANS_FAILED);
  return answer.data.plans;
}
