import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthContext } from '../../lib/session/auth-context';
import { fakeAuth } from '../../test/fake-auth';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SettingsPage } from './settings-page';

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

const render = (initialTab?: 'billing') =>
  renderWithProviders(<SettingsPage initialTab={initialTab} billingTab={<p>billing content</p>} />, {
    wrap: (node) => <AuthContext.Provider value={fakeAuth()}>{node}</AuthContext.Provider>,
  });

describe('SettingsPage', () => {
  it('opens API Keys by default and shows the email in the header', async () => {
    await render();
    expect(screen.getByRole('button', { name: 'API Keys' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByText('Google Places API key')).toBeInTheDocument();
  });

  it('opens Billing when asked (?tab=billing)', async () => {
    await render('billing');
    expect(screen.getByText('billing content')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Billing' })).toHaveAttribute('aria-current', 'page');
  });

  it('switches tabs from the left navigation', async () => {
    const user = userEvent.setup();
    await render();
    await user.click(screen.getByRole('button', { name: 'Security & Privacy' }));
    expect(screen.getAllByRole('switch')).toHaveLength(4);
    screen.getAllByRole('switch').forEach((toggle) => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    await user.click(screen.getByRole('button', { name: 'Spreadsheet' }));
    // The status check fails (404): treated as not connected, with a Configure button.
    expect(await screen.findByText('Not connected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Configure' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('Google Sheets export');
    await user.click(screen.getByRole('button', { name: 'Profile' }));
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
  });
});
