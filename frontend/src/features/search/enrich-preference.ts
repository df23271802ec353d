// Whether the search form's "Find emails and social profiles" box starts ticked: the
// user's last choice, kept in this browser per user id (docs/decisions.md, "Enrichment
// preference"). Storage may be unavailable (private mode, blocked): then it starts
// unticked and nothing is remembered.

const KEY_PREFIX = 'leadgen:enrich:';

/** The remembered choice of user `userId` (false when none, or no user). */
export function readEnrichPreference(userId: string | null | undefined): boolean {
  if (!userId) return false;
  try {
    return window.localStorage.getItem(KEY_PREFIX + userId) === '1';
  } catch {
    return false;
  }
}

/** Remembers user `userId`'s choice. */
export function writeEnrichPreference(userId: string | null | undefined, enrich: boolean): void {
  if (!userId) return;
  try {
    if (enrich) window.localStorage.setItem(KEY_PREFIX + userId, '1');
    else window.localStorage.removeItem(KEY_PREFIX + userId);
  } catch {
    // Not remembered; the box still works for this search.
  }
}
