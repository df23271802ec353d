import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { downloadLeadsCsv } from '../../lib/csv';
import { isEnriched, type Lead, type SearchQuery } from '../../lib/lead';
import { collectSearchLeads } from '../../lib/search-replay';
import { SheetsIcon, useSheetsExport } from './export-actions';
import { ExportOutcomeBanner, type ExportOutcome } from './export-outcome';

export interface ReplayedExportActionsProps {
  /** What was searched (the sheet's default name, the CSV's file name, and whether the
   * exports get the contact columns, come from it). */
  search: SearchQuery;
  /** Words naming the search in the buttons' accessible names, e.g. "Cafe in Paris". */
  what: string;
  /** The finished search; its results are read back from the server's short-lived buffer. */
  searchId: string;
}

/**
 * "Export to Sheets" and "Download CSV" for a finished search whose results are no longer
 * on the page (a history row, issue #13). The results are read back from the server once,
 * on the first click, then serve both; the Sheets flow is the results panel's.
 */
export function ReplayedExportActions({ search, what, searchId }: ReplayedExportActionsProps) {
  const [results, setResults] = useState<Lead[] | null>(null);
  const [reading, setReading] = useState<'csv' | 'sheets' | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ExportOutcome | null>(null);
  const sheets = useSheetsExport({ results: results ?? [], search, onOutcome: setOutcome });

  async function withResults(purpose: 'csv' | 'sheets', use: (leads: Lead[]) => void) {
    setReading(purpose);
    setReadError(null);
    try {
      const leads = results ?? (await collectSearchLeads(searchId));
      setResults(leads);
      use(leads);
    } catch (error) {
      setReadError(error instanceof Error && error.message ? error.message : 'Could not read the results');
    } finally {
      setReading(null);
    }
  }

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        disabled={reading !== null || sheets.checking}
        onClick={() => void withResults('sheets', () => void sheets.openExport())}
        aria-label={`Export to Sheets ${what}`}
      >
        {reading === 'sheets' || sheets.checking ? <Spinner /> : <SheetsIcon />}
        Export to Sheets
      </Button>
      <Button
        variant="secondary"
        size="sm"
        disabled={reading !== null}
        onClick={() => void withResults('csv', (leads) => downloadLeadsCsv(leads, search, { enriched: isEnriched(search) }))}
        aria-label={`Download CSV of ${what}`}
      >
        {reading === 'csv' && <Spinner />}
        Download CSV
      </Button>
      {(readError || outcome) && (
        <div className="basis-full">
          {readError && (
            <p role="alert" className="text-sm text-red-700">
              {readError}
            </p>
          )}
          {outcome && <ExportOutcomeBanner outcome={outcome} onDismiss={() => setOutcome(null)} />}
        </div>
      )}
      {sheets.dialogs}
    </>
  );
}
