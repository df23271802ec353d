import { getStoredToken } from './auth-token';

/**
 * Error thrown for every non-OK API answer. `message` is the server's human
 * `message`, else its `error` code, else `HTTP {status}: {statusText}` (spec
 * section 8). `serverMessage` tells whether the server supplied any text, so a
 * caller can substitute the spec's default for its operation.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;
  readonly body: unknown;

  constructor(status: number, statusText: string, body: unknown) {
    const record = isRecord(body) ? body : {};
    const serverMessage = nonEmptyString(record.message) ?? nonEmptyString(record.error);
    super(serverMessage ?? `HTTP ${status}: ${statusText}`.trim());
    this.name = 'ApiError';
    this.status = status;
    this.code = nonEmptyString(record.error);
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

/** Error type orval uses for generated hooks (it reads this export by name). */
export type ErrorType<_E = unknown> = ApiError;

/** Request body type orval uses for generated mutations. */
export type BodyType<B> = B;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Builds request headers: JSON by default and the stored bearer token unless the caller set one. */
export function buildHeaders(init?: HeadersInit, token: string | null = getStoredToken()): Headers {
  const headers = new Headers(init);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
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
 * `Authorization: Bearer <authToken>` (unless the caller passed its own header),
 * parses JSON and throws {@link ApiError} on non-OK answers.
 */
export async function apiFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = buildHeaders(init.headers);
  if (init.body !== undefined && init.body !== null && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  const response = await fetch(url, { ...init, headers });
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, response.statusText, body);
  return body as T;
}

export default apiFetch;

/**
 * Replaces an error's message by the operation's default from the spec's error
 * catalogue when the server gave no text of its own.
 */
export function withDefaultMessage(error: unknown, fallback: string): Error {
  if (error instanceof ApiError) {
    if (error.serverMessage) return error;
    // Keep the rest of the body (e.g. `needsReauth`), replacing only the text.
    const rest = isRecord(error.body) ? error.body : {};
    return new ApiError(error.status, '', { ...rest, error: error.code, message: fallback });
  }
  // A TypeError here is fetch's own network failure ("Failed to fetch"), whose text
  // means nothing to a user: the operation's default reads better.
  if (error instanceof Error && error.message && !(error instanceof TypeError)) return error;
  return new Error(fallback);
}

/** Runs an API call and maps a text-less failure to the operation's default message. */
export async function callWithDefault<T>(call: () => Promise<T>, fallback: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw withDefaultMessage(error, fallback);
  }
}

/** Convenience for JSON request bodies in hand-written calls. */
export function jsonBody(value: unknown): Pick<RequestInit, 'body' | 'headers'> {
  return { body: JSON.stringify(value), headers: { 'Content-Type': 'application/json' } };
}
