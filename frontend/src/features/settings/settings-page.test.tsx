import { useSearch } from '@tanstack/react-router';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../lib/session/auth-context';
import { fakeAuth } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SettingsPage } from './settings-page';
import { isSettingsTab } from './settings-tabs';

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/user/api-key/status') return jsonResponse({ api_key_status: { has_key: false, key_preview: null, is_valid: null } });
      return jsonResponse({ error: 'not_found' }, 404);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

/** The page as the route shows it: its tab from `?tab=`. */
function AtSettings() {
  const { tab } = useSearch({ strict: false }) as { tab?: unknown };
  return <SettingsPage tab={isSettingsTab(tab) ? tab : undefined} billingTab={<p>billing content</p>} />;
}

async function render(tab?: 'billing') {
  const rendered = await renderWithProviders(<AtSettings />, {
    path: '/settings',
    wrap: (node) => <AuthContext.Provider value={fakeAuth()}>{node}</AuthContext.Provider>,
  });
  if (tab) await act(() => rendered.router.navigate({ to: '/settings', search: { tab } }));
  return rendered;
}

describe('SettingsPage', () => {
  it('opens API Keys by default and shows the email in the header', async () => {
    await render();
    expect(screen.getByRole('link', { name: 'API Keys' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    // The tab itself once the key's status has answered (it waits as a whole).
    expect(await screen.findByText('Google Places API key')).toBeInTheDocument();
  });

  it('opens Billing when asked (?tab=billing)', async () => {
    await render('billing');
    expect(screen.getByText('billing content')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps the tab in the address: each tab is a link to ?tab=, and the address opens its tab (issue #26 item 9)', async () => {
    const user = userEvent.setup();
    const { router } = await render();
    expect(screen.getByRole('link', { name: 'Webhooks' })).toHaveAttribute('href', '/settings?tab=webhooks');
    await user.click(screen.getByRole('link', { name: 'Profile' }));
    expect(router.state.location.search).toEqual({ tab: 'profile' });
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'API Keys' })).not.toHaveAttribute('aria-current');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    // Back: the tab before.
    await act(() => router.history.back());
    await screen.findByText('Google Places API key');
    expect(screen.getByRole('link', { name: 'API Keys' })).toHaveAttribute('aria-current', 'page');
    // A link (or a reload) straight to a tab.
    await act(() => router.navigate({ to: '/settings', search: { tab: 'security' } }));
    expect(screen.getAllByRole('switch')).toHaveLength(4);
    expect(screen.getByRole('link', { name: 'Security & Privacy' })).toHaveAttribute('aria-current', 'page');
  });

  it('switches tabs from the left navigation', async () => {
    const user = userEvent.setup();
    await render();
    await user.click(screen.getByRole('link', { name: 'Security & Privacy' }));
    expect(screen.getAllByRole('switch')).toHaveLength(4);
    screen.getAllByRole('switch').forEach((toggle) => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    await user.click(screen.getByRole('link', { name: 'Spreadsheet' }));
    // The status check fails (404): treated as not connected, with a Configure button.
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Configure' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('Google Sheets export');
    await user.click(screen.getByRole('link', { name: 'Profile' }));
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
  });
});
