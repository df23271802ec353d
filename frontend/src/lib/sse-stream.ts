import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { buildHeaders } from './api-fetch';

export interface SseRequest {
  url: string;
  body: unknown;
  signal?: AbortSignal;
  /** Overrides the stored token (tests); the stored `authToken` is used otherwise. */
  token?: string | null;
  /** Resume after this event id (server replay buffer). */
  lastEventId?: string;
  /** Called with each parsed `data:` JSON payload and its SSE id. */
  onEvent: (data: unknown, id: string | undefined) => void;
  /** Called with the answer's headers once it is accepted (200), before any event. */
  onOpen?: (headers: Headers) => void;
}

/** Error from the stream reader; `message` is what the UI shows. */
export class StreamError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'StreamError';
    this.status = status;
  }
}

async function errorMessageOf(response: Response): Promise<string> {
  const fallback = `HTTP ${response.status}: ${response.statusText}`.trim();
  try {
    const text = await response.text();
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
    if (typeof body.error === 'string' && body.error) return body.error;
  } catch {
    // Not JSON: keep the status line.
  }
  return fallback;
}

/**
 * POSTs a JSON body and reads the `text/event-stream` answer incrementally
 * (EventSource cannot send a bearer header). Resolves when the stream ends.
 * Messages follow spec section 8: body `message`, then `error`, else
 * 'HTTP {status}: {statusText}'; 'No response body reader available'.
 */
export async function postSse({ url, body, signal, token, lastEventId, onEvent, onOpen }: SseRequest): Promise<void> {
  const headers = buildHeaders({ Accept: 'text/event-stream', 'Content-Type': 'application/json' }, token === undefined ? undefined : token);
  if (lastEventId) headers.set('Last-Event-ID', lastEventId);

  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal,
    cache: 'no-store',
  });
  return readSse(response, onEvent, onOpen);
}

/**
 * GETs an event stream (a search's events again, `GET /api/leads/searches/{id}/events`),
 * after `lastEventId` when given; same errors and parsing as {@link postSse}.
 */
export async function getSse({ url, signal, token, lastEventId, onEvent }: Omit<SseRequest, 'body'>): Promise<void> {
  const headers = buildHeaders({ Accept: 'text/event-stream' }, token === undefined ? undefined : token);
  if (lastEventId) headers.set('Last-Event-ID', lastEventId);
  const response = await fetch(url, { method: 'GET', headers, signal, cache: 'no-store' });
  return readSse(response, onEvent);
}

async function readSse(response: Response, onEvent: SseRequest['onEvent'], onOpen?: SseRequest['onOpen']): Promise<void> {
  if (!response.ok) throw new StreamError(await errorMessageOf(response), response.status);
  if (!response.body) throw new StreamError('No response body reader available');
  onOpen?.(response.headers);

  let parseFailure: Error | null = null;
  const parser = createParser({
    onEvent(message: EventSourceMessage) {
      if (!message.data) return;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        parseFailure = new StreamError('Stream processing failed');
        return;
      }
      onEvent(data, message.id);
    },
  });

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (parseFailure) throw parseFailure;
    }
    parser.feed(decoder.decode());
    // A final event without its blank line still counts.
    parser.feed('\n\n');
    if (parseFailure) throw parseFailure;
  } finally {
    reader.releaseLock();
  }
}
