import { operationErrorMessage } from './api-error-messages';
import { getStoredToken } from './auth-token';
import { currentWorkspaceId, WORKSPACE_HEADER } from './workspace/current-workspace';

/**
 * Error thrown for every non-OK API answer. `message` is the server's human
 * `message`, else its `error` code, else the operation's default (spec section 8,
 * see api-error-messages.ts), else `HTTP {status}: {statusText}`. `serverMessage`
 * tells whether the server supplied any text; `body` is the server's body as sent.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly body: unknown;

  constructor(status: number, statusText: string, body: unknown, defaultMessage?: string) {
    const record = isRecord(body) ? body : {};
    const serverMessage = nonEmptyString(record.message) ?? nonEmptyString(record.error);
    super(serverMessage ?? defaultMessage ?? `HTTP ${status}: ${statusText}`.trim());
    this.name = 'ApiError';
    this.status = status;
    this.code = nonEmptyString(record.error);
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

/**
 * Error type orval uses for generated hooks (it reads this export by name): an
 * {@link ApiError} for an answer, a plain `Error` with the operation's default text when
 * the server could not be reached.
 */
export type ErrorType<_E = unknown> = ApiError | Error;

/** Request body type orval uses for generated mutations. */
export type BodyType<B> = B;

/** `RequestInit` plus this app's options; generated hooks take it as `request`. */
export interface ApiRequestInit extends RequestInit {
  /** Replaces the operation's default error text for this use of it. */
  errorMessage?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * Builds request headers: JSON by default, the stored bearer token and the current
 * workspace (`Leadgen-Workspace`, none for the personal one, the API's default) unless
 * the caller set them. Every generated call (through {@link apiFetch}) and the hand-read
 * search stream (sse-stream.ts) build theirs here, so none can forget the workspace.
 */
export function buildHeaders(
  init?: HeadersInit,
  token: string | null = getStoredToken(),
  workspace: string | undefined = currentWorkspaceId(),
): Headers {
  const headers = new Headers(init);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
  if (workspace && !headers.has(WORKSPACE_HEADER)) headers.set(WORKSPACE_HEADER, workspace);
  return headers;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('Content-Type') ?? '';
  if (type.includes('json') || /^[[{]/.test(text.trim())) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The orval fetch mutator: every generated call goes through here. Adds
 * `Authorization: Bearer <authToken>` and `Leadgen-Workspace: <current workspace>`
 * (unless the caller passed its own headers),
 * parses JSON and throws {@link ApiError} on non-OK answers, with the operation's
 * default text when the server gave none.
 */
export async function apiFetch<T>(url: string, init: ApiRequestInit = {}): Promise<T> {
  const { errorMessage, ...requestInit } = init;
  const defaultMessage = errorMessage ?? operationErrorMessage(requestInit.method, url);
  const headers = buildHeaders(requestInit.headers);
  if (requestInit.body !== undefined && requestInit.body !== null && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  let response: Response;
  try {
    response = await fetch(url, { ...requestInit, headers });
  } catch (error) {
    // A TypeError is fetch's own network failure ("Failed to fetch"), whose text means
    // nothing to a user: the operation's default reads better. Aborts pass untouched.
    if (error instanceof TypeError && defaultMessage) throw new Error(defaultMessage, { cause: error });
    throw error;
  }
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, response.statusText, body, defaultMessage);
  return body as T;
}

export default apiFetch;
