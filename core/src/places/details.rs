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

use url::Url;

use super::{
    error::PlacesError,
    retry::{self, RetryPolicy},
    wire::Place,
};

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

/// `{base}/v1/places/{placeId}` (`base` ends in `/`), the id as one escaped path segment.
pub(super) fn details_url(base: &Url, place_id: &str) -> Result<Url, PlacesError> {
    let place_id = place_id.trim();
    if place_id.is_empty() {
        return Err(PlacesError::Upstream {
            status: 400,
            detail: "Place Details needs a place id; it was empty".into(),
        });
    }
    let mut url = base
        .join(DETAILS_PATH)
        .map_err(|e| PlacesError::Network(format!("bad Places base URL: {e}")))?;
    url.path_segments_mut()
        .map_err(|()| PlacesError::Network("bad Places base URL: it cannot hold a path".into()))?
        .pop_if_empty()
        .push(place_id);
    Ok(url)
}

/// One Place Details call (`GET url` with the key and `field_mask`), with `policy`'s
/// retries; an id Google does not know is its 404 `NOT_FOUND` (an `Upstream` error).
pub(super) async fn get_place(
    http: &reqwest::Client,
    policy: &RetryPolicy,
    url: &Url,
    api_key: &str,
    field_mask: &str,
) -> Result<Place, PlacesError> {
    let headers = [("X-Goog-FieldMask", field_mask)];
    retry::with_retries(
        policy,
        "placeDetails",
        |outcome| crate::telemetry::metrics::metrics().places_call(outcome),
        || retry::get_json(http, url, api_key, &headers),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_details_mask_names_the_same_fields_without_prefix_or_paging() {
        assert_eq!(
            details_field_mask("places.id, places.location.latitude,nextPageToken"),
            "id,location.latitude"
        );
    }

    #[test]
    fn the_details_url_puts_the_id_after_the_base_path() {
        let base = Url::parse("http://127.0.0.1:9/sim/").expect("url");
        assert_eq!(
            details_url(&base, "ChIJ_a-b").expect("url").as_str(),
            "http://127.0.0.1:9/sim/v1/places/ChIJ_a-b"
        );
        assert_eq!(
            details_url(&base, "a/b?c").expect("url").as_str(),
            "http://127.0.0.1:9/sim/v1/places/a%2Fb%3Fc",
            "an id is one path segment, whatever it holds"
        );
        assert!(details_url(&base, " ").is_err());
    }
}
