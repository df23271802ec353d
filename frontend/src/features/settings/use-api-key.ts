import { useQueryClient } from '@tanstack/react-query';
import { getGetUsageQueryKey, useTestApiKey } from '../../api/gen/leads/leads';
import type { ApiKeyStatus } from '../../api/gen/model/apiKeyStatus';
import type { ApiKeyStatusResponse } from '../../api/gen/model/apiKeyStatusResponse';
import { getGetApiKeyStatusQueryKey, useGetApiKeyStatus, useSaveApiKey } from '../../api/gen/user/user';
import { ERROR_MESSAGE_OVERRIDES } from '../../lib/api-error-messages';

// The Places API key's status and changes, over the generated hooks. Each change
// invalidates what it affects before it resolves, so callers see fresh data when they
// show the outcome.

const selectStatus = (answer: ApiKeyStatusResponse): ApiKeyStatus => answer.api_key_status;

/** `GET /api/user/api-key/status` (spec section 3, API key status). */
export function useApiKeyStatus() {
  return useGetApiKeyStatus({ query: { select: selectStatus } });
}

/** The key's status and the usage stats (which say whether a key is configured). */
function useInvalidateKeyQueries() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: getGetApiKeyStatusQueryKey() }),
      queryClient.invalidateQueries({ queryKey: getGetUsageQueryKey() }),
    ]);
}

/** `POST /api/user/api-key` with a key: saves it. */
export function useSaveKey() {
  const invalidate = useInvalidateKeyQueries();
  return useSaveApiKey({ mutation: { onSuccess: invalidate } });
}

/** `POST /api/user/api-key` with an empty key, which deletes it. */
export function useDeleteKey() {
  const invalidate = useInvalidateKeyQueries();
  return useSaveApiKey({
    mutation: { onSuccess: invalidate },
    request: { errorMessage: ERROR_MESSAGE_OVERRIDES.deleteApiKey },
  });
}

/**
 * `POST /api/leads/test-api-key`; a refused key answers with an error status and
 * message. Either way the server has recorded the result: the status is read again.
 */
export function useTestKey() {
  const queryClient = useQueryClient();
  return useTestApiKey({
    mutation: { onSettled: () => queryClient.invalidateQueries({ queryKey: getGetApiKeyStatusQueryKey() }) },
  });
}
