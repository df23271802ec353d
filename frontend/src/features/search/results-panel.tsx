import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';
import type { Lead } from '../../lib/lead';

export interface ResultsPanelProps {
  results: Lead[];
  typeLabel: string;
  location: string;
  /** Export controls, supplied by the page (the export feature). */
  actions?: ReactNode;
  /** A banner above the table (export outcome). */
  notice?: ReactNode;
}

function websiteHost(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/** The finished search: 'No results found' or the leads with export buttons. */
export function ResultsPanel({ results, typeLabel, location, actions, notice }: ResultsPanelProps) {
  if (results.length === 0) {
    return (
      <Card className="text-center">
        <h2 className="text-lg font-semibold text-slate-900">No results found</h2>
        <p className="mt-1 text-sm text-slate-600">
          No {typeLabel.toLowerCase()} businesses were found in {location}. Try a nearby city or a broader business type.
        </p>
      </Card>
    );
  }

  return (
    <Card padded={false} className="overflow-hidden">
      <div className="flex flex-col gap-4 border-b border-slate-200 p-6 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-700">
            <svg aria-hidden="true" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2.5} className="size-5">
              <path strokeLinecap="round" strokeLinejoin="round" d="M5 13l4 4L19 7" />
            </svg>
          </span>
          <div>
            <h2 className="text-lg font-semibold text-slate-900">
              Found {results.length} {results.length === 1 ? 'lead' : 'leads'}
            </h2>
            <p className="text-sm text-slate-600">
              {typeLabel} in {location}
            </p>
          </div>
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      {notice && <div className="px-6 pt-4">{notice}</div>}

      {/* Phones: one card per lead. */}
      <ul className="divide-y divide-slate-100 md:hidden">
        {results.map((lead) => (
          <li key={lead.placeId} className="px-6 py-4">
            <p className="font-medium text-slate-900">{lead.name}</p>
            <p className="mt-0.5 text-sm text-slate-600">{lead.address}</p>
            <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {lead.phone && (
                <a href={`tel:${lead.phone}`} className="text-indigo-700 hover:underline">
                  {lead.phone}
                </a>
              )}
              {lead.website && (
                <a href={lead.website} target="_blank" rel="noreferrer noopener" className="text-indigo-700 hover:underline">
                  {websiteHost(lead.website)}
                </a>
              )}
              {lead.rating != null && (
                <span className="text-slate-600">
                  ★ {lead.rating.toFixed(1)}
                  {lead.reviewCount != null && ` (${lead.reviewCount})`}
                </span>
              )}
            </div>
          </li>
        ))}
      </ul>

      {/* Wider screens: a table. */}
      <div className="hidden max-h-[36rem] overflow-auto md:block">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Leads found</caption>
          <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-6 py-3">Name</th>
              <th scope="col" className="px-4 py-3">Address</th>
              <th scope="col" className="px-4 py-3">Phone</th>
              <th scope="col" className="px-4 py-3">Website</th>
              <th scope="col" className="px-4 py-3 text-right">Rating</th>
              <th scope="col" className="px-6 py-3 text-right">Reviews</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 bg-white">
            {results.map((lead) => (
              <tr key={lead.placeId} className="hover:bg-slate-50">
                <td className="px-6 py-3 font-medium text-slate-900">{lead.name}</td>
                <td className="px-4 py-3 text-slate-600">{lead.address}</td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                  {lead.phone ? <a href={`tel:${lead.phone}`} className="hover:text-indigo-700 hover:underline">{lead.phone}</a> : <span className="text-slate-400">—</span>}
                </td>
                <td className="max-w-[14rem] truncate px-4 py-3">
                  {lead.website ? (
                    <a href={lead.website} target="_blank" rel="noreferrer noopener" className="text-indigo-700 hover:underline">
                      {websiteHost(lead.website)}
                    </a>
                  ) : (
                    <span className="text-slate-400">—</span>
                  )}
                </td>
                <td className="px-4 py-3 text-right text-slate-700">{lead.rating != null ? lead.rating.toFixed(1) : '—'}</td>
                <td className="px-6 py-3 text-right text-slate-700">{lead.reviewCount ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
