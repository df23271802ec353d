/** Inputs of the search form's rules (spec section 5). */
export interface SearchFormInput {
  businessType: string;
  location: string;
  hasApiKey: boolean;
  isSearching: boolean;
  /**
   * The area is drawn on a map (issue #30 item 5), and whether a valid one is: then the
   * area, not the location, is required (a location typed too only names the search).
   */
  drawing?: { hasArea: boolean };
}

export const MISSING_FIELDS_MESSAGE = 'Please select a business type and enter a location';
export const MISSING_AREA_MESSAGE = 'Please select a business type and draw or type an area';
export const MISSING_KEY_MESSAGE = 'Please add your Google Places API key in Settings before searching';

/** The Search button is enabled only when every rule holds. */
export function canStartSearch({ businessType, location, hasApiKey, isSearching, drawing }: SearchFormInput): boolean {
  const where = drawing ? drawing.hasArea : location.trim() !== '';
  return businessType !== '' && where && hasApiKey && !isSearching;
}

/** The message shown on submit, or null when the search may start. */
export function searchSubmitError({ businessType, location, hasApiKey, drawing }: Omit<SearchFormInput, 'isSearching'>): string | null {
  if (drawing) {
    if (businessType === '' || !drawing.hasArea) return MISSING_AREA_MESSAGE;
  } else if (businessType === '' || location.trim() === '') return MISSING_FIELDS_MESSAGE;
  if (!hasApiKey) return MISSING_KEY_MESSAGE;
  return null;
}
