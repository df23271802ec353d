import type { SearchQuery } from './lead';
import { currentWorkspaceId } from './workspace/current-workspace';

// The search the dashboard is streaming (issue #13), kept in sessionStorage so a reload
// resumes it after the last event it showed, and the ids streamed on this page, so the
// background-search notice stays quiet about a search the user is watching.

/**
 * One record per workspace (issue #28): a search lives in the workspace it was started
 * in, so coming back to the dashboard in another one must not resume it there.
 */
function storageKey(): string {
  const workspace = currentWorkspaceId();
  return workspace ? `leadgen:liveSearch:${workspace}` : 'leadgen:liveSearch';
}

export interface LiveSearchRecord {
  searchId: string;
  /** The last event number shown ('' before any). */
  lastEventId: string;
  query: SearchQuery;
}

export function readLiveSearch(): LiveSearchRecord | null {
  try {
    const raw = window.sessionStorage.getItem(storageKey());
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<LiveSearchRecord>;
    if (typeof value.searchId !== 'string' || !value.searchId || typeof value.query?.businessType !== 'string') return null;
    return { searchId: value.searchId, lastEventId: String(value.lastEventId ?? ''), query: value.query };
  } catch {
    return null;
  }
}

export function writeLiveSearch(record: LiveSearchRecord): void {
  try {
    window.sessionStorage.setItem(storageKey(), JSON.stringify(record));
  } catch {
    // Not remembered: a reload will not resume this search (the history still lists it).
  }
}

export function clearLiveSearch(): void {
  try {
    window.sessionStorage.removeItem(storageKey());
  } catch {
    // Nothing stored.
  }
}

/** Search ids a page is streaming, or streamed to their end (the user saw them finish). */
export const watchedSearches = new Set<string>();
