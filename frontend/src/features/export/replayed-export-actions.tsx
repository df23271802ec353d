import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { downloadLeadsCsv } from '../../lib/csv';
import { isEnriched, type Lead, type SearchQuery } from '../../lib/lead';
import { collectSearchLeads } from '../../lib/search-replay';
import { downloadServerExport, resultsNotHeld } from '../../lib/server-export';
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

type FileFormat = 'csv' | 'xlsx' | 'json';

/**
 * "Export to Sheets" and the file downloads for a finished search whose results are no
 * longer on the page (a history row, issue #13). Files come from the server's export
 * (CSV, XLSX, JSON; issue #29) while it holds the results; a CSV of results already read
 * back here is made in the browser when the server no longer has them. Sheets reads the
 * results back once, on the first click; the Sheets flow is the results panel's.
 */
export function ReplayedExportActions({ search, what, searchId }: ReplayedExportActionsProps) {
  const [results, setResults] = useState<Lead[] | null>(null);
  const [reading, setReading] = useState<FileFormat | 'sheets' | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ExportOutcome | null>(null);
  const sheets = useSheetsExport({ results: results ?? [], search, onOutcome: setOutcome });

  async function download(format: FileFormat) {
    setReading(format);
    setReadError(null);
    try {
      await downloadServerExport(searchId, format);
    } catch (error) {
      if (format === 'csv' && results && resultsNotHeld(error)) {
        downloadLeadsCsv(results, search, { enriched: isEnriched(search) });
      } else {
        setReadError(error instanceof Error && error.message ? error.message : 'Could not export the results');
      }
    } finally {
      setReading(null);
    }
  }

  async function withResults(purpose: 'sheets', use: (leads: Lead[]) => void) {
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
      {(['csv', 'xlsx', 'json'] as const).map((format) => (
        <Button
          key={format}
          variant="secondary"
          size="sm"
          disabled={reading !== null}
          onClick={() => void download(format)}
          aria-label={`Download ${format.toUpperCase()} of ${what}`}
        >
          {reading === format && <Spinner />}
          Download {format.toUpperCase()}
        </Button>
      ))}
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
