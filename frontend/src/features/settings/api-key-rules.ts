/** Shown when the key field is blank on save (spec section 5, Settings key). */
export const EMPTY_KEY_MESSAGE = 'Please enter a valid API key';

/**
 * Save is enabled only when the text differs from the stored preview, is
 * non-empty after trimming, and nothing is saving (spec section 4).
 */
export function canSaveApiKey({ value, preview, saving }: { value: string; preview: string | null; saving: boolean }): boolean {
  return value !== (preview ?? '') && value.trim() !== '' && !saving;
}

/** The message for a key that may not be saved, or null. */
export function apiKeySaveError(value: string): string | null {
  return value.trim() === '' ? EMPTY_KEY_MESSAGE : null;
}

/** Test is disabled while testing or saving. */
export function canTestApiKey({ hasKey, testing, saving }: { hasKey: boolean; testing: boolean; saving: boolean }): boolean {
  return hasKey && !testing && !saving;
}

/** Messages clear after this long (spec section 9). */
export const MESSAGE_CLEAR_MS = 3000;
