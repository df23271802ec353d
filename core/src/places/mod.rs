//! Client for Google Places API (New). The base URL is configurable so tests and demos
//! talk to the simulator in `leadgen-testkit`, which speaks the same wire format.

mod error;

use std::time::Duration;

use serde::Deserialize;
use url::Url;

pub use error::PlacesError;

/// Text Search path, relative to the base URL.
const SEARCH_TEXT_PATH: &str = "v1/places:searchText";
/// Field mask for a key check: ids only, the free "Essentials (IDs only)" SKU.
const KEY_CHECK_FIELD_MASK: &str = "places.id";
/// Upper bound on one upstream call, so a hung connection cannot hold a request forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// Talks to Places API (New) with the caller's own API key.
#[derive(Debug, Clone)]
pub struct PlacesClient {
    http: reqwest::Client,
    search_text_url: Url,
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
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .user_agent(concat!("leadgen/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| PlacesError::Network(e.to_string()))?;
        Ok(Self { http, search_text_url })
    }

    /// Makes the cheapest real call that proves the key works for Places API (New): one
    /// Text Search result, ids only.
    pub async fn check_key(&self, api_key: &str) -> Result<(), PlacesError> {
        let response = self
            .http
            .post(self.search_text_url.clone())
            .header("X-Goog-Api-Key", api_key)
            .header("X-Goog-FieldMask", KEY_CHECK_FIELD_MASK)
            .json(&serde_json::json!({ "textQuery": "restaurant", "pageSize": 1 }))
            .send()
            .await
            .map_err(PlacesError::from_transport)?;
        let status = response.status();
        let body = response.bytes().await.map_err(PlacesError::from_transport)?;
        if !status.is_success() {
            return Err(PlacesError::from_response(status.as_u16(), &body));
        }
        serde_json::from_slice::<KeyCheckResponse>(&body)
            .map(|_| ())
            .map_err(|e| PlacesError::Upstream {
                status: status.as_u16(),
                detail: format!("unexpected response body: {e}"),
            })
    }
}
