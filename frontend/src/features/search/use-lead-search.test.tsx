import { act, renderHook } from '@testing-library/react';
import { Profiler } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readLiveSearch, watchedSearches, writeLiveSearch } from '../../lib/live-search-store';
import { StreamError } from '../../lib/sse-stream';
import { useLeadSearch, type ResumeFn, type StreamFn } from './use-lead-search';

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


  it('3,000 leads arriving one by one render once a frame, not once a lead (issue #26 item 6)', async () => {
    // A frame clock the test drives: each tick hands over what arrived since the last.
    let pending: (() => void) | null = null;
    const scheduleFlush = (flush: () => void) => {
      pending = flush;
      return () => {
        if (pending === flush) pending = null;
      };
    };
    const tick = () => {
      const flush = pending;
      pending = null;
      flush?.();
    };
    const stream: StreamFn = async (_q, onData) => {
      onData({ type: 'start', businessType: 'cafe', location: 'Paris', searchId: 's-3000' });
      for (let i = 0; i < 3000; i += 1) {
        onData({ type: 'business_found', name: `Cafe ${i}`, found: i + 1, total: 3000, lead: lead(i) });
        // One lead at a time, each in its own turn of the event loop's microtasks.
        await Promise.resolve();
        // About 100 leads a frame: a fast full search.
        if (i % 100 === 99) act(tick);
      }
      await new Promise<void>(() => undefined);
    };
    let renders = 0;
    const wrapper = ({ children }: { children: React.ReactNode }) => (
      <Profiler id="search" onRender={() => (renders += 1)}>
        {children}
      </Profiler>
    );
    const hook = renderHook(() => useLeadSearch({ stream, resume: vi.fn<ResumeFn>(), scheduleFlush }), { wrapper });
    act(() => void hook.result.current.start(query));
    await vi.waitFor(() => expect(hook.result.current.state.leads).toHaveLength(3000));
    // 30 frames of leads, plus the start and a few of React's own: never one a lead.
    expect(renders).toBeLessThanOrEqual(40);
    expect(hook.result.current.state).toMatchObject({ status: 'searching', found: 3000 });
    expect(hook.result.current.state.leads[2999]).toEqual(lead(2999));
    hook.unmount();
  });
});

const lead = (i: number) => ({ name: `Cafe ${i}`, address: 'x', phone: '', website: '', placeId: `p${i}` });
/** The server's numbered events of one search: start, five leads, complete. */
const events: Array<[string, unknown]> = [
  ['1', { type: 'start', businessType: 'cafe', location: 'Paris', searchId: 's-1' }],
  ...[1, 2, 3, 4, 5].map((i): [string, unknown] => [String(i + 1), { type: 'business_found', name: `Cafe ${i}`, found: i, total: 5, lead: lead(i) }]),
  ['7', { type: 'complete', results: [1, 2, 3, 4, 5].map(lead), search: query }],
];
const after = (last: string | undefined) => events.filter(([id]) => Number(id) > Number(last ?? 0));

describe('useLeadSearch when the server stops (issue #31)', () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    watchedSearches.clear();
  });

  it('picks the search up after a `reconnect` event, from the last numbered event, each lead once', async () => {
    const stream: StreamFn = async (_q, onData) => {
      for (const [id, data] of events.slice(0, 3)) onData(data, id);
      // The API server is stopping: a frame without an id, then the end of the stream.
      onData({ type: 'reconnect', searchId: 's-1', message: 'This server is restarting; the search goes on.' }, undefined);
    };
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const resume = vi.fn<ResumeFn>(async (_id, lastEventId, onData) => {
      await gate;
      for (const [id, data] of after(lastEventId)) onData(data, id);
    });
    const hook = renderHook(() => useLeadSearch({ stream, resume, reconnectDelaysMs: [0, 0] }));
    let pending: Promise<void> = Promise.resolve();
    act(() => {
      pending = hook.result.current.start(query);
    });
    await vi.waitFor(() => expect(resume).toHaveBeenCalledTimes(1));
    // Not a failure: the search shows as going on, with the short "Reconnecting" line.
    expect(hook.result.current.state).toMatchObject({ status: 'searching', reconnecting: true, error: null, found: 2 });
    expect(resume.mock.calls[0]!.slice(0, 2)).toEqual(['s-1', '3']);
    release();
    await act(() => pending);
    expect(hook.result.current.state).toMatchObject({ status: 'complete', found: 5, error: null, reconnecting: false });
    expect(hook.result.current.state.results?.map((l) => l.placeId)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
  });

  it('picks up a search still waiting in the queue by the id the answer named, before any event', async () => {
    const stream: StreamFn = async (_q, _onData, _signal, onSearchId) => {
      // The answer's X-Search-Id header; the server stops before a worker starts it.
      onSearchId?.('s-1');
    };
    const resume = vi.fn<ResumeFn>(async (_id, lastEventId, onData) => {
      for (const [id, data] of after(lastEventId)) onData(data, id);
    });
    const hook = renderHook(() => useLeadSearch({ stream, resume, reconnectDelaysMs: [0] }));
    await act(() => hook.result.current.start(query));
    expect(resume).toHaveBeenCalledWith('s-1', undefined, expect.any(Function), expect.any(AbortSignal));
    expect(hook.result.current.state).toMatchObject({ status: 'complete', found: 5, searchId: 's-1' });
  });

  it('knows the id at once, for a reload and for cancelling, while the search waits in the queue', async () => {
    const stream: StreamFn = (_q, _onData, _signal, onSearchId) => {
      onSearchId?.('s-queued');
      return new Promise<void>(() => undefined);
    };
    const hook = renderHook(() => useLeadSearch({ stream, resume: vi.fn<ResumeFn>() }));
    act(() => void hook.result.current.start(query));
    await vi.waitFor(() => expect(hook.result.current.state.searchId).toBe('s-queued'));
    expect(readLiveSearch()).toEqual({ searchId: 's-queued', lastEventId: '', query });
    hook.unmount();
  });

  it('gives up after its tries when no server answers, saying so', async () => {
    const stream: StreamFn = async (_q, onData) => {
      onData(events[0]![1], '1');
      onData({ type: 'reconnect', searchId: 's-1', message: 'restarting' });
    };
    const resume = vi.fn<ResumeFn>(async () => {
      throw new StreamError('HTTP 503: Service Unavailable', 503);
    });
    const hook = renderHook(() => useLeadSearch({ stream, resume, reconnectDelaysMs: [0, 0, 0] }));
    await act(() => hook.result.current.start(query));
    expect(resume).toHaveBeenCalledTimes(3);
    expect(hook.result.current.state).toMatchObject({ status: 'error', error: 'HTTP 503: Service Unavailable' });
  });
});

describe('useLeadSearch reconnect (issue #13)', () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    watchedSearches.clear();
  });

  it('reads the events again after Last-Event-ID when the stream drops, each lead once', async () => {
    const shown: string[] = [];
    const stream: StreamFn = async (_q, onData) => {
      for (const [id, data] of events.slice(0, 4)) onData(data, id);
      throw new TypeError('network error');
    };
    const resume = vi.fn<ResumeFn>(async (searchId, lastEventId, onData) => {
      expect(searchId).toBe('s-1');
      // A server that resends one event already shown: the hook still shows it once.
      for (const [id, data] of [events[3]!, ...after(lastEventId)]) onData(data, id);
    });
    const hook = renderHook(() => useLeadSearch({ stream, resume, reconnectDelaysMs: [0, 0] }));
    await act(() => hook.result.current.start(query));
    expect(resume).toHaveBeenCalledTimes(1);
    expect(resume.mock.calls[0]![1]).toBe('4');
    shown.push(...hook.result.current.state.names);
    expect(shown).toEqual(['Cafe 1', 'Cafe 2', 'Cafe 3', 'Cafe 4', 'Cafe 5']);
    expect(hook.result.current.state).toMatchObject({ status: 'complete', found: 5, searchId: 's-1', reconnecting: false });
    // Finished: nothing left to resume on reload, and no background notice for it.
    expect(readLiveSearch()).toBeNull();
    expect(watchedSearches.has('s-1')).toBe(true);
  });

  it('keeps trying after repeated drops, then reports the failure', async () => {
    const stream: StreamFn = async (_q, onData) => {
      onData(events[0]![1], '1');
      throw new TypeError('network error');
    };
    const resume = vi.fn<ResumeFn>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const hook = renderHook(() => useLeadSearch({ stream, resume, reconnectDelaysMs: [0, 0, 0] }));
    await act(() => hook.result.current.start(query));
    expect(resume).toHaveBeenCalledTimes(3);
    expect(hook.result.current.state).toMatchObject({ status: 'error', error: 'Failed to start streaming search' });
  });

  it("shows the server's message when the results are gone (410), without retrying", async () => {
    const message = "This search's results are gone: we keep them in memory for 10 minutes only and never store lead data. Run it again.";
    const stream: StreamFn = async (_q, onData) => {
      onData(events[0]![1], '1');
      throw new TypeError('network error');
    };
    const resume = vi.fn<ResumeFn>(async () => {
      throw new StreamError(message, 410);
    });
    const hook = renderHook(() => useLeadSearch({ stream, resume, reconnectDelaysMs: [0, 0, 0] }));
    await act(() => hook.result.current.start(query));
    expect(resume).toHaveBeenCalledTimes(1);
    expect(hook.result.current.state).toMatchObject({ status: 'error', error: message });
  });

  it('resumes a search after a reload from the stored search id and last event id', async () => {
    writeLiveSearch({ searchId: 's-1', lastEventId: '3', query });
    const resume = vi.fn<ResumeFn>(async (_id, lastEventId, onData) => {
      for (const [id, data] of after(lastEventId)) onData(data, id);
    });
    const stream = vi.fn<StreamFn>();
    const hook = renderHook(() => useLeadSearch({ stream, resume, reconnectDelaysMs: [0] }));
    await vi.waitFor(() => expect(hook.result.current.state.status).toBe('complete'));
    expect(stream).not.toHaveBeenCalled();
    expect(resume).toHaveBeenCalledWith('s-1', '3', expect.any(Function), expect.any(AbortSignal));
    expect(hook.result.current.state.names).toEqual(['Cafe 3', 'Cafe 4', 'Cafe 5']);
    expect(hook.result.current.state.results).toHaveLength(5);
  });

  it('remembers the running search for a reload, and a stream ending early without a search id still fails', async () => {
    let release: () => void = () => undefined;
    const stream: StreamFn = (_q, onData) => {
      for (const [id, data] of events.slice(0, 3)) onData(data, id);
      return new Promise((resolve) => (release = resolve));
    };
    const hook = renderHook(() => useLeadSearch({ stream, resume: vi.fn<ResumeFn>(), reconnectDelaysMs: [] }));
    let pending: Promise<void> = Promise.resolve();
    act(() => {
      pending = hook.result.current.start(query);
    });
    await vi.waitFor(() => expect(readLiveSearch()).toEqual({ searchId: 's-1', lastEventId: '3', query }));
    release();
    await act(() => pending);
    expect(hook.result.current.state).toMatchObject({ status: 'error', error: 'Stream processing failed' });
    expect(readLiveSearch()).toBeNull();
  });

  it('forgets a search left before its end, so its end gets the background notice', async () => {
    const stream: StreamFn = (_q, onData) => {
      onData(events[0]![1], '1');
      return new Promise(() => undefined);
    };
    const hook = renderHook(() => useLeadSearch({ stream, resume: vi.fn<ResumeFn>() }));
    act(() => void hook.result.current.start(query));
    expect(watchedSearches.has('s-1')).toBe(true);
    hook.unmount();
    expect(watchedSearches.has('s-1')).toBe(false);
    // Still remembered for the return to the page.
    expect(readLiveSearch()).toMatchObject({ searchId: 's-1', lastEventId: '1' });
  });

  it('stops showing a search the user cancelled', async () => {
    const stream: StreamFn = (_q, onData) => {
      onData(events[0]![1], '1');
      return new Promise(() => undefined);
    };
    const hook = renderHook(() => useLeadSearch({ stream, resume: vi.fn<ResumeFn>() }));
    act(() => void hook.result.current.start(query));
    await vi.waitFor(() => expect(hook.result.current.state.searchId).toBe('s-1'));
    act(() => hook.result.current.stop('other'));
    expect(hook.result.current.state.status).toBe('searching');
    act(() => hook.result.current.stop('s-1'));
    expect(hook.result.current.state.status).toBe('idle');
    expect(readLiveSearch()).toBeNull();
  });
});

