import { afterEach, describe, expect, it, vi } from 'vitest';
import { postSse } from './sse-stream';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('postSse', () => {
  it('POSTs JSON with the bearer token and parses events split across chunks', async () => {
    localStorage.setItem('authToken', 'a.b.c');
    const fetchMock = vi.fn().mockResolvedValue(
      new Response(streamOf(['id: 1\ndata: {"type":"start","busi', 'nessType":"cafe"}\n\n: keep-alive\n\nid: 2\nda', 'ta: {"type":"complete","results":[]}\n\n']), {
        status: 200,
        headers: { 'Content-Type': 'text/event-stream' },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const events: Array<[unknown, string | undefined]> = [];
    await postSse({ url: '/api/leads/search-stream', body: { businessType: 'cafe', location: 'Paris' }, onEvent: (d, id) => events.push([d, id]) });

    expect(events).toEqual([
      [{ type: 'start', businessType: 'cafe' }, '1'],
      [{ type: 'complete', results: [] }, '2'],
    ]);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/leads/search-stream');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"businessType":"cafe","location":"Paris"}');
    expect(init.headers.get('Authorization')).toBe('Bearer a.b.c');
    expect(init.headers.get('Accept')).toBe('text/event-stream');
  });

  it('hands over the answer headers before any event, and keeps an id-less frame without an id', async () => {
    const order: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        new Response(streamOf(['data: {"type":"reconnect","searchId":"s-9","message":"m"}\n\n']), {
          status: 200,
          headers: { 'Content-Type': 'text/event-stream', 'X-Search-Id': 's-9' },
        }),
      ),
    );
    await postSse({
      url: '/s',
      body: {},
      onOpen: (headers) => order.push(`open ${headers.get('X-Search-Id')}`),
      onEvent: (data, id) => order.push(`${(data as { type: string }).type} ${id ?? 'no id'}`),
    });
    expect(order).toEqual(['open s-9', 'reconnect no id']);
  });

  it("uses the body's message, then error, then 'HTTP {status}: {statusText}'", async () => {
    const run = () => postSse({ url: '/s', body: {}, onEvent: () => {} });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{"error":"no_key","message":"Add a key"}', { status: 400 })));
    await expect(run()).rejects.toThrow('Add a key');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('{"error":"no_key"}', { status: 400 })));
    await expect(run()).rejects.toThrow('no_key');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('oops', { status: 502, statusText: 'Bad Gateway' })));
    await expect(run()).rejects.toThrow('HTTP 502: Bad Gateway');
  });

  it("fails with 'No response body reader available' when there is no body", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(null, { status: 200 })));
    await expect(postSse({ url: '/s', body: {}, onEvent: () => {} })).rejects.toThrow('No response body reader available');
  });
});
