//! Place Details (New): `GET {base}/v1/places/{placeId}` with the key and a field mask in
//! headers, answered with one `Place`. Full coverage fetches a few places this way when
//! that is cheaper than a rectangle's pages, and the places Google counts but no page
//! listed.
//!
//! The mask names the place's own fields (`id,displayName`), without Text Search's
//! `places.` prefix and without `nextPageToken`: [`details_field_mask`] derives it from
//! a Text Search mask, so the two can never ask for different fields. With the lead
//! fields (phone, website, rating) Google bills the call as "Place Details Enterprise".
//!
//! Google also takes `languageCode`, `regionCode` and `sessionToken` as query
//! parameters; Text Search is sent neither a language nor a region, so neither is this
//! (the same place then reads the same either way), and a session token belongs to
//! Autocomplete.

use super::{PlacesClient, error::PlacesError, retry, wire::Place};

/// Place Details' path, relative to the base URL, before the place id.
const DETAILS_PATH: &str = "v1/places/";

/// The Place Details mask asking for the same fields as the Text Search mask
/// `search_mask`: each `places.` path without its prefix; `nextPageToken` (paging, which
/// Place Details has none of) left out.
pub fn details_field_mask(search_mask: &str) -> String {
    search_mask
        .split(',')
        .map(str::trim)
        .filter_map(|path| path.strip_prefix("places."))
        .collect::<Vec<_>>()
        .join(",")
}

impl PlacesClient {
    /// One place by its id with `field_mask` (a Place Details mask, see
    /// [`details_field_mask`]), with the same retries as a Text Search page. An id
    /// Google does not know is its 404 `NOT_FOUND` (an `Upstream` error).
    pub async fn place_details(&self, api_key: &str, field_mask: &str, place_id: &str) -> Result<Place, PlacesError> {
        let url = self.details_url(place_id)?;
        let headers = [("X-Goog-FieldMask", field_mask)];
        retry::with_retries(
            &self.retry,
            "placeDetails",
            |outcome| crate::telemetry::metrics::metrics().places_call(outcome),
            || retry::get_json(&self.http, &url, api_key, &headers),
        )
        .await
    }

    /// `{base}/v1/places/{placeId}`, the id as one escaped path segment.
    fn details_url(&self, place_id: &str) -> Result<url::Url, PlacesError> {
        let place_id = place_id.trim();
        if place_id.is_empty() {
            return Err(PlacesError::Upstream {
                status: 400,
                detail: "Place Details needs a place id; it was empty".into(),
            });
        }
        let mut url = self
            .base_url
            .join(DETAILS_PATH)
            .map_err(|e| PlacesError::Network(format!("bad Places base URL: {e}")))?;
        url.path_segments_mut()
            .map_err(|()| PlacesError::Network("bad Places base URL: it cannot hold a path".into()))?
            .pop_if_empty()
            .push(place_id);
        Ok(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::places::LEAD_FIELD_MASK;

    #[test]
    fn the_details_mask_is_the_lead_mask_without_prefix_or_paging() {
        assert_eq!(
            details_field_mask(LEAD_FIELD_MASK),
            "id,displayName,formattedAddress,nationalPhoneNumber,websiteUri,rating,userRatingCount,\
addressComponents,primaryTypeDisplayName,googleMapsUri"
        );
        assert_eq!(
            details_field_mask("places.id, places.location.latitude,nextPageToken"),
            "id,location.latitude"
        );
    }

    #[test]
    fn the_details_url_puts_the_id_after_the_base_path() {
        let client = PlacesClient::new(&url::Url::parse("http://127.0.0.1:9/sim").expect("url")).expect("client");
        assert_eq!(
            client.details_url("ChIJ_a-b").expect("url").as_str(),
            "http://127.0.0.1:9/sim/v1/places/ChIJ_a-b"
        );
        assert_eq!(
            client.details_url("a/b?c").expect("url").as_str(),
            "http://127.0.0.1:9/sim/v1/places/a%2Fb%3Fc",
            "an id is one path segment, whatever it holds"
        );
        assert!(client.details_url(" ").is_err());
    }
}
