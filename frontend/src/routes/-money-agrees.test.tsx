// Composes three features (progress card, results, history), as the dashboard route does:
// it lives beside the routes ('-' keeps the router from taking it for one).
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchItem } from '../api/gen/model/searchItem';
import { SearchHistoryPanel } from '../features/history/search-history-panel';
import { LiveProgress } from '../features/search/live-progress';
import { ResultsPanel } from '../features/search/results-panel';
import { jsonResponse, renderWithProviders } from '../test/render';

// Issue #26 item 8: "Cost $0.11 on the result is $0.10 in the history". One search whose
// cost sits on a half cent ($0.105, as the server rounds: to a tenth of a cent) reads the
// same on the progress card, in the results header and in the history.

const COST = 0.105;
const SHOWN = '$0.11';

const item = (overrides: Partial<SearchItem>): SearchItem => ({
  id: 's-1',
  businessType: 'dentist',
  location: 'Austin',
  coverage: 'full',
  options: {},
  background: false,
  status: 'complete',
  leads: 3,
  billableRequests: 3,
  costUsd: COST,
  startedAt: '2026-11-25T10:00:00Z',
  finishedAt: '2026-11-25T10:01:00Z',
  resultsAvailable: true,
  startedBy: { userId: 'u-1', email: 'ada@example.com' },
  ...overrides,
});

afterEach(() => vi.unstubAllGlobals());

describe('one search, one cost', () => {
  it('the progress card, the results header and the history show the same figure', async () => {
    const progress = { areasProbed: 4, areasFetched: 2, areasPlanned: 2, leads: 3, placesFound: 3, billableRequests: 3, costUsd: COST, estimatedCostUsd: COST, estimatedPlaces: 3 };
    const card = render(<LiveProgress typeLabel="Dentist" location="Austin" names={[]} found={3} total={3} progress={progress} />);
    expect(screen.getByText(/^Fetching: 3 of about 3/)).toHaveTextContent(`${SHOWN} so far (about ${SHOWN} in all)`);
    card.unmount();

    const lead = { name: 'A', address: 'x', phone: '', website: '', placeId: 'a' };
    const results = render(<ResultsPanel results={[lead]} typeLabel="Dentist" location="Austin" cost={{ costUsd: COST, billableRequests: 3, requests: { idsOnly: 0, pro: 0, enterprise: 3 } }} />);
    expect(screen.getByText(/^This search cost/)).toHaveTextContent(`This search cost ${SHOWN} on your Google key`);
    results.unmount();

    const running = item({ id: 's-2', status: 'running', leads: undefined, costUsd: undefined, finishedAt: undefined, progress: { found: 3, billableRequests: 3, costUsd: COST } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = new URL(input, 'http://localhost');
        if (url.pathname === '/api/leads/business-types') return jsonResponse({ groups: [{ label: 'Health', types: [{ value: 'dentist', label: 'Dentist' }] }] });
        return jsonResponse({ searches: [running, item({})], replayMinutes: 10 });
      }),
    );
    await renderWithProviders(<SearchHistoryPanel onOpen={vi.fn()} onRunAgain={vi.fn()} />);
    const [live, done] = await screen.findAllByRole('listitem');
    expect(within(live!).getByText(/found so far/)).toHaveTextContent(`${SHOWN} so far`);
    expect(within(done!).getByText(/Full area/)).toHaveTextContent(SHOWN);
    expect(document.body).not.toHaveTextContent('$0.10');
  });
});
