// The default text of each operation's failure (spec section 8), used by the fetch
// mutator (api-fetch.ts) when the server's answer carries no `message` or `error` of its
// own, or when the server could not be reached. One table, so no call site repeats a
// default: generated hooks, query options and fetchers all get it.

/** `METHOD /path` as in openapi.json (path parameters as `{name}`) → default message. */
export const OPERATION_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  'GET /api/auth/me': 'Failed to get user info',
  'POST /api/auth/refresh': 'Failed to refresh token',
  'POST /api/user/complete-onboarding': 'Failed to complete onboarding',
  'GET /api/user/api-key/status': 'Failed to load API key status',
  'POST /api/user/api-key': 'Failed to save API key',
  'GET /api/leads/business-types': 'Failed to load business types',
  'GET /api/leads/usage': 'Failed to get usage stats',
  'POST /api/leads/search': 'Search failed',
  'POST /api/leads/test-api-key': 'API key test failed',
  'GET /api/leads/sheets/auth-status': 'Failed to check authentication status',
  'GET /api/leads/sheets': 'Failed to get sheets',
  'POST /api/leads/sheets/validate': 'Failed to validate spreadsheet',
  'GET /api/leads/sheets/{id}/worksheets': 'Failed to get worksheets',
  'POST /api/leads/export-to-sheets': 'Export failed',
  'GET /api/billing/plans': 'Failed to fetch plans',
  'POST /api/billing/create-checkout-session': 'Failed to start subscription process',
  'POST /api/billing/create-portal-session': 'Failed to create portal session',
  'GET /api/billing/status': 'Failed to fetch billing status',
  // The spec names no default for this read; it is part of the billing status.
  'GET /api/billing/subscription': 'Failed to fetch billing status',
};

/**
 * Defaults for one use of an operation whose meaning differs from the operation's own:
 * `POST /api/user/api-key` saves a key, but with an empty key it deletes it, and during
 * onboarding it is the key's validation step. Passed as the request option
 * `errorMessage` (e.g. `useSaveApiKey({ request: { errorMessage } })`).
 */
export const ERROR_MESSAGE_OVERRIDES = {
  deleteApiKey: 'Failed to delete API key',
  onboardingSaveKey: 'Failed to validate API key',
} as const;

const templates = Object.entries(OPERATION_ERROR_MESSAGES).map(([operation, message]) => {
  const [method, path] = operation.split(' ');
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return { method, pattern: new RegExp(`^${pattern}$`), message };
});

/** The default message for a request, or undefined when the operation has none. */
export function operationErrorMessage(method: string | undefined, url: string): string | undefined {
  const verb = (method ?? 'GET').toUpperCase();
  const path = url.split(/[?#]/)[0];
  return templates.find((t) => t.method === verb && t.pattern.test(path))?.message;
}
