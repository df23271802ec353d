/** Inputs of the search form's rules (spec section 5). */
export interface SearchFormInput {
  businessType: string;
  location: string;
  hasApiKey: boolean;
  isSearching: boolean;
}

export const MISSING_FIELDS_MESSAGE = 'Please select a business type and enter a location';
export const MISSING_KEY_MESSAGE = 'Please add your Google Places API key in Settings before searching';

/** The Search button is enabled only when every rule holds. */
export function canStartSearch({ businessType, location, hasApiKey, isSearching }: SearchFormInput): boolean {
  return businessType !== '' && location.trim() !== '' && hasApiKey && !isSearching;
}

/** The message shown on submit, or null when the search may start. */
export function searchSubmitError({ businessType, location, hasApiKey }: Omit<SearchFormInput, 'isSearching'>): string | null {
  if (businessType === '' || location.trim() === '') return MISSING_FIELDS_MESSAGE;
  if (!hasApiKey) return MISSING_KEY_MESSAGE;
  return null;
}
