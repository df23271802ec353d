import { Card } from '../../components/ui/card';

/** Settings > Webhooks: placeholder (spec section 2). */
export function WebhooksTab() {
  return (
    <Card className="text-center">
      <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-700">
        <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className="size-6">
          <path strokeLinecap="round" strokeLinejoin="round" d="M13.83 10.17a4 4 0 0 0-5.66 0l-4 4a4 4 0 1 0 5.66 5.66l1.1-1.1m-.76-4.9a4 4 0 0 0 5.66 0l4-4a4 4 0 0 0-5.66-5.66l-1.1 1.1" />
        </svg>
      </span>
      <h2 className="mt-4 text-lg font-semibold text-slate-900">Webhooks are coming soon</h2>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
        Send every new lead to your CRM or automation tool the moment it is found.
      </p>
    </Card>
  );
}
