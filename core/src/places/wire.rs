//! Request and response bodies of Text Search (New), as Google documents them.

use serde::{Deserialize, Serialize};

/// `POST /v1/places:searchText` body (only the fields we send).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchTextRequest {
    /// Free text, e.g. "Restaurant in Austin, TX".
    pub text_query: String,
    /// A Table A place type to restrict results to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub included_type: Option<String>,
    /// Results per page (1 to 20).
    pub page_size: u32,
    /// `nextPageToken` of the previous page; every other field must repeat the first request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_token: Option<String>,
    /// `locationRestriction`: nothing outside this rectangle is returned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_restriction: Option<LocationRestriction>,
    /// `minRating`: places rated lower (Google rounds this up to a half star) are left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_rating: Option<f64>,
}

impl SearchTextRequest {
    /// A first-page request for `text_query`, 20 a page, nothing else set.
    pub fn text(text_query: impl Into<String>) -> Self {
        Self {
            text_query: text_query.into(),
            included_type: None,
            page_size: 20,
            page_token: None,
            location_restriction: None,
            min_rating: None,
        }
    }
}

/// Google's `locationRestriction` for Text Search: a rectangle (`low` south-west, `high`
/// north-east), as `{"rectangle": {"low": {"latitude", "longitude"}, "high": ...}}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LocationRestriction {
    /// The rectangle.
    pub rectangle: Viewport,
}

/// A rectangle of `google.type.LatLng` corners (Google's `Viewport`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Viewport {
    /// South-west corner.
    pub low: LatLngLiteral,
    /// North-east corner.
    pub high: LatLngLiteral,
}

/// `google.type.LatLng`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LatLngLiteral {
    /// Degrees.
    pub latitude: f64,
    /// Degrees.
    pub longitude: f64,
}

impl From<Viewport> for crate::search::tiling::Rect {
    fn from(v: Viewport) -> Self {
        use crate::search::tiling::LatLng;
        Self {
            low: LatLng {
                lat: v.low.latitude,
                lng: v.low.longitude,
            },
            high: LatLng {
                lat: v.high.latitude,
                lng: v.high.longitude,
            },
        }
    }
}

impl From<crate::search::tiling::Rect> for LocationRestriction {
    fn from(r: crate::search::tiling::Rect) -> Self {
        Self {
            rectangle: Viewport {
                low: LatLngLiteral {
                    latitude: r.low.lat,
                    longitude: r.low.lng,
                },
                high: LatLngLiteral {
                    latitude: r.high.lat,
                    longitude: r.high.lng,
                },
            },
        }
    }
}

/// `searchText` answer. Google answers `{}` when nothing matches.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchTextResponse {
    /// Places on this page.
    #[serde(default)]
    pub places: Vec<Place>,
    /// Token for the next page, if any.
    pub next_page_token: Option<String>,
}

/// A place, with the fields our field mask asks for.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Place {
    /// Place id.
    #[serde(default)]
    pub id: String,
    /// Localized name.
    pub display_name: Option<LocalizedText>,
    /// Full address.
    pub formatted_address: Option<String>,
    /// Phone number in national format.
    pub national_phone_number: Option<String>,
    /// Website.
    pub website_uri: Option<String>,
    /// Average rating.
    pub rating: Option<f64>,
    /// Number of ratings.
    pub user_rating_count: Option<u32>,
    /// The address in parts (street number, route, locality, state, postal code...).
    pub address_components: Option<Vec<AddressComponent>>,
    /// The primary type in words ("Dentist").
    pub primary_type_display_name: Option<LocalizedText>,
    /// The place on Google Maps.
    pub google_maps_uri: Option<String>,
    /// Where it is (asked for only when a search must check a circle).
    pub location: Option<LatLngLiteral>,
    /// The area it covers (the locate request asks for a city's or ZIP code's).
    pub viewport: Option<Viewport>,
    /// Its types (the locate request asks, to tell a postal code from a city).
    pub types: Option<Vec<String>>,
}

/// One part of a place's address (`AddressComponent` of the Places API).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AddressComponent {
    /// The full text ("Texas").
    #[serde(default)]
    pub long_text: String,
    /// The short text ("TX").
    #[serde(default)]
    pub short_text: String,
    /// What this part is: `street_number`, `route`, `locality`, `postal_code`...
    #[serde(default)]
    pub types: Vec<String>,
}

/// `LocalizedText` of the Places API.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LocalizedText {
    /// The text.
    #[serde(default)]
    pub text: String,
}
