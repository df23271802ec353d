import { createFileRoute } from '@tanstack/react-router';
import { BillingCancelPage } from '../../../features/billing/billing-cancel-page';

export const Route = createFileRoute('/_authed/billing/cancel')({
  component: BillingCancelPage,
});
