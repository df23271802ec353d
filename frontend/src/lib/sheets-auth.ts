import type { QueryClient } from '@tanstack/react-query';
import type { SheetsAuthStatus } from '../api/gen/model/sheetsAuthStatus';
import { getGetSheetsAuthStatusQueryOptions, useGetSheetsAuthStatus } from '../api/gen/sheets/sheets';
import { ApiError } from './api-fetch';
import { goToPage } from './page-navigation';
import { rememberReturnTo } from './return-to';
import { SHEETS_SIGN_IN_PATH } from './session/session-api';

// The Google Sheets grant, shared by the export (dashboard) and the Spreadsheet row
// (settings): both ask whether exports can go ahead and both send the user through
// re-authentication.

export type { SheetsAuthStatus };

/** The feature named in the re-authentication dialog (spec section 2, Spreadsheet). */
export const SHEETS_FEATURE = 'Google Sheets export';

/** Default re-authentication texts (spec section 8, Sheets). */
export const REAUTH_REQUIRED = 'Re-authentication required';
export const AUTH_EXPIRED = 'Authentication expired';

/**
 * What a failed `GET /api/leads/sheets/auth-status` counts as: unauthenticated with
 * needsReauth and the message 'Failed to check authentication status' (spec section 4);
 * but Sheets switched off on this server is not something re-authenticating can fix.
 */
export function sheetsStatusAfterFailure(error: unknown): SheetsAuthStatus {
  if (isSheetsUnavailable(error)) {
    return { success: false, authenticated: false, hasRefreshToken: false, needsReauth: false, message: error.message };
  }
  return {
    success: false,
    authenticated: false,
    hasRefreshToken: false,
    needsReauth: true,
    message: 'Failed to check authentication status',
  };
}

// Checked afresh each time it matters, and never retried: a failed check has a meaning
// of its own (above), and the user is waiting for it.
const statusQuery = { staleTime: 0, retry: false } as const;

/**
 * `GET /api/leads/sheets/auth-status` as a query: `status` is the answer, or what a
 * failed check counts as; `checking` while a check is under way.
 */
export function useSheetsAuthStatus() {
  const query = useGetSheetsAuthStatus({ query: statusQuery });
  const status = query.data ?? (query.isError ? sheetsStatusAfterFailure(query.error) : undefined);
  return { status, checking: query.isPending || query.isFetching };
}

/** Checks the grant now (through the query cache), for an action about to start. */
export async function checkSheetsAuth(queryClient: QueryClient): Promise<SheetsAuthStatus> {
  try {
    return await queryClient.fetchQuery(getGetSheetsAuthStatusQueryOptions({ query: statusQuery }));
  } catch (error) {
    return sheetsStatusAfterFailure(error);
  }
}

/** What the status means for the user. */
export type SheetsConnection = 'connected' | 'needs-reauth' | 'unavailable';

/**
 * `unavailable` is the server's answer when Sheets export is off (local sign-in mode):
 * not authenticated, yet re-authenticating would not help (it would loop through the
 * local sign-in), so no re-authentication is offered.
 */
export function sheetsConnection(status: SheetsAuthStatus): SheetsConnection {
  if (status.authenticated && !status.needsReauth) return 'connected';
  if (!status.needsReauth && !status.hasRefreshToken && !status.authenticated) return 'unavailable';
  return 'needs-reauth';
}

/** The message for the re-authentication prompt, with the spec's defaults. */
export function reauthMessage(message: string | undefined, expired = false): string {
  const text = message?.trim();
  if (text) return text;
  return expired ? AUTH_EXPIRED : REAUTH_REQUIRED;
}

/** 403, or 401 with `needsReauth`: the Google grant must be given again (spec section 8). */
export function isReauthError(error: unknown): error is ApiError {
  if (!(error instanceof ApiError)) return false;
  const needsReauth = isRecord(error.body) && error.body.needsReauth === true;
  return error.status === 403 || (error.status === 401 && needsReauth);
}

/** 503 `sheets_unavailable`: Sheets export is off on this server. */
export function isSheetsUnavailable(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 503 && error.code === 'sheets_unavailable';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The page the user is on (path and query), to come back to after re-authentication. */
export function currentAppPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * Sends the browser through the identity provider to grant Sheets access
 * (`/api/auth/google?feature=sheets`); the sign-in return page brings the user back
 * to `returnTo`.
 */
export function startSheetsReauth(returnTo: string = currentAppPath()): void {
  rememberReturnTo(returnTo);
  goToPage(SHEETS_SIGN_IN_PATH);
}
