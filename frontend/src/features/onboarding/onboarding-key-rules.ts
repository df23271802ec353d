/** Google Places keys start with this prefix (spec section 9). */
export const KEY_PREFIX = "AIza";
/** Shortest accepted key (typical keys are about 39 characters). */
export const KEY_MIN_LENGTH = 35;

export const EMPTY_ONBOARDING_KEY_MESSAGE =
  "Please enter your Google Places API key";
export const INVALID_KEY_FORMAT_MESSAGE =
  'Invalid API key format. Google Places API keys typically start with "AIza" and are around 39 characters long.';

/** Onboarding key check (spec section 5): the message, or null when the format is plausible. */
export function validateOnboardingKey(raw: string): string | null {
  const key = raw.trim();
  if (key === "") return EMPTY_ONBOARDING_KEY_MESSAGE;
  if (!key.startsWith(KEY_PREFIX) || key.length < KEY_MIN_LENGTH)
    return INVALID_KEY_FORMAT_MESSAGE;
  return null;
}
