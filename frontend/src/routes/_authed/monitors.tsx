import { createFileRoute } from '@tanstack/react-router';
import { getListSavedSearchesQueryOptions } from '../../api/gen/leads/leads';
import { DashboardLayout } from '../../features/dashboard/dashboard-layout';
import { MonitorsPage } from '../../features/monitors/monitors-page';
import { LazyWorkspaceSwitcher } from '../../features/workspaces/lazy-workspace-switcher';

// Split into its own chunk by the router plugin (autoCodeSplitting): the dashboard's first
// load does not carry it.
export const Route = createFileRoute('/_authed/monitors')({
  loader: async ({ context: { auth, queryClient } }) => {
    if (!auth?.isAuthenticated) return;
    await queryClient.ensureQueryData(getListSavedSearchesQueryOptions()).catch(() => undefined);
  },
  component: () => (
    <DashboardLayout workspaceSwitcher={<LazyWorkspaceSwitcher />}>
      <MonitorsPage />
    </DashboardLayout>
  ),
});
