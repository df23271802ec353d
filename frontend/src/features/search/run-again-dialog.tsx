import { useEffect, useRef } from 'react';
import { useEstimateSearch } from '../../api/gen/leads/leads';
import { Coverage } from '../../api/gen/model/coverage';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import type { SearchQuery } from '../../lib/lead';
import { formatUsd } from '../../lib/money';
import { estimateText } from './search-format';
import { searchFilterLabels } from './search-options';

export interface RunAgainDialogProps {
  /** The search to run again, as a history entry made it. */
  query: SearchQuery;
  typeLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * "Run again" asks first, with what the search would cost now (issue #26 item 2): the
 * estimate (`POST /api/leads/estimate`) starts as the dialog opens. It costs nothing on
 * a quick search; a full one may spend one locate request, cached from the first run.
 * The search starts only on "Run search", once the estimate answered or failed.
 */
export function RunAgainDialog({ query, typeLabel, onConfirm, onCancel }: RunAgainDialogProps) {
  const estimate = useEstimateSearch();
  const { mutate } = estimate;
  // Once per search shown (React's development double effects would ask twice).
  const asked = useRef<SearchQuery | null>(null);
  useEffect(() => {
    if (asked.current === query) return;
    asked.current = query;
    mutate({ data: query });
  }, [mutate, query]);
  const filters = searchFilterLabels(query);
  const full = query.coverage === Coverage.full;

  return (
    <Modal open onClose={onCancel} title="Run this search again?">
      <p className="text-sm text-slate-700">
        <span className="font-medium text-slate-900">
          {typeLabel} in {query.location}
        </span>
        {' · '}
        {full ? 'Full area' : 'Quick: top 60'}
        {filters.length > 0 && ` · ${filters.join(', ')}`}
        {full && query.maxCostUsd != null && ` · stops at ${formatUsd(query.maxCostUsd)}`}
      </p>
      <div aria-live="polite" className="mt-3 text-sm">
        {estimate.isPending && (
          <p className="flex items-center gap-2 text-slate-600">
            <Spinner /> Estimating what it would cost...
          </p>
        )}
        {estimate.isSuccess && (
          <p className="text-slate-800">
            <span className="font-medium">{estimateText(estimate.data, typeLabel)}</span>
            {!estimate.data.exact && <span> This is a rough estimate: the area is large, so the figures are extrapolated.</span>}
          </p>
        )}
        {estimate.isError && (
          <p role="alert" className="text-red-700">
            Could not estimate the cost: {estimate.error.message || 'the estimate failed'}. You can still run the search.
          </p>
        )}
      </div>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button onClick={onConfirm} disabled={estimate.isPending || estimate.isIdle} aria-busy={estimate.isPending || undefined}>
          Run search
        </Button>
      </div>
    </Modal>
  );
}
