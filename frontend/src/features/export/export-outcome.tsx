import { useCallback, useEffect, useRef, useState } from 'react';
import { Banner } from '../../components/ui/banner';
import { Button, buttonClasses } from '../../components/ui/button';

/** How an export ended, for the banner above the results (spec section 4, Export). */
export type ExportOutcome = { kind: 'success'; message: string; sheetUrl: string } | { kind: 'error'; message: string };

/** After a successful export the results clear after this long (spec section 9). */
export const RESULTS_CLEAR_MS = 3000;

/**
 * Holds the export banner and clears the search results {@link RESULTS_CLEAR_MS} after
 * a success. The banner itself stays until dismissed (or a new search), so its 'View in
 * Google Sheets' link outlives the results.
 */
export function useExportOutcome({ onResultsExpired }: { onResultsExpired: () => void }) {
  const [outcome, setOutcome] = useState<ExportOutcome | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const expire = useRef(onResultsExpired);
  useEffect(() => {
    expire.current = onResultsExpired;
  }, [onResultsExpired]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const report = useCallback((next: ExportOutcome) => {
    setOutcome(next);
    window.clearTimeout(timer.current);
    if (next.kind === 'success') timer.current = window.setTimeout(() => expire.current(), RESULTS_CLEAR_MS);
  }, []);
  const dismiss = useCallback(() => setOutcome(null), []);
  /** A new search: no banner, and the pending clear must not hit the new results. */
  const reset = useCallback(() => {
    window.clearTimeout(timer.current);
    setOutcome(null);
  }, []);

  return { outcome, report, dismiss, reset };
}

export interface ExportOutcomeBannerProps {
  outcome: ExportOutcome;
  onDismiss: () => void;
  /** Offered on failure while the results are still there. */
  onDownloadCsv?: () => void;
}

/** Green with the server's message and 'View in Google Sheets', or red with the CSV backup. */
export function ExportOutcomeBanner({ outcome, onDismiss, onDownloadCsv }: ExportOutcomeBannerProps) {
  if (outcome.kind === 'success') {
    return (
      <Banner
        tone="success"
        title={outcome.message}
        onDismiss={onDismiss}
        actions={
          <a href={outcome.sheetUrl} target="_blank" rel="noopener noreferrer" className={buttonClasses('secondary', 'sm')}>
            View in Google Sheets
            <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
              <path d="M11 3a1 1 0 1 0 0 2h2.59l-6.3 6.3a1 1 0 1 0 1.42 1.4L15 6.42V9a1 1 0 1 0 2 0V4a1 1 0 0 0-1-1h-5z" />
              <path d="M5 5a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2v-3a1 1 0 1 0-2 0v3H5V7h3a1 1 0 0 0 0-2H5z" />
            </svg>
          </a>
        }
      />
    );
  }
  return (
    <Banner
      tone="error"
      title="Google Sheets export failed"
      onDismiss={onDismiss}
      actions={
        onDownloadCsv && (
          <Button size="sm" variant="secondary" onClick={onDownloadCsv}>
            Download CSV
          </Button>
        )
      }
    >
      <p>{outcome.message}</p>
      <p className="mt-1">Your leads are not lost: download them as CSV as a backup.</p>
    </Banner>
  );
}
