import { lazy, Suspense, useState } from 'react';
import { Button } from '../../components/ui/button';
import type { SearchQuery } from '../../lib/lead';

const SaveMonitorDialog = lazy(() => import('./save-monitor-dialog').then((m) => ({ default: m.SaveMonitorDialog })));

/**
 * "Save as monitor" under the search form (issue #29 item 7); the dialog's code loads
 * when it is opened. Disabled until the form holds a complete search.
 */
export function SaveAsMonitorButton({ query, typeLabel, disabled }: { query: SearchQuery | null; typeLabel?: string; disabled?: boolean }) {
  const [open, setOpen] = useState<SearchQuery | null>(null);
  return (
    <>
      <Button variant="secondary" size="sm" disabled={disabled || query === null} onClick={() => query && setOpen(query)}>
        Save as monitor
      </Button>
      {open && (
        <Suspense fallback={null}>
          <SaveMonitorDialog query={open} typeLabel={typeLabel} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </>
  );
}
