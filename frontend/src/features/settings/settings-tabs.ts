/** Settings tabs, in navigation order. */
export const SETTINGS_TABS = ['api-keys', 'security', 'spreadsheet', 'webhooks', 'api-access', 'workspace', 'members', 'activity', 'profile', 'billing'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

export function isSettingsTab(value: unknown): value is SettingsTab {
  return typeof value === 'string' && (SETTINGS_TABS as readonly string[]).includes(value);
}

export const SETTINGS_NAV: Array<{ heading: string; items: Array<{ tab: SettingsTab; label: string }> }> = [
  {
    heading: 'CONFIGURATION',
    items: [
      { tab: 'api-keys', label: 'API Keys' },
      { tab: 'security', label: 'Security & Privacy' },
    ],
  },
  {
    heading: 'INTEGRATIONS',
    items: [
      { tab: 'spreadsheet', label: 'Spreadsheet' },
      { tab: 'webhooks', label: 'Webhooks' },
      { tab: 'api-access', label: 'API access' },
    ],
  },
  {
    // The current workspace's own settings and its audit log (issue #28).
    heading: 'WORKSPACE',
    items: [
      { tab: 'workspace', label: 'General' },
      { tab: 'members', label: 'Members' },
      { tab: 'activity', label: 'Activity' },
    ],
  },
  {
    heading: 'ACCOUNT',
    items: [
      { tab: 'profile', label: 'Profile' },
      { tab: 'billing', label: 'Billing' },
    ],
  },
];
