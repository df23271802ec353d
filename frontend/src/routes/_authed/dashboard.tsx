import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute, Link, Navigate, redirect, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import {
  getGetUsageQueryKey,
  getGetUsageQueryOptions,
  getListBusinessTypesQueryOptions,
  getListSearchesQueryKey,
  useCancelSearch,
  useListSearches,
} from '../../api/gen/leads/leads';
import type { SearchItem } from '../../api/gen/model/searchItem';
import { getGetApiKeyStatusQueryOptions } from '../../api/gen/user/user';
import { Banner } from '../../components/ui/banner';
import { UsageWidget } from '../../features/billing/usage-card';
import { DashboardHeader } from '../../features/dashboard/dashboard-header';
import { greetingName } from '../../features/dashboard/greeting';
import { TutorialCard } from '../../features/dashboard/tutorial-card';
import { WelcomeBackCard } from '../../features/dashboard/welcome-back-card';
import { ExportOutcomeBanner, useExportOutcome } from '../../features/export/export-outcome';
import { SearchForm } from '../../features/search/search-form';
import { SearchNotice } from '../../features/search/search-notice';
import { cancelledSummary } from '../../features/search/search-format';
import { searchFilterLabels, searchQueryFromHistory } from '../../features/search/search-options';
import { businessTypeLabel, useBusinessTypes } from '../../features/search/use-business-types';
import { withContacts } from '../../features/search/search-reducer';
import { useLeadSearch } from '../../features/search/use-lead-search';
import { ApiKeyRequiredNotice, ApiKeyStatusCard } from '../../features/settings/api-key-status-card';
import { useApiKeyStatus } from '../../features/settings/use-api-key';
import { useWhenIdle } from '../../hooks/use-when-idle';
import { downloadLeadsCsv } from '../../lib/csv';
import { isEnriched, optionsEnriched, type SearchQuery } from '../../lib/lead';
import { clearStashedResults, peekStashedResults } from '../../lib/return-to';
import { useAuth } from '../../lib/session/auth-context';

// What only a search shows (the live list, the results table with its virtualiser, the
// export dialogs) loads in chunks of its own, fetched when a search starts, so the
// dashboard's first screen downloads and parses less (Lighthouse's performance budget).
const loadLiveProgress = () => import('../../features/search/live-progress');
const loadResultsPanel = () => import('../../features/search/results-panel');
const loadExportActions = () => import('../../features/export/export-actions');
const LiveProgress = lazy(() => loadLiveProgress().then((m) => ({ default: m.LiveProgress })));
const ResultsPanel = lazy(() => loadResultsPanel().then((m) => ({ default: m.ResultsPanel })));
const ExportActions = lazy(() => loadExportActions().then((m) => ({ default: m.ExportActions })));
const ReplayedExportActions = lazy(() =>
  import('../../features/export/replayed-export-actions').then((m) => ({ default: m.ReplayedExportActions })),
);
// Asked only on "Run again": its own chunk.
const RunAgainDialog = lazy(() => import('../../features/search/run-again-dialog').then((m) => ({ default: m.RunAgainDialog })));
// The history sits below the first screen: its own chunk too.
const SearchHistoryPanel = lazy(() =>
  import('../../features/history/search-history-panel').then((m) => ({ default: m.SearchHistoryPanel })),
);

/** Remembers 'Skip for now' on the Welcome back card for this browser tab. */
const SKIP_KEY = 'leadgen:onboardingSkipped';

function needsFirstOnboarding(user: { needsOnboarding: boolean; isFirstLogin: boolean } | null | undefined) {
  return Boolean(user?.needsOnboarding && user.isFirstLogin);
}

export const Route = createFileRoute('/_authed/dashboard')({
  beforeLoad: ({ context }) => {
    // First login with setup unfinished: straight to onboarding (spec section 2).
    if (needsFirstOnboarding(context.auth?.user)) throw redirect({ to: '/onboarding', replace: true });
  },
  loader: ({ context }) => {
    if (!context.auth?.isAuthenticated) return;
    // Started here so the page's reads run in parallel with loading its code.
    void context.queryClient.prefetchQuery(getGetApiKeyStatusQueryOptions());
    void context.queryClient.prefetchQuery(getGetUsageQueryOptions());
    void context.queryClient.prefetchQuery(getListBusinessTypesQueryOptions({ query: { staleTime: Infinity } }));
  },
  component: DashboardRoute,
});

function DashboardRoute() {
  const { user } = useAuth();
  const [skipped, setSkipped] = useState(() => {
    try {
      return window.sessionStorage.getItem(SKIP_KEY) === '1';
    } catch {
      return false;
    }
  });
  const navigate = useNavigate();

  if (needsFirstOnboarding(user)) return <Navigate to="/onboarding" replace />;
  if (user?.needsOnboarding && !skipped) {
    return (
      <WelcomeBackCard
        name={greetingName(user)}
        onSkip={() => {
          try {
            window.sessionStorage.setItem(SKIP_KEY, '1');
          } catch {
            // Not remembered; skipping still works for this visit.
          }
          setSkipped(true);
          void navigate({ to: '/dashboard' });
        }}
      />
    );
  }
  return <Dashboard />;
}

function Dashboard() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const apiKey = useApiKeyStatus();
  // The search form shows the catalogue's loading and failure; here it names the type.
  const businessTypes = useBusinessTypes();
  const hasApiKey = apiKey.data?.has_key ?? false;

  const onComplete = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: getGetUsageQueryKey() });
    void queryClient.invalidateQueries({ queryKey: getListSearchesQueryKey() });
  }, [queryClient]);
  // Back from re-authenticating for Sheets: the results the user was exporting.
  const [restored] = useState(peekStashedResults);
  useEffect(() => {
    if (restored) clearStashedResults();
  }, [restored]);
  const { state, start, attach, clearResults, stop } = useLeadSearch({ onComplete, restored });
  const exportOutcome = useExportOutcome({ onResultsExpired: clearResults });
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
  const cancelSearch = useCancelSearch({
    mutation: { onSettled: () => queryClient.invalidateQueries({ queryKey: getListSearchesQueryKey() }) },
  });
  function cancelRunning() {
    const searchId = state.status === 'searching' ? state.searchId : null;
    if (!searchId) return;
    const found = state.found;
    const spent = state.progress?.costUsd;
    cancelSearch.mutate(
      { id: searchId },
      {
        onSuccess: () => {
          stop(searchId);
          setCancelled(cancelledSummary(found, spent));
        },
      },
    );
  }
  // The history is at the bottom, below the first screen: it loads once the page has
  // painted, and shifts nothing already shown.
  const showHistory = useWhenIdle();

  // A search that starts (or ends in error) shows in the history at once.
  useEffect(() => {
    if (state.searchId) void queryClient.invalidateQueries({ queryKey: getListSearchesQueryKey() });
  }, [state.searchId, state.status, queryClient]);

  function preloadSearchChunks() {
    void Promise.all([loadLiveProgress(), loadResultsPanel(), loadExportActions()]).catch(() => undefined);
    exportOutcome.reset();
  }

  function handleSearch(q: SearchQuery) {
    preloadSearchChunks();
    void start(q);
  }

  function runAgain(again: SearchQuery) {
    setConfirming(null);
    setPrefill((current) => ({ key: (current?.key ?? 0) + 1, query: again }));
    window.scrollTo({ top: 0, behavior: 'smooth' });
    handleSearch(again);
  }

  function openSearch(item: SearchItem) {
    preloadSearchChunks();
    window.scrollTo({ top: 0, behavior: 'smooth' });
    void attach(item.id, searchQueryFromHistory(item));
  }

  async function handleLogout() {
    await logout();
    queryClient.clear();
    await navigate({ to: '/' });
  }

  const query = state.search ?? state.query;
  // The live table: the leads streamed so far, with what their websites published.
  const liveLeads = useMemo(() => withContacts(state.leads, state.contacts), [state.leads, state.contacts]);
  const typeLabel = query ? businessTypeLabel(businessTypes.data, query.businessType) : '';

  return (
    <div className="min-h-screen bg-slate-50">
      <DashboardHeader user={user} onLogout={handleLogout} />
      <main className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6 lg:px-8">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Hello, {greetingName(user)}</h1>
          <p className="mt-1 text-slate-600">Find local businesses and turn them into leads.</p>
        </div>

        {apiKey.isSuccess && !hasApiKey && <ApiKeyRequiredNotice />}

        <SearchForm
          key={prefill?.key ?? 0}
          initial={prefill?.query}
          userId={user?.id}
          hasApiKey={hasApiKey}
          isSearching={state.status === 'searching'}
          onSearch={handleSearch}
        />

        {state.status === 'searching' && state.reconnecting && (
          <Banner tone="warning" title="Reconnecting">
            The connection dropped. Picking the search up where it left off...
          </Banner>
        )}

        {cancelled && state.status !== 'searching' && (
          <Banner tone="info" title="Search cancelled" onDismiss={() => setCancelled(null)}>
            {cancelled}
          </Banner>
        )}
        {cancelSearch.isError && state.status === 'searching' && (
          <Banner tone="error">{cancelSearch.error?.message || 'Could not cancel this search.'}</Banner>
        )}

        {state.status === 'error' && state.error && (
          <Banner tone="error" title="Search Failed">
            {state.error}
          </Banner>
        )}

        {state.status === 'searching' && query && (
          <Suspense fallback={null}>
            <LiveProgress
              typeLabel={typeLabel}
              location={query.location}
              names={state.names}
              found={state.found}
              total={state.total}
              progress={state.progress}
              liveIds={state.liveIds}
              contacts={isEnriched(query) ? state.contacts : null}
              onCancel={state.searchId ? cancelRunning : undefined}
              cancelling={cancelSearch.isPending}
            />
          </Suspense>
        )}

        {state.status === 'searching' && query && (
          <Suspense fallback={null}>
            <ResultsPanel
              live
              results={liveLeads}
              typeLabel={typeLabel}
              location={query.location}
              enriched={isEnriched(query)}
              searchFilters={searchFilterLabels(query)}
            />
          </Suspense>
        )}

        {exportOutcome.outcome && (
          <ExportOutcomeBanner
            outcome={exportOutcome.outcome}
            onDismiss={exportOutcome.dismiss}
            onDownloadCsv={
              state.results?.length && query
                ? () => downloadLeadsCsv(state.results ?? [], query, { enriched: isEnriched(query) })
                : undefined
            }
          />
        )}

        {state.status === 'complete' && <SearchNotice notice={state.notice} />}

        {state.status === 'complete' && state.results && query && (
          <Suspense fallback={null}>
            <ResultsPanel
              results={state.results}
              typeLabel={typeLabel}
              location={query.location}
              cost={state.cost}
              enriched={isEnriched(query)}
              searchFilters={searchFilterLabels(query)}
              focusOnArrival
              keptMinutes={keptMinutes}
              actions={<ExportActions results={state.results} search={query} onOutcome={exportOutcome.report} />}
            />
          </Suspense>
        )}

        <div className="grid gap-6 md:grid-cols-3">
          <ApiKeyStatusCard configured={hasApiKey} loading={apiKey.isPending} preview={apiKey.data?.key_preview} />
          <UsageWidget
            footer={
              <Link to="/settings" className="text-sm font-semibold text-indigo-700 hover:text-indigo-600">
                View Details →
              </Link>
            }
          />
          <TutorialCard />
        </div>

        {showHistory && (
          <Suspense fallback={null}>
            <SearchHistoryPanel
              onOpen={openSearch}
              onRunAgain={(item) => setConfirming({ item, query: searchQueryFromHistory(item) })}
              onCancelled={(item) => stop(item.id)}
              resultsActions={(item, what) => (
                <Suspense fallback={null}>
                  <ReplayedExportActions
                    search={{ businessType: item.businessType, location: item.location, enrich: optionsEnriched(item.options) }}
                    what={what}
                    searchId={item.id}
                  />
                </Suspense>
              )}
              openSearchId={state.status === 'searching' ? state.searchId : null}
              openSearchProgress={state.status === 'searching' ? { found: state.found, costUsd: state.progress?.costUsd ?? null } : null}
            />
          </Suspense>
        )}
        {confirming && (
          <Suspense fallback={null}>
            <RunAgainDialog
              query={confirming.query}
              typeLabel={businessTypeLabel(businessTypes.data, confirming.item.businessType)}
              onConfirm={() => runAgain(confirming.query)}
              onCancel={() => setConfirming(null)}
            />
          </Suspense>
        )}
      </main>
    </div>
  );
}
