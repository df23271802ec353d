import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { downloadLeadsCsv } from '../../lib/csv';
import type { Lead, SearchQuery } from '../../lib/lead';

/** Export controls for a finished search: Google Sheets and CSV (spec section 4, Export). */
export function ExportActions({ results, search }: { results: Lead[]; search: SearchQuery }) {
  const [sheetsOpen, setSheetsOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setSheetsOpen(true)}>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={2}>
          <rect x="4" y="3" width="16" height="18" rx="2" />
          <path d="M4 9h16M4 15h16M10 3v18" />
        </svg>
        Export to Sheets
      </Button>
      <Button onClick={() => downloadLeadsCsv(results, search.businessType)}>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={2}>
          <path strokeLinecap="round" strokeLinejoin="round" d="M12 4v12m0 0-4-4m4 4 4-4M4 20h16" />
        </svg>
        Download CSV
      </Button>
      {/* FIXME(issue 5, Export to Google Sheets): the real flow (auth check, sheet picker,
          export call) needs the backend's sheets endpoints, which that issue adds; until
          then this dialog explains it and offers CSV. */}
      <Modal open={sheetsOpen} onClose={() => setSheetsOpen(false)} title="Export to Google Sheets">
        <p className="text-sm text-slate-600">
          Google Sheets export is being switched on for your workspace. In the meantime, download your{' '}
          {results.length} leads as CSV: it opens directly in Google Sheets (File → Import).
        </p>
        <div className="mt-6 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setSheetsOpen(false)}>
            Close
          </Button>
          <Button
            onClick={() => {
              downloadLeadsCsv(results, search.businessType);
              setSheetsOpen(false);
            }}
          >
            Download CSV
          </Button>
        </div>
      </Modal>
    </>
  );
}
