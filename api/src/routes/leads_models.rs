//! Request and response shapes of `/api/leads/*`.

use crate::text::Text;
use leadgen_core::{
    lead::{Lead, SearchParams},
    search::{self, Completeness, Coverage, Requests, SearchCost, StopReason},
    usage::UsageReport,
};
use poem_openapi::{Enum, Object};

/// What to search for.
#[derive(Debug, Clone, Default, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct SearchRequest {
    /// A catalogue value from `GET /api/leads/business-types`, e.g. `restaurant`.
    #[oai(validator(max_length = 64))]
    pub business_type: Option<Text>,
    /// A city, state, ZIP code or full address (trimmed; at most 200 characters).
    /// Optional when `area` is given.
    #[oai(validator(max_length = 400))]
    pub location: Option<Text>,
    /// `quick` (default): one Text Search query, at most 60 places. `full`: every match in
    /// the location's area (or `area`), past Google's 60-result cap.
    pub coverage: Option<Coverage>,
    /// Stop before spending more than this on your Google key (US dollars, at Google's
    /// list prices); the search ends with what it has and says why.
    pub max_cost_usd: Option<f64>,
    /// Only businesses rated at least this (0 to 5); sent to Google as `minRating`.
    pub min_rating: Option<f64>,
    /// Only businesses with at least this many ratings.
    pub min_reviews: Option<i64>,
    /// `with`: only businesses with a website; `without`: only those without one.
    pub website: Option<WebsiteChoice>,
    /// `with`: only businesses with a phone number.
    pub phone: Option<PhoneChoice>,
    /// An explicit area instead of (or refining) `location`: a rectangle `{low, high}`, a
    /// circle `{center, radiusMeters}` (at most 50 km) or a polygon `{polygon: [...]}`
    /// (results strictly inside).
    pub area: Option<SearchArea>,
    /// Keep running when the stream closes (reconnect with
    /// `GET /api/leads/searches/{id}/events`, cancel with `POST .../cancel`). Default: true
    /// for full coverage, false for quick searches (closing the stream cancels them).
    pub background: Option<bool>,
    /// Read each lead's own website for emails and social profiles: every lead with a
    /// website gets a `lead_enriched` event once its site has been read, and `complete`
    /// (or the answer of `POST /api/leads/search`) carries each lead's `contacts`. Costs
    /// nothing on your Google key and no extra allowance. Default: false.
    pub enrich: Option<bool>,
    /// The client this search is run for (an agency's label, free text): 1 to 80
    /// characters once trimmed, no control characters. The history filters by it and the
    /// usage breakdown totals by it; labels differing only in case are one client.
    #[oai(validator(max_length = 400))]
    pub client: Option<Text>,
    /// Leave out places this workspace's place memory holds: `none` (default) sends every
    /// match; `seen`, every place its searches sent before; `exported`, every place its
    /// exports held. Left-out places are not sent and do not count toward the allowance;
    /// a full search does not pay to fetch an area whose places are all left out. Has no
    /// effect while the workspace's place memory is off.
    pub exclude: Option<search::Exclude>,
}

/// A website condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum WebsiteChoice {
    /// No condition.
    Any,
    /// With a website.
    With,
    /// Without a website.
    Without,
}

/// A phone condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum PhoneChoice {
    /// No condition.
    Any,
    /// With a phone number.
    With,
}

/// A point, as Google writes one.
#[derive(Debug, Clone, Copy, Object)]
pub struct GeoPoint {
    /// Degrees, -90 to 90.
    pub latitude: f64,
    /// Degrees, -180 to 180.
    pub longitude: f64,
}

/// An area: a rectangle (`low` south-west, `high` north-east, at most 5 degrees a side), a
/// circle (`center`, `radiusMeters`) or a polygon (`polygon`). Give one shape's fields only.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct SearchArea {
    /// Rectangle: south-west corner.
    pub low: Option<GeoPoint>,
    /// Rectangle: north-east corner.
    pub high: Option<GeoPoint>,
    /// Circle: centre.
    pub center: Option<GeoPoint>,
    /// Circle: radius in metres (up to 50,000).
    pub radius_meters: Option<f64>,
    /// Polygon: one ring of 3 to 500 distinct points, open or closed (last point = first),
    /// in either direction, not crossing or touching itself, within 5 degrees of latitude
    /// and of longitude. Only places strictly inside are results (a place on the border
    /// is not); the search covers the ring's bounding box and pays for its places.
    pub polygon: Option<Vec<GeoPoint>>,
}

impl SearchRequest {
    /// The search as the queue carries it, validated; `Display` of the error is the
    /// message for the user.
    pub fn validate(self) -> Result<search::ValidSearch, search::InvalidSearch> {
        use search::{Area, InvalidOption, LeadFilters, tiling::LatLng};
        let point = |p: GeoPoint| LatLng {
            lat: p.latitude,
            lng: p.longitude,
        };
        let area = match self.area {
            None => None,
            Some(SearchArea {
                low: Some(low),
                high: Some(high),
                center: None,
                radius_meters: None,
                polygon: None,
            }) => Some(Area::rectangle(point(low), point(high))?),
            Some(SearchArea {
                low: None,
                high: None,
                center: Some(center),
                radius_meters: Some(radius),
                polygon: None,
            }) => Some(Area::circle(point(center), radius)?),
            Some(SearchArea {
                low: None,
                high: None,
                center: None,
                radius_meters: None,
                polygon: Some(ring),
            }) => Some(Area::polygon(&ring.into_iter().map(point).collect::<Vec<_>>())?),
            Some(_) => return Err(InvalidOption::AreaShape.into()),
        };
        let website = self.website.map(|w| match w {
            WebsiteChoice::Any => "any",
            WebsiteChoice::With => "with",
            WebsiteChoice::Without => "without",
        });
        let phone = self.phone.map(|p| match p {
            PhoneChoice::Any => "any",
            PhoneChoice::With => "with",
        });
        let filters = LeadFilters::parse(self.min_rating, self.min_reviews, website, phone)?;
        search::ValidSearch::try_from(search::RawSearch {
            business_type: self.business_type.unwrap_or_default().into_string(),
            location: self.location.unwrap_or_default().into_string(),
            coverage: self.coverage.unwrap_or_default(),
            filters,
            max_cost_usd: self.max_cost_usd,
            area,
            enrich: self.enrich.unwrap_or(false),
            exclude: self.exclude.unwrap_or_default(),
        })
    }
}

/// `POST /api/leads/estimate` answer.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct EstimateResponse {
    /// Places expected (matching the type, area and `minRating`; the website, phone and
    /// review filters may leave fewer). For a location that is a postal code, the code's
    /// own places by Google's count when the meter answers (its viewport's pages are in
    /// the cost); without the count, every place of the viewport.
    pub estimated_leads: u32,
    /// US dollars the search would spend on your Google key.
    pub estimated_cost_usd: f64,
    /// Seconds it would take at your key's pace.
    pub estimated_seconds: f64,
    /// Requests it would make, by SKU.
    pub requests: Requests,
    /// Requests Google would bill.
    pub billable_requests: u32,
    /// True when every region was probed (exact for today's data); false when the
    /// estimate stopped early and extrapolated, or when the location is a postal code
    /// that Google did not count (a quick search, the meter off, or the count failed):
    /// the leads are then every place of the code's viewport, more than the search sends.
    pub exact: bool,
    /// What this estimate itself cost (the locate request, unless cached, and the
    /// completeness meter's count).
    pub spent: SearchCost,
    /// How many places of the type the area holds, by Google's own count (the
    /// completeness meter; for a postal code, the code's own region); null when it is
    /// off, the type is not a Google place type, the area is not known before the search
    /// (a quick search of a named location), Google matched no postal code for one that
    /// names it, or the count failed.
    #[oai(nullable)]
    pub completeness: Option<Completeness>,
    /// Leads today's allowance leaves (null when the plan has no daily cap).
    #[oai(nullable)]
    pub leads_left_today: Option<i64>,
    /// When the search would stop at today's allowance, what to tell the user before it
    /// starts ("Today's allowance leaves 880 leads: this search would stop at 880 of about
    /// 1,733. ..."); null when it fits.
    #[oai(nullable)]
    pub allowance_warning: Option<String>,
    /// What the workspace's monthly spend cap leaves this month, US dollars (null when it
    /// has no cap).
    #[oai(nullable)]
    pub spend_cap_left_usd: Option<f64>,
    /// When the search would stop at the workspace's monthly spend cap, what to tell the
    /// user before it starts; null when it fits (or there is no cap).
    #[oai(nullable)]
    pub spend_cap_warning: Option<String>,
    /// With an `exclude`: of `estimatedLeads`, the places this workspace's memory does
    /// not hold, which the search would send (`estimatedCostUsd` then counts only what
    /// the search pays for: a quick search still reads every page; a full search does not
    /// fetch a rectangle whose places are all left out). Null without an `exclude`.
    #[oai(nullable)]
    pub new_places: Option<u32>,
}

/// Result of `POST /api/leads/search`.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SearchResult {
    /// Always true (failures answer with an error status).
    pub success: bool,
    /// Every lead found.
    pub results: Vec<Lead>,
    /// What was searched.
    pub search: SearchParams,
    /// Usage after the search.
    pub usage: UsageReport,
    /// What the search cost your Google key.
    #[oai(nullable)]
    pub cost: Option<SearchCost>,
    /// Why it ended before covering everything.
    #[oai(nullable)]
    pub stop_reason: Option<StopReason>,
    /// What you should know about the results, in plain words.
    #[oai(nullable)]
    pub notice: Option<String>,
    /// Found of what Google counts in the area (the completeness meter: full coverage,
    /// the meter on, one of Google's types).
    #[oai(nullable)]
    pub completeness: Option<leadgen_core::search::SearchCompleteness>,
    /// With an `exclude`: the matching places found, those left out included (null for
    /// `exclude: none`).
    #[oai(nullable)]
    pub found_count: Option<u32>,
    /// With an `exclude`: the places new to the workspace's memory, the ones in
    /// `results` (null for `exclude: none`).
    #[oai(nullable)]
    pub new_count: Option<u32>,
}

/// `GET /api/leads/usage` answer.
#[derive(Debug, Object)]
pub struct UsageResponse {
    /// Always true.
    pub success: bool,
    /// The stats.
    pub data: UsageReport,
}

/// A business type.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct BusinessTypeItem {
    /// Google place type, sent as `businessType`.
    pub value: String,
    /// What users see.
    pub label: String,
    /// Searched by text alone (Google does not accept it as a type filter).
    pub text_only: bool,
}

/// A group of business types.
#[derive(Debug, Object)]
pub struct BusinessTypeGroupItem {
    /// Group heading.
    pub label: String,
    /// Types in display order.
    pub types: Vec<BusinessTypeItem>,
}

/// `GET /api/leads/business-types` answer.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct BusinessTypesResponse {
    /// The spec's 13 groups.
    pub groups: Vec<BusinessTypeGroupItem>,
    /// Every type of Google's Table A (Places API (New)), which a search also accepts:
    /// the value, and a label made from it ("indian_restaurant": "Indian Restaurant").
    /// Types the groups list come with the groups' labels.
    pub google_types: Vec<BusinessTypeItem>,
}

/// `POST /api/leads/locate` body: a location to show on the map.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LocateRequest {
    /// A city, state, ZIP or postal code, or an address, as the search form takes it
    /// (trimmed; 1 to 200 characters).
    #[oai(validator(max_length = 400))]
    pub location: Text,
}

/// `POST /api/leads/locate` answer: the rectangle Google frames the location with.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LocatedArea {
    /// The location as located (trimmed).
    pub location: String,
    /// South-west corner.
    pub low: GeoPoint,
    /// North-east corner.
    pub high: GeoPoint,
    /// What locating it spent on your Google key: nothing when the location was located
    /// before (by anyone, within 30 days), else one Text Search Pro request.
    pub spent: SearchCost,
}
