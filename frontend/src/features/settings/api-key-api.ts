import { testApiKey as generatedTestApiKey } from '../../api/gen/leads/leads';
import type { ApiKeyStatus } from '../../api/gen/model/apiKeyStatus';
import type { SaveApiKeyResponse } from '../../api/gen/model/saveApiKeyResponse';
import type { TestApiKeyResponse } from '../../api/gen/model/testApiKeyResponse';
import { getApiKeyStatus, getGetApiKeyStatusQueryKey, saveApiKey as generatedSaveApiKey } from '../../api/gen/user/user';
import { callWithDefault } from '../../lib/api-fetch';

// The settings feature's calls in one place, over the generated client. The Sheets
// status is shared with the export and lives in lib/sheets-auth.ts.

export type { ApiKeyStatus };

export const apiKeyStatusQueryKey = getGetApiKeyStatusQueryKey();

/** `GET /api/user/api-key/status` (spec section 3, API key status). */
export async function fetchApiKeyStatus(): Promise<ApiKeyStatus> {
  const answer = await callWithDefault(() => getApiKeyStatus(), 'Failed to load API key status');
  return answer.api_key_status;
}

/** `POST /api/user/api-key` with the trimmed key. */
export function saveApiKey(apiKey: string): Promise<SaveApiKeyResponse> {
  return callWithDefault(() => generatedSaveApiKey({ api_key: apiKey }), 'Failed to save API key');
}

/** `POST /api/user/api-key` with an empty key, which deletes it. */
export function deleteApiKey(): Promise<SaveApiKeyResponse> {
  return callWithDefault(() => generatedSaveApiKey({ api_key: '' }), 'Failed to delete API key');
}

/** `POST /api/leads/test-api-key`; a refused key answers with an error status and message. */
export function testApiKey(): Promise<TestApiKeyResponse> {
  return callWithDefault(() => generatedTestApiKey(), 'API key test failed');
}
