import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../test/render';
import { ApiError, apiFetch, callWithDefault } from './api-fetch';

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

  it('callWithDefault substitutes the operation default only when the server gave no text', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('', { status: 500, statusText: 'Internal Server Error' })));
    await expect(callWithDefault(() => apiFetch('/api/x'), 'Failed to save API key')).rejects.toThrow('Failed to save API key');
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse({ message: 'Key rejected by Google' }, 400)));
    await expect(callWithDefault(() => apiFetch('/api/x'), 'Failed to save API key')).rejects.toThrow('Key rejected by Google');
  });
});
