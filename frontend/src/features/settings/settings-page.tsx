import { Link } from '@tanstack/react-router';
import type { WorkspaceRole } from '../../api/gen/model/workspaceRole';
import type { ReactNode } from 'react';
import { cn } from '../../components/ui/cn';
import { Logo } from '../../components/ui/logo';
import { useAuth } from '../../lib/session/auth-context';
import { ApiAccessTab } from './api-access-tab';
import { ApiKeysTab } from './api-keys-tab';
import { ProfileTab } from './profile-tab';
import { SecurityTab } from './security-tab';
import { SETTINGS_NAV, type SettingsTab } from './settings-tabs';
import { SpreadsheetTab } from './spreadsheet-tab';
import { WebhooksTab } from './webhooks-tab';

export interface SettingsPageProps {
  /** The open tab: the route's `?tab=` (API Keys when absent). */
  tab?: SettingsTab;
  /** Content of the Billing tab, supplied by the page (billing feature). */
  billingTab: ReactNode;
  /** Content of the Workspace tab, supplied by the page (workspaces feature). */
  workspaceTab?: ReactNode;
  /** Content of the Members tab, supplied by the page (workspaces feature). */
  membersTab?: ReactNode;
  /** Content of the Activity tab (the audit log), supplied by the page (workspaces feature). */
  activityTab?: ReactNode;
  /** The header's workspace switcher, supplied by the page (workspaces feature). */
  workspaceSwitcher?: ReactNode;
  /**
   * The caller's role in the current workspace, once known: a member is shown the key and
   * webhooks without the controls only an admin may use (the API refuses them anyway).
   */
  role?: WorkspaceRole;
}

/**
 * /settings (spec section 2). The open tab lives in the address (`?tab=`, issue #26
 * item 9): each tab is a link, so a reload, a bookmark or a shared link opens it, and
 * Back returns to the tab before.
 */
export function SettingsPage({ tab = 'api-keys', billingTab, workspaceTab, membersTab, activityTab, workspaceSwitcher, role }: SettingsPageProps) {
  const { user } = useAuth();
  // Unknown (still loading) shows the controls: the API decides, and most callers may.
  const admin = role !== 'member';

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex min-h-16 max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3 sm:flex-nowrap sm:px-6 lg:px-8">
          <div className="order-1 flex min-w-0 items-center gap-4">
            <Link to="/dashboard" className="inline-flex shrink-0 items-center gap-1 rounded-md text-sm font-medium text-slate-600 hover:text-slate-900">
              <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
                <path fillRule="evenodd" d="M12.7 4.3a1 1 0 0 1 0 1.4L8.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4l-5-5a1 1 0 0 1 0-1.4l5-5a1 1 0 0 1 1.4 0z" clipRule="evenodd" />
              </svg>
              Back to Dashboard
            </Link>
            <span className="hidden sm:block"><Logo /></span>
          </div>
          {workspaceSwitcher && <div className="order-3 basis-full sm:order-2 sm:mr-auto sm:basis-auto">{workspaceSwitcher}</div>}
          <span className="order-2 truncate text-sm text-slate-600 sm:order-3">{user?.email}</span>
        </div>
      </header>

      <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
        <h1 className="text-2xl font-bold text-slate-900">Settings</h1>
        <div className="mt-6 flex flex-col gap-6 md:flex-row">
          <nav aria-label="Settings" className="md:w-56 md:shrink-0">
            <div className="flex gap-6 overflow-x-auto pb-2 md:flex-col md:overflow-visible md:pb-0">
              {SETTINGS_NAV.map((section) => (
                <div key={section.heading} className="shrink-0">
                  <h2 className="px-3 text-xs font-semibold tracking-wider text-slate-500">{section.heading}</h2>
                  <ul className="mt-2 flex gap-1 md:flex-col">
                    {section.items.map((item) => (
                      <li key={item.tab}>
                        <Link
                          to="/settings"
                          search={{ tab: item.tab }}
                          aria-current={tab === item.tab ? 'page' : undefined}
                          className={cn(
                            'block w-full rounded-lg px-3 py-2 text-left text-sm font-medium whitespace-nowrap',
                            tab === item.tab ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-white hover:text-slate-900',
                          )}
                          // The router would mark every tab active (same path): aria-current says which.
                          activeOptions={{ includeSearch: true }}
                        >
                          {item.label}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          </nav>
          <section className="min-w-0 flex-1" aria-live="polite">
            {tab === 'api-keys' && <ApiKeysTab canManage={admin} />}
            {tab === 'security' && <SecurityTab />}
            {tab === 'spreadsheet' && <SpreadsheetTab />}
            {tab === 'webhooks' && <WebhooksTab canManage={admin} />}
            {tab === 'api-access' && <ApiAccessTab />}
            {tab === 'profile' && <ProfileTab />}
            {tab === 'billing' && billingTab}
            {tab === 'workspace' && workspaceTab}
            {tab === 'members' && membersTab}
            {tab === 'activity' && activityTab}
          </section>
        </div>
      </main>
    </div>
  );
}
