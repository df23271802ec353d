import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/render';
import { RunAgainDialog } from './run-again-dialog';

const estimate = {
  billableRequests: 76,
  estimatedCostUsd: 2.695,
  estimatedLeads: 1500,
  estimatedSeconds: 40,
  exact: true,
  requests: { idsOnly: 300, pro: 1, enterprise: 75 },
  spent: { requests: { idsOnly: 0, pro: 0, enterprise: 0 }, billableRequests: 0, costUsd: 0 },
};

afterEach(() => vi.unstubAllGlobals());

function setup(answer: () => Promise<Response>) {
  const fetchMock = vi.fn(async (url: string) => (url === '/api/leads/estimate' ? answer() : jsonResponse({ error: 'not_found' }, 404)));
  vi.stubGlobal('fetch', fetchMock);
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  const query = { businessType: 'dentist', location: 'Houston, TX', coverage: 'full' as const, maxCostUsd: 5, minRating: 4 };
  return { fetchMock, onConfirm, onCancel, query };
}

describe('RunAgainDialog (issue #26 item 2)', () => {
  it('estimates the search as it opens and runs it only when confirmed', async () => {
    let release: (r: Response) => void = () => {};
    const { fetchMock, onConfirm, onCancel, query } = setup(() => new Promise((resolve) => (release = resolve)));
    const user = userEvent.setup();
    await renderWithProviders(<RunAgainDialog query={query} typeLabel="Dentist" onConfirm={onConfirm} onCancel={onCancel} />);
    expect(screen.getByRole('dialog', { name: 'Run this search again?' })).toHaveTextContent('Dentist in Houston, TX · Full area · 4+ stars · stops at $5.00');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body))).toEqual(query);
    // Not before the cost is known.
    expect(screen.getByText('Estimating what it would cost...')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Run search' })).toBeDisabled();

    release(jsonResponse(estimate));
    expect(await screen.findByText('About 1,500 dentists, about $2.70 on your Google key, about 40 s.')).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Run search' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('cancels without running, and lets the user run anyway when the estimate fails', async () => {
    const { onConfirm, onCancel, query } = setup(async () => jsonResponse({ error: 'bad_gateway', message: 'Google did not answer' }, 502));
    const user = userEvent.setup();
    await renderWithProviders(<RunAgainDialog query={query} typeLabel="Dentist" onConfirm={onConfirm} onCancel={onCancel} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not estimate the cost: Google did not answer. You can still run the search.');
    expect(screen.getByRole('button', { name: 'Run search' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
