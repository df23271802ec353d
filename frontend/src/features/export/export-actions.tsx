import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ReauthDialog } from '../../components/reauth-dialog';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { downloadLeadsCsv } from '../../lib/csv';
import { isEnriched, type Lead, type SearchQuery } from '../../lib/lead';
import { stashResults } from '../../lib/return-to';
import { downloadServerExport } from '../../lib/server-export';
import { checkSheetsAuth, reauthMessage, sheetsConnection, startSheetsReauth } from '../../lib/sheets-auth';
import { ExportDialog, UnavailableNotice } from './export-dialog';
import type { ExportOutcome } from './export-outcome';

type View =
  | { kind: 'none' }
  | { kind: 'dialog' }
  | { kind: 'reauth'; message: string }
  | { kind: 'unavailable'; message: string };

export interface ExportActionsProps {
  results: Lead[];
  search: SearchQuery;
  /** How a Sheets export ended; the page shows the banner (it outlives the results). */
  onOutcome: (outcome: ExportOutcome) => void;
  /**
   * The finished search these results are, when known: files then come from the server's
   * export (`export_search`, issue #29), which also offers XLSX and JSON. Absent (results
   * brought back after a re-authentication), the CSV is made in the browser.
   */
  searchId?: string | null;
}

/**
 * The Sheets export flow for a set of results: `openExport` first checks the Google grant;
 * not granted (or expired) opens the re-authentication dialog, granted opens the export
 * dialog. `dialogs` is what to render for it. Used by the results panel and by history
 * rows (whose results are read back from the server's short-lived buffer first).
 */
export function useSheetsExport({ results, search, onOutcome }: ExportActionsProps) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>({ kind: 'none' });
  const [checking, setChecking] = useState(false);
  const close = () => setView({ kind: 'none' });
  const downloadCsv = () => downloadLeadsCsv(results, search, { enriched: isEnriched(search) });
  // The results come back with the user after the identity provider (lib/return-to).
  const keepResults = () => stashResults({ results, search });

  async function openExport() {
    if (checking) return;
    setChecking(true);
    try {
      const status = await checkSheetsAuth(queryClient);
      const connection = sheetsConnection(status);
      if (connection === 'connected') setView({ kind: 'dialog' });
      else if (connection === 'unavailable') setView({ kind: 'unavailable', message: status.message });
      else setView({ kind: 'reauth', message: reauthMessage(status.message, status.hasRefreshToken) });
    } finally {
      setChecking(false);
    }
  }

  const dialogs = (
    <>
      {view.kind === 'dialog' && (
        <ExportDialog
          results={results}
          search={search}
          onClose={close}
          onExported={(answer) => {
            close();
            onOutcome({ kind: 'success', message: answer.message, sheetUrl: answer.sheetUrl });
          }}
          onFailed={(message) => {
            close();
            onOutcome({ kind: 'error', message });
          }}
          onNeedsReauth={(message) => setView({ kind: 'reauth', message })}
          onReauthenticate={() => {
            keepResults();
            startSheetsReauth();
          }}
          onDownloadCsv={downloadCsv}
        />
      )}

      <ReauthDialog
        open={view.kind === 'reauth'}
        onClose={close}
        message={view.kind === 'reauth' ? view.message : undefined}
        onBeforeLeave={keepResults}
      />

      <Modal open={view.kind === 'unavailable'} onClose={close} title="Export to Google Sheets">
        <UnavailableNotice message={view.kind === 'unavailable' ? view.message : ''} onDownloadCsv={() => {
          downloadCsv();
          close();
        }} />
        <div className="mt-6 flex justify-end">
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
        </div>
      </Modal>
    </>
  );

  return { openExport, checking, downloadCsv, dialogs };
}

/** The Sheets icon of the export buttons. */
export function SheetsIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={2}>
      <rect x="4" y="3" width="16" height="18" rx="2" />
      <path d="M4 9h16M4 15h16M10 3v18" />
    </svg>
  );
}

/** The download icon of the file buttons. */
function DownloadIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={2}>
      <path strokeLinecap="round" strokeLinejoin="round" d="M12 4v12m0 0-4-4m4 4 4-4M4 20h16" />
    </svg>
  );
}

/**
 * Export controls for a finished search: Google Sheets and CSV (spec section 4, Export),
 * and with a search id XLSX and JSON from the server. The CSV comes from the server too
 * when it can; the results are on screen, so when the server cannot answer (results gone,
 * 404/410, or any failure) the browser makes the same file from them.
 */
export function ExportActions(props: ExportActionsProps) {
  const { openExport, checking, downloadCsv, dialogs } = useSheetsExport(props);
  const { searchId, onOutcome } = props;
  const [fetching, setFetching] = useState<'csv' | 'xlsx' | 'json' | null>(null);

  async function downloadFile(format: 'csv' | 'xlsx' | 'json') {
    if (!searchId) {
      downloadCsv();
      return;
    }
    setFetching(format);
    try {
      await downloadServerExport(searchId, format);
    } catch (error) {
      if (format === 'csv') downloadCsv();
      else onOutcome({ kind: 'error', message: error instanceof Error && error.message ? error.message : 'Could not export the results.' });
    } finally {
      setFetching(null);
    }
  }

  return (
    <>
      <Button variant="secondary" onClick={() => void openExport()} disabled={checking} aria-busy={checking || undefined}>
        {checking ? <Spinner /> : <SheetsIcon />}
        Export to Sheets
      </Button>
      <Button onClick={() => void downloadFile('csv')} disabled={fetching !== null} aria-busy={fetching === 'csv' || undefined}>
        {fetching === 'csv' ? <Spinner /> : <DownloadIcon />}
        Download CSV
      </Button>
      {searchId &&
        (['xlsx', 'json'] as const).map((format) => (
          <Button
            key={format}
            variant="secondary"
            onClick={() => void downloadFile(format)}
            disabled={fetching !== null}
            aria-busy={fetching === format || undefined}
          >
            {fetching === format ? <Spinner /> : <DownloadIcon />}
            {format === 'xlsx' ? 'Download Excel' : 'Download JSON'}
          </Button>
        ))}
      {dialogs}
    </>
  );
}
