import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  getGetUsageQueryKey,
  getListSearchesQueryKey,
  useCancelSearch,
  useListSearches,
} from '../../api/gen/leads/leads';
import type { SearchItem } from '../../api/gen/model/searchItem';
import { downloadLeadsCsv } from '../../lib/csv';
import { isEnriched, type SearchQuery } from '../../lib/lead';
import { clearStashedResults, peekStashedResults } from '../../lib/return-to';
import { preloadSearchChunks } from './search-chunks';
import { cancelledSummary } from './search-format';
import { searchQueryFromHistory } from './search-options';
import { withContacts } from './search-reducer';
import { businessTypeLabel, useBusinessTypes } from './use-business-types';
import { useLeadSearch } from './use-lead-search';

/**
 * What the search history needs from the page's search (the history panel's props of the
 * same names): open an entry, run one again, and show the running one's live figures.
 */
export interface SearchHistoryWiring {
  onOpen: (item: SearchItem) => void;
  onRunAgain: (item: SearchItem) => void;
  onCancelled: (item: SearchItem) => void;
  openSearchId: string | null;
  openSearchProgress: { found: number; costUsd: number | null } | null;
}

export interface SearchWorkspaceOptions {
  /** Called whenever a search starts or is opened (the page resets what belongs to the last one). */
  onStart?: () => void;
}

/**
 * The dashboard's search: the running or finished search (useLeadSearch), results kept
 * across a re-authentication, "Run again" (confirmed first, with the estimate), opening
 * a history entry, cancelling with a summary of what was kept, and the reads that must
 * follow a search (usage, history).
 */
export function useSearchWorkspace({ onStart }: SearchWorkspaceOptions = {}) {
  const queryClient = useQueryClient();
  const refreshHistory = useCallback(
    () => queryClient.invalidateQueries({ queryKey: getListSearchesQueryKey() }),
    [queryClient],
  );
  const onComplete = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: getGetUsageQueryKey() });
    void refreshHistory();
  }, [queryClient, refreshHistory]);

  // Back from re-authenticating for Sheets: the results the user was exporting.
  const [restored] = useState(peekStashedResults);
  useEffect(() => {
    if (restored) clearStashedResults();
  }, [restored]);
  const { state, start, attach, clearResults, stop } = useLeadSearch({ onComplete, restored });

  // A search that starts (or ends in error) shows in the history at once.
  useEffect(() => {
    if (state.searchId) void refreshHistory();
  }, [state.searchId, state.status, refreshHistory]);

  // "Run again" fills the form with the entry's fields: a new key remounts it with them.
  const [prefill, setPrefill] = useState<{ key: number; query: SearchQuery } | null>(null);
  // "Run again" first confirms, with the estimate (issue #26 item 2).
  const [confirming, setConfirming] = useState<{ item: SearchItem; query: SearchQuery } | null>(null);

  // How long the server keeps a finished search's results (the history says), to say so
  // under the results.
  const keptMinutes = useListSearches(
    { limit: 1 },
    { query: { enabled: state.status === 'complete', staleTime: Infinity, select: (page) => page.replayMinutes } },
  ).data;

  // Cancel from the progress card: the search stops, and the page says what was kept
  // (issue #26 item 6) rather than just dropping the card.
  const [cancelled, setCancelled] = useState<string | null>(null);
  const cancelSearch = useCancelSearch({ mutation: { onSettled: refreshHistory } });
  const running = state.status === 'searching' ? state.searchId : null;
  function cancelRunning() {
    if (!running) return;
    const found = state.found;
    const spent = state.progress?.costUsd;
    cancelSearch.mutate(
      { id: running },
      {
        onSuccess: () => {
          stop(running);
          setCancelled(cancelledSummary(found, spent));
        },
      },
    );
  }

  function starting() {
    preloadSearchChunks();
    onStart?.();
  }
  function search(query: SearchQuery) {
    starting();
    void start(query);
  }
  function runAgain(query: SearchQuery) {
    setConfirming(null);
    setPrefill((current) => ({ key: (current?.key ?? 0) + 1, query }));
    window.scrollTo({ top: 0, behavior: 'smooth' });
    search(query);
  }
  function open(item: SearchItem) {
    starting();
    window.scrollTo({ top: 0, behavior: 'smooth' });
    void attach(item.id, searchQueryFromHistory(item));
  }

  // The search the page shows: as the server echoed it, else as asked.
  const query = state.search ?? state.query;
  // The live table: the leads streamed so far, with what their websites published.
  const liveLeads = useMemo(() => withContacts(state.leads, state.contacts), [state.leads, state.contacts]);
  const businessTypes = useBusinessTypes();
  const typeLabel = useCallback((value: string) => businessTypeLabel(businessTypes.data, value), [businessTypes.data]);
  const results = state.results;

  const history: SearchHistoryWiring = {
    onOpen: open,
    onRunAgain: (item) => setConfirming({ item, query: searchQueryFromHistory(item) }),
    onCancelled: (item) => stop(item.id),
    openSearchId: running,
    openSearchProgress: state.status === 'searching' ? { found: state.found, costUsd: state.progress?.costUsd ?? null } : null,
  };

  return {
    state,
    query,
    liveLeads,
    typeLabel,
    keptMinutes,
    prefill,
    confirming,
    cancelled,
    cancelSearch,
    history,
    search,
    runAgain,
    cancelRunning,
    clearResults,
    dismissCancelled: () => setCancelled(null),
    closeRunAgain: () => setConfirming(null),
    /** The CSV of the results on the page (the export banner's fallback), while there are any. */
    downloadCsv:
      results?.length && query ? () => downloadLeadsCsv(results, query, { enriched: isEnriched(query) }) : undefined,
  };
}

/** The page's search, as {@link useSearchWorkspace} returns it. */
export type SearchWorkspaceState = ReturnType<typeof useSearchWorkspace>;
