import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

// The workspace the app acts in (issue #28 item 4). The address says which one (`?ws=<id>`,
// kept across navigation by the `_authed` layout's search middleware; absent: the personal
// workspace), and the layout's `beforeLoad` copies it here before any loader runs, so the
// fetch mutator (api-fetch.ts) can send it as `Leadgen-Workspace` on every call without
// each caller passing it. React reads it with `useCurrentWorkspaceId`.

/** The request header that chooses the workspace an operation acts in. */
export const WORKSPACE_HEADER = 'Leadgen-Workspace';

/** The search parameter that carries the current workspace's id. */
export const WORKSPACE_PARAM = 'ws';

/** A workspace id as the API writes it (a UUID). */
const WORKSPACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isWorkspaceId(value: string): boolean {
  return WORKSPACE_ID.test(value);
}

/** The `_authed` layout's search: `ws`, kept as written (even malformed, so the page can say so). */
export interface WorkspaceSearch {
  ws?: string;
}

/**
 * Validates the `ws` search parameter: any non-empty string is kept (a malformed one is
 * reported by the page, never silently replaced by the personal workspace, whose data
 * a shared link must not open); anything else means the personal workspace.
 */
export function workspaceSearch(search: Record<string, unknown>): WorkspaceSearch {
  const ws = search[WORKSPACE_PARAM];
  if (typeof ws === 'string' && ws.trim() !== '') return { ws: ws.trim() };
  return {};
}

let current: string | undefined;
const listeners = new Set<() => void>();

/** The current workspace's id; `undefined` is the personal workspace. */
export function currentWorkspaceId(): string | undefined {
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current workspace's id, re-rendering when it changes. */
export function useCurrentWorkspaceId(): string | undefined {
  return useSyncExternalStore(subscribe, currentWorkspaceId, currentWorkspaceId);
}

/**
 * Makes `id` the current workspace. When it changes, every cached query is removed
 * (which also cancels the ones in flight, whose answers then land nowhere): the cache only
 * ever holds the current workspace's answers, since the generated query keys cannot say
 * which workspace an answer came from. Returns whether it changed.
 */
export function enterWorkspace(id: string | undefined, queryClient: QueryClient): boolean {
  if (id === current) return false;
  current = id;
  queryClient.removeQueries();
  for (const listener of listeners) listener();
  return true;
}
