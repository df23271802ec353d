import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/render';
import { apiFetch, buildHeaders } from '../api-fetch';
import { clearLiveSearch, readLiveSearch, writeLiveSearch } from '../live-search-store';
import { currentWorkspaceId, enterWorkspace, isWorkspaceId, WORKSPACE_HEADER, workspaceSearch } from './current-workspace';

const A = '0192f0c4-7a1e-7c3b-9a51-2f0d5f6b8e21';
const B = '0192f0c4-7a1e-7c3b-9a51-2f0d5f6b8e22';

afterEach(() => {
  enterWorkspace(undefined, new QueryClient());
  vi.unstubAllGlobals();
});

describe('the ws search parameter', () => {
  it('keeps any non-empty id, trimmed, even a malformed one (the page reports it)', () => {
    expect(workspaceSearch({ ws: ` ${A} ` })).toEqual({ ws: A });
    expect(workspaceSearch({ ws: 'not-an-id' })).toEqual({ ws: 'not-an-id' });
  });

  it('means the personal workspace when absent, blank or not a string', () => {
    expect(workspaceSearch({})).toEqual({});
    expect(workspaceSearch({ ws: '  ' })).toEqual({});
    expect(workspaceSearch({ ws: 42 })).toEqual({});
    expect(workspaceSearch({ ws: [A] })).toEqual({});
  });

  it('tells a workspace id (a UUID) from anything else', () => {
    expect(isWorkspaceId(A)).toBe(true);
    expect(isWorkspaceId(A.toUpperCase())).toBe(true);
    expect(isWorkspaceId(`${A}x`)).toBe(false);
    expect(isWorkspaceId('personal')).toBe(false);
  });
});

describe('entering a workspace', () => {
  it("empties the cache when the workspace changes, so no answer of one shows in another", () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(['/api/leads/usage'], { personal: true });
    expect(enterWorkspace(A, queryClient)).toBe(true);
    expect(currentWorkspaceId()).toBe(A);
    expect(queryClient.getQueryData(['/api/leads/usage'])).toBeUndefined();

    queryClient.setQueryData(['/api/leads/usage'], { workspace: A });
    // The same workspace again (another page of it): the cache stays.
    expect(enterWorkspace(A, queryClient)).toBe(false);
    expect(queryClient.getQueryData(['/api/leads/usage'])).toEqual({ workspace: A });

    expect(enterWorkspace(B, queryClient)).toBe(true);
    expect(queryClient.getQueryData(['/api/leads/usage'])).toBeUndefined();
  });

  it('cancels a read in flight: its late answer lands nowhere', async () => {
    const queryClient = new QueryClient();
    let answer: (value: unknown) => void = () => {};
    const read = queryClient.fetchQuery({ queryKey: ['/api/leads/usage'], queryFn: () => new Promise((resolve) => (answer = resolve)) });
    enterWorkspace(A, queryClient);
    answer({ workspace: 'personal' });
    await read.catch(() => undefined);
    expect(queryClient.getQueryData(['/api/leads/usage'])).toBeUndefined();
  });
});

describe('the Leadgen-Workspace header', () => {
  it('is sent with the current workspace on every generated call', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse({}));
    vi.stubGlobal('fetch', fetchMock);
    enterWorkspace(A, new QueryClient());
    await apiFetch('/api/leads/usage');
    expect((fetchMock.mock.calls[0][1].headers as Headers).get(WORKSPACE_HEADER)).toBe(A);
  });

  it('is absent in the personal workspace (the API acts there by default)', () => {
    expect(buildHeaders().has(WORKSPACE_HEADER)).toBe(false);
  });

  it("never replaces one the caller set", () => {
    enterWorkspace(A, new QueryClient());
    expect(buildHeaders({ [WORKSPACE_HEADER]: B }).get(WORKSPACE_HEADER)).toBe(B);
  });
});

describe('the live search record', () => {
  it('belongs to the workspace it was started in', () => {
    const query = { businessType: 'dentist', location: 'Austin, TX' } as Parameters<typeof writeLiveSearch>[0]['query'];
    writeLiveSearch({ searchId: 's-personal', lastEventId: '1', query });
    enterWorkspace(A, new QueryClient());
    expect(readLiveSearch()).toBeNull();
    writeLiveSearch({ searchId: 's-a', lastEventId: '2', query });
    clearLiveSearch();
    expect(readLiveSearch()).toBeNull();
    enterWorkspace(undefined, new QueryClient());
    expect(readLiveSearch()?.searchId).toBe('s-personal');
  });
});
