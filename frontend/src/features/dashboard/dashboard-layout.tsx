import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useAuth } from '../../lib/session/auth-context';
import { enterWorkspace } from '../../lib/workspace/current-workspace';
import { DashboardHeader } from './dashboard-header';
import { greetingName } from './greeting';

/**
 * The dashboard's frame: the header (with logout and the page's `workspaceSwitcher`), the
 * greeting, then `children`.
 */
export function DashboardLayout({ children, workspaceSwitcher }: { children: ReactNode; workspaceSwitcher?: ReactNode }) {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  async function handleLogout() {
    await logout();
    // Nothing of this user's stays cached for the next one in this tab, nor their workspace
    // (the next requests, signed out or someone else's, would name it).
    queryClient.clear();
    enterWorkspace(undefined, queryClient);
    await navigate({ to: '/' });
  }

  return (
    <div className="min-h-screen bg-slate-50">
      <DashboardHeader user={user} onLogout={handleLogout} workspaceSwitcher={workspaceSwitcher} />
      <main className="mx-auto max-w-7xl space-y-6 px-4 py-8 sm:px-6 lg:px-8">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Hello, {greetingName(user)}</h1>
          <p className="mt-1 text-slate-600">Find local businesses and turn them into leads.</p>
        </div>
        {children}
      </main>
    </div>
  );
}
