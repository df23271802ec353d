import { API_OPERATIONS, type OperationId } from '../api/operations.gen';

// The default text of each operation's failure (spec section 8), used by the fetch
// mutator (api-fetch.ts) when the server's answer carries no `message` or `error` of its
// own, or when the server could not be reached. One table, so no call site repeats a
// default: generated hooks, query options and fetchers all get it. Keyed by operation id
// (openapi.json's `operationId`, which names the generated hooks: `get_me` is `getMe`);
// api-error-messages.test.ts checks both tables against the contract.

/** Operation id → the default text of its failure. */
export const OPERATION_ERROR_MESSAGES = {
  get_me: 'Failed to get user info',
  refresh_session: 'Failed to refresh token',
  complete_onboarding: 'Failed to complete onboarding',
  get_api_key_status: 'Failed to load API key status',
  save_api_key: 'Failed to save API key',
  list_business_types: 'Failed to load business types',
  get_usage: 'Failed to get usage stats',
  search_leads: 'Search failed',
  // Shown after '“…” could not be shown on the map: ' under the area map.
  locate_area: 'Could not locate it.',
  test_api_key: 'API key test failed',
  // The spec's default for its key check; onboarding passes its own (ERROR_MESSAGE_OVERRIDES).
  check_api_key: 'API key test failed',
  list_searches: 'Could not load your searches.',
  list_clients: 'Could not load the client labels.',
  get_usage_breakdown: 'Could not load usage by member and client.',
  cancel_search: 'Could not cancel this search.',
  // Read by lib/server-export.ts (a file, not through the mutator), with this text.
  export_search: 'Could not export the results.',
  get_sheets_auth_status: 'Failed to check authentication status',
  list_sheets: 'Failed to get sheets',
  validate_sheet: 'Failed to validate spreadsheet',
  list_worksheets: 'Failed to get worksheets',
  export_to_sheets: 'Export failed',
  update_delivery: 'Could not save the delivery.',
  list_tokens: 'Failed to load your API tokens',
  create_token: 'Failed to create the API token',
  revoke_token: 'Failed to revoke the API token',
  list_webhooks: 'Failed to load your webhooks',
  create_webhook: 'Failed to add the webhook',
  delete_webhook: 'Failed to delete the webhook',
  list_webhook_deliveries: 'Failed to load the delivery log',
  rotate_webhook_secret: 'Failed to rotate the signing secret',
  test_webhook: 'Failed to send the test event',
  list_plans: 'Failed to fetch plans',
  create_checkout_session: 'Failed to start subscription process',
  create_portal_session: 'Failed to create portal session',
  get_billing_status: 'Failed to fetch billing status',
  // The spec names no default for this read; it is part of the billing status.
  get_subscription_status: 'Failed to fetch billing status',
  // Workspaces (issue #28): the header's switcher and Settings > Workspace.
  list_workspaces: 'Could not load your workspaces.',
  create_workspace: 'Could not create the workspace.',
  update_workspace: 'Could not update the workspace.',
  delete_workspace: 'Could not delete the workspace.',
  list_members: 'Could not load the members.',
  update_member: "Could not change the member's role.",
  remove_member: 'Could not remove the member.',
  forget_place_memory: 'Could not forget the place memory.',
  list_invitations: 'Could not load the pending invitations.',
  create_invitation: 'Could not make the invitation.',
  revoke_invitation: 'Could not revoke the invitation.',
  get_invitation: 'Could not read the invitation.',
  accept_invitation: 'Could not accept the invitation.',
  list_audit_events: 'Could not load the activity.',
  // Saved searches (issue #29): the Monitors page that follows.
  list_saved_searches: 'Could not load the saved searches.',
  get_saved_search: 'Could not load the saved search.',
  create_saved_search: 'Could not save the search.',
  update_saved_search: 'Could not change the saved search.',
  delete_saved_search: 'Could not delete the saved search.',
  run_saved_search: 'Could not run the saved search.',
} as const satisfies Partial<Record<OperationId, string>>;

/**
 * The operations that document failures yet have no default text here, each with the
 * reason a user never needs one (the test requires every operation to be in one table).
 */
export const OPERATIONS_WITHOUT_DEFAULT: Partial<Record<OperationId, string>> = {
  start_sign_in: 'a full-page navigation (SIGN_IN_PATH), never fetched: the server answers with its own page',
  finish_sign_in: "the identity provider's redirect target, never fetched: failures land on /auth/error",
  logout: 'its answer is ignored: the local session ends whatever happens (auth-provider.tsx)',
  get_auth_config: 'a failure only hides the local-mode note',
  get_site_config: "a failure keeps the spec's placeholders on the public pages (site-config.ts)",
  get_delivery: "a failure is not shown: the delivery card offers its choices with 'Nowhere' selected",
  get_search: 'read in the background by the finished-search notice; a failure is ignored and asked again',
  estimate_search:
    "shown inside 'Could not estimate the cost: ...' (run-again dialog) and beside the coverage choice, where the server's text reads right",
  search_leads_stream: "read by lib/sse-stream.ts, not the mutator, with the spec's stream texts",
  stream_search_events: "read by lib/sse-stream.ts, not the mutator, with the spec's stream texts",
  get_ready: "the platform's readiness probe; the web app never calls it",
};

/**
 * Defaults for one use of an operation whose meaning differs from the operation's own:
 * `save_api_key` saves a key, but with an empty key it deletes it, and during onboarding
 * it is the key's validation step. Passed as the request option `errorMessage` (e.g.
 * `useSaveApiKey({ request: { errorMessage } })`).
 */
export const ERROR_MESSAGE_OVERRIDES = {
  deleteApiKey: 'Failed to delete API key',
  onboardingSaveKey: 'Failed to validate API key',
} as const;

function templateOf(path: string): RegExp {
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`);
}

// The request → operation matcher, for the operations with a default only. Templates with
// fewer parameters first, so a literal path (`/sheets/validate`) wins over `/sheets/{id}`.
const templates = Object.entries(OPERATION_ERROR_MESSAGES)
  .flatMap(([id, message]) => {
    // An id the contract lost matches nothing (tsc and the test name it).
    const operation: { method: string; path: string } | undefined = API_OPERATIONS[id as OperationId];
    if (!operation) return [];
    const { method, path } = operation;
    return [{ method, pattern: templateOf(path), params: path.split('{').length, message }];
  })
  .sort((a, b) => a.params - b.params);

/** The default message for a request, or undefined when the operation has none. */
export function operationErrorMessage(method: string | undefined, url: string): string | undefined {
  const verb = (method ?? 'GET').toUpperCase();
  const path = url.split(/[?#]/)[0];
  return templates.find((t) => t.method === verb && t.pattern.test(path))?.message;
}
