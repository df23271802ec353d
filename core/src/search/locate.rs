//! Where a location is: one Text Search request for the location's viewport (Google's
//! "Text Search Pro" SKU), cached per normalised location string. The area of a city is
//! no lead data, and every later full search or estimate of the same place is spared the
//! request.

use std::future::Future;

use super::{
    cost::{Requests, Sku},
    options::MAX_AREA_DEGREES,
    runner::{RateGate, SearchFailure, Upstream},
    tiling::Rect,
};
use crate::places::SearchTextRequest;

/// What the locate request asks for: the viewport (a Pro field) and enough to log what
/// Google matched.
pub const LOCATE_FIELD_MASK: &str = "places.id,places.formattedAddress,places.viewport";

/// Located areas, shared by every process (the store's `located_areas`).
pub trait AreaCache: Send + Sync {
    /// The cached area of a normalised location.
    fn get(&self, location: &str) -> impl Future<Output = Option<Rect>> + Send;
    /// Remembers an area.
    fn put(&self, location: &str, area: Rect) -> impl Future<Output = ()> + Send;
}

/// No cache: every locate asks Google.
pub struct NoAreaCache;

impl AreaCache for NoAreaCache {
    async fn get(&self, _location: &str) -> Option<Rect> {
        None
    }

    async fn put(&self, _location: &str, _area: Rect) {}
}

/// The cache key of a location: lower case, words separated by single spaces, commas and
/// repeated spaces ignored ("Austin,  TX" and "austin tx" are one place).
pub fn normalise_location(location: &str) -> String {
    location
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The message for a location Google cannot place.
pub fn not_found_message(location: &str) -> String {
    format!(
        "We could not find \"{location}\" on the map. Check the spelling, or add the state or country (for example \"Austin, TX\")."
    )
}

/// The message for a location too large for a full search.
pub fn too_large_message(location: &str) -> String {
    format!("\"{location}\" covers too large an area for a full search. Choose a city, a district or a ZIP code.")
}

/// The area of `location`, from the cache or from one Pro request (counted in
/// `requests`), refused when it is too large to search in full.
pub async fn locate(
    upstream: &Upstream<'_, impl RateGate>,
    location: &str,
    cache: &impl AreaCache,
    requests: &mut Requests,
) -> Result<Rect, SearchFailure> {
    let area = area_of(upstream, location, cache, requests).await?;
    if area.high.lat - area.low.lat > MAX_AREA_DEGREES || area.high.lng - area.low.lng > MAX_AREA_DEGREES {
        return Err(SearchFailure::Refused(too_large_message(location)));
    }
    Ok(area)
}

/// The rectangle Google frames `location` with, whatever its size (a state too: the web
/// app's map shows it), from the cache or from one Pro request (counted in `requests`).
/// Refused when Google cannot place it, or places it across the 180th meridian.
pub async fn area_of(
    upstream: &Upstream<'_, impl RateGate>,
    location: &str,
    cache: &impl AreaCache,
    requests: &mut Requests,
) -> Result<Rect, SearchFailure> {
    let key = normalise_location(location);
    if let Some(area) = cache.get(&key).await {
        return Ok(area);
    }
    let mut request = SearchTextRequest::text(location);
    request.page_size = 1;
    let page = upstream.page(LOCATE_FIELD_MASK, &request).await?;
    requests.add(Sku::Pro, 1);
    let area: Rect = page
        .places
        .into_iter()
        .find_map(|p| p.viewport)
        .ok_or_else(|| SearchFailure::Refused(not_found_message(location)))?
        .into();
    if !(area.low.lat < area.high.lat && area.low.lng < area.high.lng) {
        // A viewport across the 180th meridian, or a point: not an area we tile.
        return Err(SearchFailure::Refused(not_found_message(location)));
    }
    cache.put(&key, area).await;
    Ok(area)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_place_one_key() {
        assert_eq!(normalise_location("Austin,  TX"), "austin tx");
        assert_eq!(normalise_location(" austin , tx "), "austin tx");
        assert_ne!(normalise_location("Austin, TX"), normalise_location("Austin, MN"));
    }
}
