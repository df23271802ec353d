/**
 * A lead's place on Google Maps, from Google's documented Maps URLs
 * (https://developers.google.com/maps/documentation/urls/get-started#search-action):
 * `query` is the text shown and used if the place id is not found; `query_place_id`
 * opens that exact place. No API key is needed and nothing is billed.
 */
export function googleMapsUrl(lead: { name: string; placeId: string }): string {
  const params = new URLSearchParams({ api: '1', query: lead.name, query_place_id: lead.placeId });
  // URLSearchParams writes a space as `+`; Google's documentation encodes it as `%20`.
  return `https://www.google.com/maps/search/?${params.toString().replace(/\+/g, '%20')}`;
}
