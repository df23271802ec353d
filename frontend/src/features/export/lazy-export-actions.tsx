import { lazy, Suspense } from 'react';
import type { SearchItem } from '../../api/gen/model/searchItem';
import { optionsEnriched } from '../../lib/lead';

// The export buttons and dialogs load in chunks of their own, fetched when a search
// starts, so the dashboard's first screen downloads and parses less (Lighthouse's
// performance budget).
const loadExportActions = () => import('./export-actions');

/** Starts fetching the results panel's export buttons (called as a search starts). */
export function preloadExportActions(): void {
  loadExportActions().catch(() => undefined);
}

/**
 * The results panel's "Export to Sheets" and "Download CSV". No Suspense boundary of its
 * own: it suspends with the results panel around it, so the panel appears whole.
 */
export const LazyExportActions = lazy(() => loadExportActions().then((m) => ({ default: m.ExportActions })));

const ReplayedExportActions = lazy(() => import('./replayed-export-actions').then((m) => ({ default: m.ReplayedExportActions })));

/** The exports of a history row whose results are no longer on the page. */
export function HistoryExportActions({ item, what }: { item: SearchItem; what: string }) {
  return (
    <Suspense fallback={null}>
      <ReplayedExportActions
        search={{ businessType: item.businessType, location: item.location, enrich: optionsEnriched(item.options) }}
        what={what}
        searchId={item.id}
      />
    </Suspense>
  );
}
