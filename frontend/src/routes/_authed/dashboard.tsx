import { createFileRoute, Link, redirect } from '@tanstack/react-router';
import { getGetUsageQueryOptions, getListBusinessTypesQueryOptions } from '../../api/gen/leads/leads';
import { getGetApiKeyStatusQueryOptions } from '../../api/gen/user/user';
import { AfterFirstPaint } from '../../components/after-first-paint';
import { UsageWidget } from '../../features/billing/usage-card';
import { DashboardLayout } from '../../features/dashboard/dashboard-layout';
import { needsFirstOnboarding } from '../../features/dashboard/first-onboarding';
import { OnboardingGate } from '../../features/dashboard/onboarding-gate';
import { TutorialCard } from '../../features/dashboard/tutorial-card';
import { ExportOutcomeBanner, useExportOutcome } from '../../features/export/export-outcome';
import { HistoryExportActions, LazyExportActions, preloadExportActions } from '../../features/export/lazy-export-actions';
import { SaveAsMonitorButton } from '../../features/monitors/save-monitor-button';
import { SearchHistorySection } from '../../features/history/search-history-section';
import { SearchWorkspace } from '../../features/search/search-workspace';
import { useSearchWorkspace } from '../../features/search/use-search-workspace';
import { ApiKeyRequiredNotice, ApiKeyStatusCard } from '../../features/settings/api-key-status-card';
import { useApiKeyStatus } from '../../features/settings/use-api-key';
import { LazyWorkspaceSwitcher } from '../../features/workspaces/lazy-workspace-switcher';
import { getStoredToken } from '../../lib/auth-token';

export const Route = createFileRoute('/_authed/dashboard')({
  beforeLoad: ({ context, search }) => {
    // First login with setup unfinished: straight to onboarding (spec section 2), which
    // sets up the person's own workspace. Someone who arrives in a team's workspace (an
    // invitation just accepted) lands on its dashboard instead: its key is the team's,
    // and onboarding's 'save your key' would replace it.
    if (search.ws === undefined && needsFirstOnboarding(context.auth?.user)) throw redirect({ to: '/onboarding', replace: true });
  },
  loader: async ({ context: { auth, queryClient } }) => {
    // Signed in, or about to be known so (the start-up check is still asking who the stored
    // token belongs to): read in parallel with that check and with loading the page's
    // code, rather than one round trip after it. The usage card and the form's catalogue
    // show their own loading.
    if (!auth?.isAuthenticated && !(auth?.isLoading && getStoredToken())) return;
    void queryClient.prefetchQuery(getGetUsageQueryOptions());
    void queryClient.prefetchQuery(getListBusinessTypesQueryOptions({ query: { staleTime: Infinity } }));
    // Whether a key is saved decides the first screen (the 'API Key Required' notice, the
    // form's Search button): waited for, so nothing appears late. A failed read does not
    // block the page; its card shows the failure.
    // Until the start-up check answers, the layout shows 'Checking authentication...' and
    // this waits for nothing: the guard re-runs the loader once it does.
    const keyStatus = queryClient.ensureQueryData(getGetApiKeyStatusQueryOptions()).catch(() => undefined);
    if (auth.isAuthenticated) await keyStatus;
  },
  component: () => (
    <OnboardingGate>
      <Dashboard />
    </OnboardingGate>
  ),
});

function Dashboard() {
  const apiKey = useApiKeyStatus();
  const hasApiKey = apiKey.data?.has_key ?? false;
  // Each needs the other: a search starting drops the last export's banner (and fetches
  // the export buttons' chunk); an export's success clears the results. `onStart` runs
  // only on a user's action, after both exist.
  const search = useSearchWorkspace({
    onStart: () => {
      preloadExportActions();
      exportOutcome.reset();
    },
  });
  const exportOutcome = useExportOutcome({ onResultsExpired: search.clearResults });

  return (
    <DashboardLayout workspaceSwitcher={<LazyWorkspaceSwitcher />}>
      {apiKey.isSuccess && !hasApiKey && <ApiKeyRequiredNotice />}
      <SearchWorkspace
        search={search}
        hasApiKey={hasApiKey}
        formActions={(query, typeLabel) => (
          <SaveAsMonitorButton query={query} typeLabel={typeLabel} disabled={search.state.status === 'searching'} />
        )}
        outcome={
          exportOutcome.outcome && (
            <ExportOutcomeBanner outcome={exportOutcome.outcome} onDismiss={exportOutcome.dismiss} onDownloadCsv={search.downloadCsv} />
          )
        }
        resultsActions={(results, query) => (
          <LazyExportActions
            results={results}
            search={query}
            onOutcome={exportOutcome.report}
            searchId={search.state.status === 'complete' ? search.state.searchId : null}
          />
        )}
      />
      {/* Below the form: rendered just after it, so the form paints first. */}
      <AfterFirstPaint>
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
        <SearchHistorySection {...search.history} resultsActions={(item, what) => <HistoryExportActions item={item} what={what} />} />
      </AfterFirstPaint>
    </DashboardLayout>
  );
}
