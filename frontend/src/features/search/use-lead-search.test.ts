import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { StreamError } from '../../lib/sse-stream';
import { useLeadSearch, type StreamFn } from './use-lead-search';

const query = { businessType: 'cafe', location: 'Paris' };

function run(stream: StreamFn, onComplete = vi.fn()) {
  const hook = renderHook(() => useLeadSearch({ stream, onComplete }));
  return { hook, onComplete };
}

describe('useLeadSearch', () => {
  it('streams names then completes and refreshes usage once', async () => {
    const stream: StreamFn = async (_q, onData) => {
      onData({ type: 'start', businessType: 'cafe', location: 'Paris' });
      onData({ type: 'business_found', name: 'Cafe A', found: 1, total: 2 });
      onData({ type: 'complete', results: [{ name: 'Cafe A', address: 'x', phone: '', website: '', placeId: 'a' }], search: query });
    };
    const { hook, onComplete } = run(stream);
    await act(() => hook.result.current.start(query));
    expect(hook.result.current.state.status).toBe('complete');
    expect(hook.result.current.state.results).toHaveLength(1);
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it('shows a stream error event message', async () => {
    const { hook, onComplete } = run(async (_q, onData) => onData({ type: 'error', message: 'Invalid API key' }));
    await act(() => hook.result.current.start(query));
    expect(hook.result.current.state).toMatchObject({ status: 'error', error: 'Invalid API key' });
    expect(onComplete).not.toHaveBeenCalled();
  });

  it("reports 'Stream processing failed' when the stream ends without an outcome", async () => {
    const { hook } = run(async (_q, onData) => onData({ type: 'business_found', name: 'A', found: 1, total: 5 }));
    await act(() => hook.result.current.start(query));
    expect(hook.result.current.state).toMatchObject({ status: 'error', error: 'Stream processing failed', names: [] });
  });

  it('uses the HTTP error message, or the start failure text for network errors', async () => {
    const http = run(async () => {
      throw new StreamError('Please add your Google Places API key in Settings before searching', 400);
    });
    await act(() => http.hook.result.current.start(query));
    expect(http.hook.result.current.state.error).toBe('Please add your Google Places API key in Settings before searching');

    const network = run(async () => {
      throw new TypeError('Failed to fetch');
    });
    await act(() => network.hook.result.current.start(query));
    expect(network.hook.result.current.state.error).toBe('Failed to start streaming search');
  });

  it('starts from restored results and clears them on request', () => {
    const lead = { name: 'Cafe A', address: 'x', phone: '', website: '', placeId: 'a' };
    const hook = renderHook(() => useLeadSearch({ stream: vi.fn(), restored: { results: [lead], search: query } }));
    expect(hook.result.current.state).toMatchObject({ status: 'complete', results: [lead], search: query });
    act(() => hook.result.current.clearResults());
    expect(hook.result.current.state.status).toBe('idle');
    expect(hook.result.current.state.results).toBeNull();
  });

  it('takes a full search of 3,000 leads through the hook in well under a second, cost and notice kept', async () => {
    const leads = Array.from({ length: 3000 }, (_, i) => ({ name: `Dentist ${i}`, address: 'x', phone: '', website: '', placeId: `p${i}` }));
    const stream: StreamFn = async (_q, onData) => {
      leads.forEach((lead, i) => {
        onData({ type: 'business_found', name: lead.name, found: i + 1, total: 3000, lead });
        if (i % 50 === 0) onData({ type: 'progress', areasProbed: 9, areasFetched: i / 50, areasPlanned: 60, leads: i + 1, costUsd: 0.1 });
      });
      onData({
        type: 'complete',
        results: leads,
        search: query,
        cost: { requests: { idsOnly: 9, pro: 1, enterprise: 60 }, billableRequests: 61, costUsd: 2.1 },
        notice: 'A few places may be missing.',
      });
    };
    const { hook } = run(stream);
    const started = performance.now();
    await act(() => hook.result.current.start(query));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(hook.result.current.state).toMatchObject({ status: 'complete', found: 3000, notice: 'A few places may be missing.', cost: { billableRequests: 61 } });
  });
});

