import { Suspense, type ReactNode } from 'react';
import { Banner } from '../../components/ui/banner';
import { isEnriched, type Lead, type SearchQuery } from '../../lib/lead';
import { useAuth } from '../../lib/session/auth-context';
import { searchPlaceLabel } from './search-area';
import { LiveProgress, ResultsPanel, RunAgainDialog } from './search-chunks';
import { SearchForm } from './search-form';
import { SearchNotice } from './search-notice';
import { searchFilterLabels } from './search-options';
import type { SearchWorkspaceState } from './use-search-workspace';

export interface SearchWorkspaceProps {
  /** The page's search ({@link useSearchWorkspace}). */
  search: SearchWorkspaceState;
  hasApiKey: boolean;
  /** Shown between the live results and the finished ones (the export banner). */
  outcome?: ReactNode;
  /** The finished results' actions (the export buttons), given the results shown. */
  resultsActions?: (results: Lead[], query: SearchQuery) => ReactNode;
  /** Actions under the form, given the search it holds (the page's "Save as monitor"). */
  formActions?: (query: SearchQuery | null, typeLabel: string) => ReactNode;
}

/**
 * The dashboard's search area: the form, the search's banners, the live progress and
 * table while it runs, the results once it is done, and the "Run again" confirmation.
 */
export function SearchWorkspace({ search, hasApiKey, outcome, resultsActions, formActions }: SearchWorkspaceProps) {
  const { user } = useAuth();
  const { state, query, cancelSearch } = search;
  const searching = state.status === 'searching';
  const typeLabel = query ? search.typeLabel(query.businessType) : '';

  return (
    <>
      <SearchForm
        key={search.prefill?.key ?? 0}
        initial={search.prefill?.query}
        userId={user?.id}
        hasApiKey={hasApiKey}
        isSearching={searching}
        onSearch={search.search}
        actions={formActions}
        leads={state.results ?? (searching ? search.liveLeads : undefined)}
      />

      {searching && state.reconnecting && (
        <Banner tone="warning" title="Reconnecting">
          The connection dropped or the server restarted. Picking the search up where it left off...
        </Banner>
      )}

      {search.cancelled && !searching && (
        <Banner tone="info" title="Search cancelled" onDismiss={search.dismissCancelled}>
          {search.cancelled}
        </Banner>
      )}
      {cancelSearch.isError && searching && (
        <Banner tone="error">{cancelSearch.error?.message || 'Could not cancel this search.'}</Banner>
      )}

      {state.status === 'error' && state.error && (
        <Banner tone="error" title="Search Failed">
          {state.error}
        </Banner>
      )}

      {searching && query && (
        <Suspense fallback={null}>
          <LiveProgress
            typeLabel={typeLabel}
            location={searchPlaceLabel(query)}
            names={state.names}
            found={state.found}
            total={state.total}
            progress={state.progress}
            liveIds={state.liveIds}
            contacts={isEnriched(query) ? state.contacts : null}
            onCancel={state.searchId ? search.cancelRunning : undefined}
            cancelling={cancelSearch.isPending}
          />
        </Suspense>
      )}

      {searching && query && (
        <Suspense fallback={null}>
          <ResultsPanel
            live
            results={search.liveLeads}
            typeLabel={typeLabel}
            location={searchPlaceLabel(query)}
            enriched={isEnriched(query)}
            searchFilters={searchFilterLabels(query)}
          />
        </Suspense>
      )}

      {outcome}

      {state.status === 'complete' && <SearchNotice notice={state.notice} />}

      {state.status === 'complete' && state.results && query && (
        <Suspense fallback={null}>
          <ResultsPanel
            results={state.results}
            typeLabel={typeLabel}
            location={searchPlaceLabel(query)}
            cost={state.cost}
            completeness={state.completeness}
            enriched={isEnriched(query)}
            searchFilters={searchFilterLabels(query)}
            focusOnArrival
            newOfFound={state.newOfFound}
            keptMinutes={search.keptMinutes}
            actions={resultsActions?.(state.results, query)}
          />
        </Suspense>
      )}

      {search.confirming && (
        <Suspense fallback={null}>
          <RunAgainDialog
            query={search.confirming.query}
            typeLabel={search.typeLabel(search.confirming.item.businessType)}
            onConfirm={() => search.confirming && search.runAgain(search.confirming.query)}
            onCancel={search.closeRunAgain}
          />
        </Suspense>
      )}
    </>
  );
}
