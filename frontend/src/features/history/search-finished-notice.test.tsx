import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchItem } from '../../api/gen/model/searchItem';
import { watchedSearches } from '../../lib/live-search-store';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { SearchFinishedNotices } from './search-finished-notice';

const running: SearchItem = {
  id: 's-1',
  businessType: 'dentist',
  location: 'Austin',
  coverage: 'full',
  options: {},
  background: true,
  status: 'running',
  startedAt: '2026-11-25T10:00:00Z',
  resultsAvailable: true,
  startedBy: { userId: 'u-1', email: 'ada@example.com' },
};

let runningNow: SearchItem[];
const notification = vi.fn();

beforeEach(() => {
  runningNow = [running];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      if (input.startsWith('/api/leads/searches?')) return jsonResponse({ searches: runningNow, replayMinutes: 10 });
      if (input === '/api/leads/searches/s-1') return jsonResponse({ ...running, status: 'complete', leads: 1234, finishedAt: '2026-11-25T10:03:00Z' });
      return jsonResponse({ error: 'not_found' }, 404);
    }),
  );
  class FakeNotification {
    static permission = 'granted';
    constructor(title: string, options: unknown) {
      notification(title, options);
    }
  }
  vi.stubGlobal('Notification', FakeNotification);
});
afterEach(() => {
  vi.unstubAllGlobals();
  notification.mockReset();
  watchedSearches.clear();
});

describe('SearchFinishedNotices', () => {
  it('tells the user in the app and through the browser when a background search finishes', async () => {
    await renderWithProviders(<SearchFinishedNotices intervalMs={20} idleIntervalMs={20} startAfterMs={0} />);
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.length).toBeGreaterThan(0));
    runningNow = [];
    expect(await screen.findByText('Your search for dentist in Austin finished: 1,234 leads.')).toBeInTheDocument();
    expect(notification).toHaveBeenCalledWith('Leadgen search finished', expect.objectContaining({ body: expect.stringContaining('1,234 leads') }));
  });

  it('stays quiet about a search the page is streaming', async () => {
    watchedSearches.add('s-1');
    await renderWithProviders(<SearchFinishedNotices intervalMs={20} idleIntervalMs={20} startAfterMs={0} />);
    await waitFor(() => expect(vi.mocked(fetch).mock.calls.length).toBeGreaterThan(0));
    runningNow = [];
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(notification).not.toHaveBeenCalled();
  });
});
