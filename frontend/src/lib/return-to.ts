import type { Lead, SearchQuery } from './lead';

// What survives a trip through the identity provider (re-authentication for Sheets):
// where the user was, and the search results they were about to export. Both live in
// sessionStorage (this tab only, never sent anywhere) and are dropped once read or
// after RETURN_TTL_MS, so an abandoned consent screen leaves nothing behind for long.

const RETURN_TO_KEY = 'leadgen:returnTo';
const RESULTS_KEY = 'leadgen:returnResults';

/** How long a remembered place or result set stays usable. */
export const RETURN_TTL_MS = 30 * 60 * 1000;

/** Search results kept across the re-authentication redirect. */
export interface StashedResults {
  results: Lead[];
  search: SearchQuery;
}

interface Stamped<T> {
  at: number;
  value: T;
}

function write(key: string, value: unknown) {
  try {
    window.sessionStorage.setItem(key, JSON.stringify({ at: Date.now(), value } satisfies Stamped<unknown>));
  } catch {
    // Storage unavailable or full: the user lands on the default page instead.
  }
}

function read<T>(key: string): T | null {
  try {
    const raw = window.sessionStorage.getItem(key);
    if (!raw) return null;
    const stamped = JSON.parse(raw) as Stamped<T>;
    if (typeof stamped?.at !== 'number' || Date.now() - stamped.at > RETURN_TTL_MS || Date.now() < stamped.at) {
      window.sessionStorage.removeItem(key);
      return null;
    }
    return stamped.value ?? null;
  } catch {
    return null;
  }
}

function remove(key: string) {
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // Nothing to remove.
  }
}

/** A path inside this app: starts with one slash, and is not an auth return page. */
export function isAppPath(path: unknown): path is string {
  return (
    typeof path === 'string' &&
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.startsWith('/\\') &&
    !path.startsWith('/auth/') &&
    !path.startsWith('/api/')
  );
}

/** Remembers where to come back to after the identity provider (path plus query). */
export function rememberReturnTo(path: string): void {
  if (isAppPath(path)) write(RETURN_TO_KEY, path);
}

/** Whether a return path is waiting (without taking it). */
export function hasReturnTo(): boolean {
  return isAppPath(read<string>(RETURN_TO_KEY));
}

/** The remembered path, removed as it is read; null when none, stale or not ours. */
export function takeReturnTo(): string | null {
  const path = read<string>(RETURN_TO_KEY);
  remove(RETURN_TO_KEY);
  return isAppPath(path) ? path : null;
}

/** Keeps the results shown when the user left for re-authentication. */
export function stashResults(stash: StashedResults): void {
  write(RESULTS_KEY, stash);
}

function isStash(value: unknown): value is StashedResults {
  if (typeof value !== 'object' || value === null) return false;
  const { results, search } = value as Partial<StashedResults>;
  return (
    Array.isArray(results) &&
    typeof search?.businessType === 'string' &&
    typeof search.location === 'string' &&
    results.every((lead) => typeof lead?.name === 'string' && typeof lead.placeId === 'string')
  );
}

/**
 * The stashed results without removing them (a render may run twice in development);
 * call {@link clearStashedResults} once they are shown.
 */
export function peekStashedResults(): StashedResults | null {
  const value = read<unknown>(RESULTS_KEY);
  return isStash(value) ? value : null;
}

export function clearStashedResults(): void {
  remove(RESULTS_KEY);
}

/** Forgets both (at logout: nothing of this user's stays in the tab). */
export function forgetReturnState(): void {
  remove(RETURN_TO_KEY);
  remove(RESULTS_KEY);
}
