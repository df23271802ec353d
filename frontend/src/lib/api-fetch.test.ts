import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render';
import { operationErrorMessage } from './api-error-messages';
import { ApiError, apiFetch } from './api-fetch';

afterEach(() => vi.unstubAllGlobals());

describe('apiFetch', () => {
  it('adds the stored bearer token and parses JSON', async () => {
    localStorage.setItem('authToken', 'x.y.z');
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse({ ok: 1 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiFetch('/api/thing', { method: 'POST', body: '{}' })).resolves.toEqual({ ok: 1 });
    const headers: Headers = fetchMock.mock.calls[0][1].headers;
    expect(headers.get('Authorization')).toBe('Bearer x.y.z');
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('sends no Authorization header without a token', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiFetch('/api/x')).resolves.toBeUndefined();
    expect(fetchMock.mock.calls[0][1].headers.has('Authorization')).toBe(false);
  });

  it("throws ApiError with the server's message, then its error code", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ error: 'quota', message: 'Monthly limit exceeded' }, 429)));
    const error = await apiFetch('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'quota', message: 'Monthly limit exceeded' });

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ error: 'quota' }, 429)));
    await expect(apiFetch('/api/x')).rejects.toThrow('quota');
  });

  it("uses the operation's default only when the server gave no text", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('', { status: 500, statusText: 'Internal Server Error' })));
    const failure = await apiFetch('/api/user/api-key', { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 500, message: 'Failed to save API key', serverMessage: undefined });

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ message: 'Key rejected by Google' }, 400)));
    await expect(apiFetch('/api/user/api-key', { method: 'POST', body: '{}' })).rejects.toThrow('Key rejected by Google');
  });

  it('a request may replace the default; the body stays as the server sent it', async () => {
    const body = { error: 'reauth', needsReauth: true };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(body, 403)));
    const failure = await apiFetch('/api/leads/sheets', { errorMessage: 'Not now' }).catch((e: unknown) => e);
    // The code is the server's text of last resort, before any default.
    expect(failure).toMatchObject({ status: 403, code: 'reauth', message: 'reauth', body });

    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 502, statusText: 'Bad Gateway' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiFetch('/api/user/api-key', { method: 'POST', body: '{}', errorMessage: 'Failed to delete API key' })).rejects.toThrow(
      /^Failed to delete API key$/,
    );
    // The option is the mutator's, not fetch's.
    expect(fetchMock.mock.calls[0][1]).not.toHaveProperty('errorMessage');
  });

  it('an unreachable server gives the default text; an operation without one keeps HTTP status text', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const failure = await apiFetch('/api/leads/usage').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe('Failed to get usage stats');

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('', { status: 500, statusText: 'Internal Server Error' })));
    await expect(apiFetch('/api/health')).rejects.toThrow('HTTP 500: Internal Server Error');
  });

  it('passes an abort through untouched', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(abort));
    await expect(apiFetch('/api/leads/usage')).rejects.toBe(abort);
  });
});

describe('operationErrorMessage', () => {
  it('matches method and path, with path parameters and without the query', () => {
    expect(operationErrorMessage('GET', '/api/leads/sheets')).toBe('Failed to get sheets');
    expect(operationErrorMessage('get', '/api/leads/sheets/1AbC%2Fx/worksheets')).toBe('Failed to get worksheets');
    expect(operationErrorMessage(undefined, '/api/leads/usage?x=1')).toBe('Failed to get usage stats');
    expect(operationErrorMessage('POST', '/api/leads/usage')).toBeUndefined();
    expect(operationErrorMessage('GET', '/api/leads/sheets/a/b/worksheets')).toBeUndefined();
  });
});
