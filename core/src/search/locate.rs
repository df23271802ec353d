//! Where a location is: one Text Search request for the location's viewport (Google's
//! "Text Search Pro" SKU), cached per normalised location string. The area of a city is
//! no lead data, and every later full search or estimate of the same place is spared the
//! request.
//!
//! The same request says whether Google matched a postal code (its `types`, a Pro field
//! too): a postal code's viewport reaches into its neighbours, so the search sends only
//! the code's places, and the completeness meter counts the code's own region by its
//! place id (the Aggregate API's `region.place`) rather than the viewport.

use std::future::Future;

use super::{
    cost::{Requests, Sku},
    options::MAX_AREA_DEGREES,
    postal::PostalCode,
    runner::{RateGate, SearchFailure, Upstream},
    tiling::Rect,
};
use crate::places::SearchTextRequest;

/// What the locate request asks for: the viewport and the types (both Pro fields), the
/// id (the region a postal code's meter counts) and enough to log what Google matched.
pub const LOCATE_FIELD_MASK: &str = "places.id,places.formattedAddress,places.viewport,places.types";

/// A located location: the rectangle a full search tiles, and what Google matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    /// Google's viewport of the place.
    pub area: Rect,
    /// Whether the place is a postal code, and which.
    pub matched: Matched,
}

/// What Google matched a location with, as far as a search needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Matched {
    /// Not recorded: an area cached before Leadgen kept it.
    Unrecorded,
    /// Not a postal code: a city, a district, a state.
    Other,
    /// A postal code (`types` lists `postal_code`), by its place id: the region the
    /// completeness meter counts.
    PostalCode(String),
}

impl Matched {
    /// The postal code's place id, when Google matched one.
    pub fn postal_code_place(&self) -> Option<&str> {
        match self {
            Self::PostalCode(id) => Some(id),
            Self::Unrecorded | Self::Other => None,
        }
    }
}

/// Located areas, shared by every process (the store's `located_areas`).
pub trait AreaCache: Send + Sync {
    /// The cached area of a normalised location.
    fn get(&self, location: &str) -> impl Future<Output = Option<Located>> + Send;
    /// Remembers an area.
    fn put(&self, location: &str, located: &Located) -> impl Future<Output = ()> + Send;
}

/// No cache: every locate asks Google.
pub struct NoAreaCache;

impl AreaCache for NoAreaCache {
    async fn get(&self, _location: &str) -> Option<Located> {
        None
    }

    async fn put(&self, _location: &str, _located: &Located) {}
}

/// The cached area of `location` (as typed), if it serves a search: an area cached
/// before Leadgen recorded what Google matched does not serve a location that names a
/// postal code, whose meter needs the code's place id (it is located again, once).
pub async fn cached(cache: &impl AreaCache, location: &str) -> Option<Located> {
    let located = cache.get(&normalise_location(location)).await?;
    let needs_match = PostalCode::named_by(location).is_some();
    (located.matched != Matched::Unrecorded || !needs_match).then_some(located)
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
) -> Result<Located, SearchFailure> {
    let located = area_of(upstream, location, cache, requests).await?;
    let area = located.area;
    if area.high.lat - area.low.lat > MAX_AREA_DEGREES || area.high.lng - area.low.lng > MAX_AREA_DEGREES {
        return Err(SearchFailure::Refused(too_large_message(location)));
    }
    Ok(located)
}

/// The rectangle Google frames `location` with, whatever its size (a state too: the web
/// app's map shows it), from the cache or from one Pro request (counted in `requests`).
/// Refused when Google cannot place it, or places it across the 180th meridian.
pub async fn area_of(
    upstream: &Upstream<'_, impl RateGate>,
    location: &str,
    cache: &impl AreaCache,
    requests: &mut Requests,
) -> Result<Located, SearchFailure> {
    if let Some(located) = cached(cache, location).await {
        return Ok(located);
    }
    let mut request = SearchTextRequest::text(location);
    request.page_size = 1;
    let page = upstream.page(LOCATE_FIELD_MASK, &request).await?;
    requests.add(Sku::Pro, 1);
    let place = page
        .places
        .into_iter()
        .find(|p| p.viewport.is_some())
        .ok_or_else(|| SearchFailure::Refused(not_found_message(location)))?;
    let area: Rect = place.viewport.expect("found by its viewport").into();
    if !(area.low.lat < area.high.lat && area.low.lng < area.high.lng) {
        // A viewport across the 180th meridian, or a point: not an area we tile.
        return Err(SearchFailure::Refused(not_found_message(location)));
    }
    let postal = place.types.iter().flatten().any(|t| t == "postal_code");
    let matched = match place.id {
        id if postal && !id.is_empty() => Matched::PostalCode(id),
        _ => Matched::Other,
    };
    let located = Located { area, matched };
    cache.put(&normalise_location(location), &located).await;
    Ok(located)
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
