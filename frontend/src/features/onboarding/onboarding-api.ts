import type { OnboardingResponse } from '../../api/gen/model/onboardingResponse';
import type { SaveApiKeyResponse } from '../../api/gen/model/saveApiKeyResponse';
import { completeOnboarding as generatedCompleteOnboarding, saveApiKey } from '../../api/gen/user/user';
import { callWithDefault } from '../../lib/api-fetch';

// The onboarding feature's calls in one place, over the generated client.

/** Stores the key (`POST /api/user/api-key`). */
export function saveOnboardingKey(apiKey: string): Promise<SaveApiKeyResponse> {
  return callWithDefault(() => saveApiKey({ api_key: apiKey }), 'Failed to validate API key');
}

/** `POST /api/user/complete-onboarding`. */
export function completeOnboarding(): Promise<OnboardingResponse> {
  return callWithDefault(() => generatedCompleteOnboarding(), 'Failed to complete onboarding');
}
