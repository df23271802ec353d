import { createFileRoute } from '@tanstack/react-router';
import { BillingSuccessPage } from '../../../features/billing/billing-success-page';

export const Route = createFileRoute('/_authed/billing/success')({
  // The checkout session id is accepted (spec: read but unused).
  validateSearch: (search: Record<string, unknown>): { session_id?: string } =>
    typeof search.session_id === 'string' ? { session_id: search.session_id } : {},
  component: BillingSuccessPage,
});
