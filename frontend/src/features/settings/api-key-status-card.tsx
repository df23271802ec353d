import { Link } from '@tanstack/react-router';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';

/** Dashboard card: whether a places key is configured (spec section 2). */
export function ApiKeyStatusCard({ configured, loading, preview }: { configured: boolean; loading?: boolean; preview?: string | null }) {
  return (
    <Card className="flex flex-col">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">API Configuration</h2>
        <span className="flex size-9 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700">
          <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className="size-5">
            <path strokeLinecap="round" strokeLinejoin="round" d="M15 7a2 2 0 0 1 2 2m4 0a6 6 0 0 1-7.74 5.74L11 17H9v2H7v2H4a1 1 0 0 1-1-1v-2.59a1 1 0 0 1 .29-.7l5.97-5.97A6 6 0 1 1 21 9z" />
          </svg>
        </span>
      </div>
      <div className="mt-4 flex-1">
        {loading ? (
          <div className="h-6 w-40 animate-pulse rounded bg-slate-100" role="status" aria-label="Loading API key status" />
        ) : configured ? (
          <>
            <Badge tone="green">Configured &amp; Ready</Badge>
            {preview && <p className="mt-2 font-mono text-xs text-slate-500">{preview}</p>}
          </>
        ) : (
          <>
            <Badge tone="red">Not Configured</Badge>
            <p className="mt-2 text-sm text-slate-600">Add your Google Places API key to start searching.</p>
          </>
        )}
      </div>
      <div className="mt-5 border-t border-slate-100 pt-4">
        <Link to="/settings" className="text-sm font-semibold text-indigo-700 hover:text-indigo-600">
          Manage Settings →
        </Link>
      </div>
    </Card>
  );
}

/** Yellow notice shown when no key is configured, linking to settings. */
export function ApiKeyRequiredNotice() {
  return (
    <div role="status" className="flex flex-col gap-3 rounded-xl border border-yellow-200 bg-yellow-50 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex gap-3">
        <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} className="mt-0.5 size-5 shrink-0 text-yellow-700">
          <path strokeLinecap="round" strokeLinejoin="round" d="M12 9v4m0 4h.01M10.29 3.86 1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.71 3.86a2 2 0 0 0-3.42 0z" />
        </svg>
        <div className="text-sm text-yellow-900">
          <p className="font-semibold">API Key Required</p>
          <p className="mt-0.5">Add your Google Places API key in Settings before you can search for leads.</p>
        </div>
      </div>
      <Link to="/settings" className="shrink-0 rounded-lg bg-yellow-400 px-4 py-2 text-center text-sm font-semibold text-yellow-950 hover:bg-yellow-300">
        Go to Settings
      </Link>
    </div>
  );
}
