//! Client for Google Places API (New). The base URL is configurable so tests and demos
//! talk to the simulator in `leadgen-testkit`, which speaks the same wire format.

mod aggregate;
mod details;
mod error;
mod retry;
mod wire;

use std::time::Duration;

use serde::Deserialize;
use url::Url;

pub use aggregate::{AggregateArea, AggregateClient, AggregateQuery};
pub use details::details_field_mask;
pub use error::PlacesError;
pub use retry::RetryPolicy;
pub use wire::{
    AddressComponent, LatLngLiteral, LocalizedText, LocationRestriction, Place, SearchTextRequest, SearchTextResponse,
    Viewport,
};

/// Text Search path, relative to the base URL.
const SEARCH_TEXT_PATH: &str = "v1/places:searchText";
/// Field mask for a key check: ids only, the free "Essentials (IDs only)" SKU.
const KEY_CHECK_FIELD_MASK: &str = "places.id";
/// Ids and paging only: the free "Text Search Essentials (IDs Only)" SKU.
pub const IDS_FIELD_MASK: &str = "places.id,nextPageToken";
/// Field mask for a lead search: exactly what a lead shows, nothing pricier. Phone,
/// website, rating and rating count make this the Text Search Enterprise SKU; the address
/// in parts, the category, the Maps link and the position (`location`, what a circle or
/// polygon search checks and the web app's map shows) are Pro fields, so they cost
/// nothing more.
pub const LEAD_FIELD_MASK: &str = "places.id,places.displayName,places.formattedAddress,places.nationalPhoneNumber,\
places.websiteUri,places.rating,places.userRatingCount,places.addressComponents,places.primaryTypeDisplayName,\
places.googleMapsUri,places.location,nextPageToken";
/// Upper bound on one upstream call, so a hung connection cannot hold a request forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// Talks to Places API (New) with the caller's own API key.
#[derive(Debug, Clone)]
pub struct PlacesClient {
    http: reqwest::Client,
    /// The base URL, ending in `/` (Place Details' path is relative to it).
    base_url: Url,
    search_text_url: Url,
    retry: RetryPolicy,
}

#[derive(Deserialize)]
struct KeyCheckResponse {
    #[serde(default)]
    #[expect(dead_code, reason = "parsed to prove the body has Google's shape")]
    places: Vec<serde_json::Value>,
}

impl PlacesClient {
    /// A client for `base_url` (Google's, or the simulator's).
    pub fn new(base_url: &Url) -> Result<Self, PlacesError> {
        let mut base = base_url.clone();
        if !base.path().ends_with('/') {
            base.set_path(&format!("{}/", base.path()));
        }
        let search_text_url = base
            .join(SEARCH_TEXT_PATH)
            .map_err(|e| PlacesError::Network(format!("bad Places base URL: {e}")))?;
        let http = retry::http_client(REQUEST_TIMEOUT)?;
        Ok(Self {
            http,
            base_url: base,
            search_text_url,
            retry: RetryPolicy::default(),
        })
    }

    /// The same client with another per-request time-out (default 20 s).
    pub fn with_timeout(mut self, timeout: Duration) -> Result<Self, PlacesError> {
        self.http = retry::http_client(timeout)?;
        Ok(self)
    }

    /// The same client with another retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// One Text Search page with the lead field mask, retrying quota (after Google's
    /// `RetryInfo` delay), 5xx, time-outs and network failures a bounded number of times.
    pub async fn search_text(
        &self,
        api_key: &str,
        request: &SearchTextRequest,
    ) -> Result<SearchTextResponse, PlacesError> {
        self.search_text_masked(api_key, LEAD_FIELD_MASK, request).await
    }

    /// Every place id a query lists (its up to 3 pages), with the IDs-only field mask:
    /// Google's "Text Search Essentials (IDs Only)" SKU, which it does not charge for.
    /// What full coverage probes rectangles with.
    pub async fn probe_ids(&self, api_key: &str, request: &SearchTextRequest) -> Result<Vec<String>, PlacesError> {
        let mut request = request.clone();
        request.page_size = 20;
        request.page_token = None;
        let mut ids = Vec::new();
        for _ in 0..crate::search::MAX_PAGES {
            let page = self.search_text_masked(api_key, IDS_FIELD_MASK, &request).await?;
            ids.extend(page.places.into_iter().map(|p| p.id).filter(|id| !id.is_empty()));
            match page.next_page_token.filter(|t| !t.is_empty()) {
                Some(token) => request.page_token = Some(token),
                None => break,
            }
        }
        Ok(ids)
    }

    /// One Text Search page with `field_mask` (which decides the SKU Google bills), with
    /// the same retries as [`Self::search_text`].
    pub async fn search_text_with_mask(
        &self,
        api_key: &str,
        field_mask: &str,
        request: &SearchTextRequest,
    ) -> Result<SearchTextResponse, PlacesError> {
        self.search_text_masked(api_key, field_mask, request).await
    }

    async fn search_text_masked(
        &self,
        api_key: &str,
        field_mask: &str,
        request: &SearchTextRequest,
    ) -> Result<SearchTextResponse, PlacesError> {
        retry::with_retries(
            &self.retry,
            "searchText",
            |outcome| crate::telemetry::metrics::metrics().places_call(outcome),
            || self.post_search_text(api_key, field_mask, request),
        )
        .await
    }

    /// One `searchText` call with `field_mask`; Google's error bodies become [`PlacesError`].
    async fn post_search_text<T: serde::de::DeserializeOwned>(
        &self,
        api_key: &str,
        field_mask: &str,
        body: &impl serde::Serialize,
    ) -> Result<T, PlacesError> {
        retry::post_json(
            &self.http,
            &self.search_text_url,
            api_key,
            &[("X-Goog-FieldMask", field_mask)],
            body,
        )
        .await
    }

    /// One place by its id with `field_mask` (a Place Details mask, see
    /// [`details_field_mask`]), with the same retries as a Text Search page. An id
    /// Google does not know is its 404 `NOT_FOUND` (an `Upstream` error).
    pub async fn place_details(&self, api_key: &str, field_mask: &str, place_id: &str) -> Result<Place, PlacesError> {
        let url = details::details_url(&self.base_url, place_id)?;
        details::get_place(&self.http, &self.retry, &url, api_key, field_mask).await
    }

    /// Makes the cheapest real call that proves the key works for Places API (New): one
    /// Text Search result, ids only.
    pub async fn check_key(&self, api_key: &str) -> Result<(), PlacesError> {
        let body = serde_json::json!({ "textQuery": "restaurant", "pageSize": 1 });
        self.post_search_text::<KeyCheckResponse>(api_key, KEY_CHECK_FIELD_MASK, &body)
            .await
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_details_lead_mask_is_the_lead_mask_without_prefix_or_paging() {
        assert_eq!(
            details_field_mask(LEAD_FIELD_MASK),
            "id,displayName,formattedAddress,nationalPhoneNumber,websiteUri,rating,userRatingCount,\
addressComponents,primaryTypeDisplayName,googleMapsUri,location"
        );
    }
}
