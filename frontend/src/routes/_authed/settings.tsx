import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { getGetApiKeyStatusQueryOptions } from '../../api/gen/user/user';
import { InlineLoading } from '../../components/ui/spinner';
import { BillingTab } from '../../features/billing/billing-tab';
import { SettingsPage } from '../../features/settings/settings-page';
import { isSettingsTab, type SettingsTab } from '../../features/settings/settings-tabs';
import { useWorkspaces } from '../../features/workspaces/current-workspace';
import { LazyWorkspaceSwitcher } from '../../features/workspaces/lazy-workspace-switcher';
import { getStoredToken } from '../../lib/auth-token';

// The workspace tabs load when opened: the other tabs' visitors do not download them.
const WorkspaceTab = lazy(() => import('../../features/workspaces/workspace-tab').then((m) => ({ default: m.WorkspaceTab })));
const ActivityTab = lazy(() => import('../../features/workspaces/activity-tab').then((m) => ({ default: m.ActivityTab })));
const MembersTab = lazy(() => import('../../features/workspaces/members-tab').then((m) => ({ default: m.MembersTab })));

function TabLoading() {
  return <InlineLoading message="Loading..." />;
}

export const Route = createFileRoute('/_authed/settings')({
  // `?tab=billing` opens that tab: the tabs are links to `?tab=` (issue #26 item 9).
  validateSearch: (search: Record<string, unknown>): { tab?: SettingsTab } =>
    isSettingsTab(search.tab) ? { tab: search.tab } : {},
  loader: async ({ context: { auth, queryClient } }) => {
    // The API keys tab opens on the saved key's masked preview: waited for, so the field
    // never shows empty first. Read while the start-up session check runs when a token is
    // stored, as the dashboard does: read only after it, the tab rendered before the
    // answer and its card grew under the help card (CLS 0.049 in every Lighthouse run).
    // A failed read does not block the page; the tab says so.
    if (!auth?.isAuthenticated && !(auth?.isLoading && getStoredToken())) return;
    const keyStatus = queryClient.ensureQueryData(getGetApiKeyStatusQueryOptions()).catch(() => undefined);
    if (auth.isAuthenticated) await keyStatus;
  },
  component: SettingsRoute,
});

function SettingsRoute() {
  const { tab } = Route.useSearch();
  // The caller's role here decides which controls the tabs offer (issue #28 item 2).
  const role = useWorkspaces().current?.role;
  return (
    <SettingsPage
      tab={tab}
      role={role}
      billingTab={<BillingTab canManage={role === undefined || role === 'owner'} />}
      workspaceSwitcher={<LazyWorkspaceSwitcher />}
      workspaceTab={
        <Suspense fallback={<TabLoading />}>
          <WorkspaceTab />
        </Suspense>
      }
      membersTab={
        <Suspense fallback={<TabLoading />}>
          <MembersTab />
        </Suspense>
      }
      activityTab={
        <Suspense fallback={<TabLoading />}>
          <ActivityTab />
        </Suspense>
      }
    />
  );
}
