//! Request and response shapes of `/api/leads/*`.

use crate::text::Text;
use leadgen_core::{
    enrich::{Contacts, Socials},
    lead::{Lead, SearchParams},
    search::{self, SearchCost},
    usage::UsageReport,
};
use poem_openapi::{Enum, Object};

/// What to search for.
#[derive(Debug, Clone, Default, Object)]
#[oai(rename_all = "camelCase")]
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
    /// An explicit area instead of (or refining) `location`: a rectangle `{low, high}` or
    /// a circle `{center, radiusMeters}` (at most 50 km).
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
}

/// How much of the area a search covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum Coverage {
    /// One query, at most 3 pages of 20 (the default).
    Quick,
    /// Every match in the area.
    Full,
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

/// An area: a rectangle (`low` south-west, `high` north-east, at most 5 degrees a side) or
/// a circle (`center`, `radiusMeters`).
#[derive(Debug, Clone, Copy, Object)]
#[oai(rename_all = "camelCase")]
pub struct SearchArea {
    /// Rectangle: south-west corner.
    pub low: Option<GeoPoint>,
    /// Rectangle: north-east corner.
    pub high: Option<GeoPoint>,
    /// Circle: centre.
    pub center: Option<GeoPoint>,
    /// Circle: radius in metres (up to 50,000).
    pub radius_meters: Option<f64>,
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
            }) => Some(Area::rectangle(point(low), point(high))?),
            Some(SearchArea {
                low: None,
                high: None,
                center: Some(center),
                radius_meters: Some(radius),
            }) => Some(Area::circle(point(center), radius)?),
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
            coverage: match self.coverage {
                Some(Coverage::Full) => search::Coverage::Full,
                _ => search::Coverage::Quick,
            },
            filters,
            max_cost_usd: self.max_cost_usd,
            area,
            enrich: self.enrich.unwrap_or(false),
        })
    }
}

/// Requests by Google SKU.
#[derive(Debug, Clone, Copy, Object)]
#[oai(rename_all = "camelCase")]
pub struct SkuRequests {
    /// "Text Search Essentials (IDs Only)": free probes.
    pub ids_only: u32,
    /// "Text Search Pro": locating the area.
    pub pro: u32,
    /// "Text Search Enterprise": pages of leads.
    pub enterprise: u32,
}

/// What a search cost the user's Google key.
#[derive(Debug, Clone, Copy, Object)]
#[oai(rename_all = "camelCase")]
pub struct CostItem {
    /// Requests by SKU.
    pub requests: SkuRequests,
    /// Requests Google bills.
    pub billable_requests: u32,
    /// US dollars at the configured list prices.
    pub cost_usd: f64,
}

impl From<SearchCost> for CostItem {
    fn from(c: SearchCost) -> Self {
        Self {
            requests: c.requests.into(),
            billable_requests: c.billable_requests,
            cost_usd: c.cost_usd,
        }
    }
}

impl From<search::Requests> for SkuRequests {
    fn from(r: search::Requests) -> Self {
        Self {
            ids_only: r.ids_only,
            pro: r.pro,
            enterprise: r.enterprise,
        }
    }
}

/// `POST /api/leads/estimate` answer.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct EstimateResponse {
    /// Places expected (matching the type, area and `minRating`; the website, phone and
    /// review filters may leave fewer).
    pub estimated_leads: u32,
    /// US dollars the search would spend on your Google key.
    pub estimated_cost_usd: f64,
    /// Seconds it would take at your key's pace.
    pub estimated_seconds: f64,
    /// Requests it would make, by SKU.
    pub requests: SkuRequests,
    /// Requests Google would bill.
    pub billable_requests: u32,
    /// True when every region was probed (exact for today's data); false when the
    /// estimate stopped early and extrapolated.
    pub exact: bool,
    /// What this estimate itself cost (the locate request, unless cached).
    pub spent: CostItem,
    /// Leads today's allowance leaves (null when the plan has no daily cap).
    #[oai(nullable)]
    pub leads_left_today: Option<i64>,
    /// When the search would stop at today's allowance, what to tell the user before it
    /// starts ("Today's allowance leaves 880 leads: this search would stop at 880 of about
    /// 1,733. ..."); null when it fits.
    #[oai(nullable)]
    pub allowance_warning: Option<String>,
}

/// A business found.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct LeadItem {
    /// Business name.
    pub name: String,
    /// Formatted address.
    pub address: String,
    /// Phone number; empty when unknown.
    pub phone: String,
    /// Website; empty when unknown.
    pub website: String,
    /// Google place id.
    pub place_id: String,
    /// Average rating, when rated.
    #[oai(nullable)]
    pub rating: Option<f64>,
    /// Number of ratings, when rated.
    #[oai(nullable)]
    pub review_count: Option<u32>,
    /// Street line, e.g. `1204 Oak St`; absent when Google gives none.
    #[oai(nullable)]
    pub street: Option<String>,
    /// City; absent when Google gives none.
    #[oai(nullable)]
    pub city: Option<String>,
    /// State or region as Google abbreviates it, e.g. `TX`; absent when none.
    #[oai(nullable)]
    pub state: Option<String>,
    /// Postal code; absent when none.
    #[oai(nullable)]
    pub postal_code: Option<String>,
    /// Google's category for it, in words, e.g. `Dentist`; absent when none.
    #[oai(nullable)]
    pub category: Option<String>,
    /// The place on Google Maps; absent when Google gives none.
    #[oai(nullable)]
    pub maps_url: Option<String>,
    /// What the business's own website publishes (enriched searches' results only).
    #[oai(nullable)]
    pub contacts: Option<ContactsItem>,
}

/// `Some` unless empty (the lead's optional texts are empty strings in core).
fn non_empty(text: String) -> Option<String> {
    (!text.is_empty()).then_some(text)
}

impl From<Lead> for LeadItem {
    fn from(l: Lead) -> Self {
        Self {
            name: l.name,
            address: l.address,
            phone: l.phone,
            website: l.website,
            place_id: l.place_id,
            rating: l.rating,
            review_count: l.review_count,
            street: non_empty(l.street),
            city: non_empty(l.city),
            state: non_empty(l.state),
            postal_code: non_empty(l.postal_code),
            category: non_empty(l.category),
            maps_url: non_empty(l.maps_url),
            contacts: l.contacts.map(Into::into),
        }
    }
}

/// What a business's website publishes: emails, social profiles, the contact page read.
#[derive(Debug, Clone, Default, Object)]
#[oai(rename_all = "camelCase")]
pub struct ContactsItem {
    /// Email addresses, as published (empty when none was found or the site could not be
    /// read).
    pub emails: Vec<String>,
    /// Social profile URLs.
    pub socials: SocialsItem,
    /// The contact page the emails came from, when not the home page.
    #[oai(nullable)]
    pub contact_page: Option<String>,
    /// How reading the site went: `found` (an email, profile or contact page), `none`
    /// (read, nothing published), `not_read` (see `reason`) or `no_website`. Always in
    /// answers; ignored when sent back for an export.
    #[oai(nullable)]
    pub status: Option<String>,
    /// Why the site was not read (`not_read` only): `timed_out`, `robots_txt`,
    /// `refused_address`, `site_down`, `not_a_web_address` or `not_reached_in_time`.
    #[oai(nullable)]
    pub reason: Option<String>,
}

/// The wire word of a unit enum (`not_read`, `robots_txt`).
fn word(value: impl serde::Serialize) -> Option<String> {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
}

/// Social profile URLs found on a business's website.
#[derive(Debug, Clone, Default, Object)]
pub struct SocialsItem {
    /// Facebook page.
    #[oai(nullable)]
    pub facebook: Option<String>,
    /// Instagram profile.
    #[oai(nullable)]
    pub instagram: Option<String>,
    /// LinkedIn page.
    #[oai(nullable)]
    pub linkedin: Option<String>,
    /// X (Twitter) profile.
    #[oai(nullable)]
    pub x: Option<String>,
    /// YouTube channel.
    #[oai(nullable)]
    pub youtube: Option<String>,
    /// TikTok profile.
    #[oai(nullable)]
    pub tiktok: Option<String>,
}

impl From<Contacts> for ContactsItem {
    fn from(c: Contacts) -> Self {
        Self {
            emails: c.emails,
            socials: c.socials.into(),
            contact_page: c.contact_page,
            status: word(c.status),
            reason: c.reason.and_then(word),
        }
    }
}

impl From<Socials> for SocialsItem {
    fn from(s: Socials) -> Self {
        Self {
            facebook: s.facebook,
            instagram: s.instagram,
            linkedin: s.linkedin,
            x: s.x,
            youtube: s.youtube,
            tiktok: s.tiktok,
        }
    }
}

/// What was searched.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct SearchEcho {
    /// Catalogue value.
    pub business_type: String,
    /// Location as searched.
    pub location: String,
}

impl From<SearchParams> for SearchEcho {
    fn from(p: SearchParams) -> Self {
        Self {
            business_type: p.business_type,
            location: p.location,
        }
    }
}

/// Result of `POST /api/leads/search`.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SearchResult {
    /// Always true (failures answer with an error status).
    pub success: bool,
    /// Every lead found.
    pub results: Vec<LeadItem>,
    /// What was searched.
    pub search: SearchEcho,
    /// Usage after the search.
    pub usage: UsageStats,
    /// What the search cost your Google key.
    #[oai(nullable)]
    pub cost: Option<CostItem>,
    /// Why it ended before covering everything: `max_cost` or `allowance`.
    #[oai(nullable)]
    pub stop_reason: Option<String>,
    /// What you should know about the results, in plain words.
    #[oai(nullable)]
    pub notice: Option<String>,
}

/// One event of `POST /api/leads/search-stream` (the `data:` of an SSE frame). Which
/// fields are present depends on `type`: `start` (businessType, location),
/// `business_found` (name, found, total, lead), `progress` (full coverage: areasProbed,
/// areasFetched, areasPlanned, leads, placesFound, billableRequests, costUsd,
/// estimatedCostUsd, estimatedPlaces), `lead_enriched` (an enriched search: placeId,
/// emails, socials, contactPage), `complete` (results, search, usage, cost, and
/// stopReason and notice when it ended early), `error` (message).
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct StreamEvent {
    /// `start`, `business_found`, `progress`, `lead_enriched`, `complete` or `error`.
    #[oai(rename = "type")]
    pub kind: String,
    /// `start`: catalogue value.
    #[oai(nullable)]
    pub business_type: Option<String>,
    /// `start`: location.
    #[oai(nullable)]
    pub location: Option<String>,
    /// `start`: the search's id (its history entry; where to reconnect).
    #[oai(nullable)]
    pub search_id: Option<String>,
    /// `business_found`: the business's name.
    #[oai(nullable)]
    pub name: Option<String>,
    /// `business_found`: businesses found so far, this one included.
    #[oai(nullable)]
    pub found: Option<u32>,
    /// `business_found`: results Google returned so far.
    #[oai(nullable)]
    pub total: Option<u32>,
    /// `business_found`: the lead.
    #[oai(nullable)]
    pub lead: Option<LeadItem>,
    /// `complete`: every lead.
    #[oai(nullable)]
    pub results: Option<Vec<LeadItem>>,
    /// `complete`: what was searched.
    #[oai(nullable)]
    pub search: Option<SearchEcho>,
    /// `complete`: usage after the search.
    #[oai(nullable)]
    pub usage: Option<UsageStats>,
    /// `complete`: what the search cost your Google key.
    #[oai(nullable)]
    pub cost: Option<CostItem>,
    /// `complete`: why it ended before covering everything (`max_cost`, `allowance`).
    #[oai(nullable)]
    pub stop_reason: Option<String>,
    /// `complete`: what you should know about the results.
    #[oai(nullable)]
    pub notice: Option<String>,
    /// `progress`: rectangles probed (free).
    #[oai(nullable)]
    pub areas_probed: Option<u32>,
    /// `progress`: rectangles fetched.
    #[oai(nullable)]
    pub areas_fetched: Option<u32>,
    /// `progress`: rectangles planned for fetching so far.
    #[oai(nullable)]
    pub areas_planned: Option<u32>,
    /// `progress`: leads sent so far.
    #[oai(nullable)]
    pub leads: Option<u32>,
    /// `progress`: places found by the probes so far (before filters).
    #[oai(nullable)]
    pub places_found: Option<u32>,
    /// `progress`: requests billed so far.
    #[oai(nullable)]
    pub billable_requests: Option<u32>,
    /// `progress`: US dollars spent so far.
    #[oai(nullable)]
    pub cost_usd: Option<f64>,
    /// `progress`: US dollars expected in all.
    #[oai(nullable)]
    pub estimated_cost_usd: Option<f64>,
    /// `progress`: places expected in all.
    #[oai(nullable)]
    pub estimated_places: Option<u32>,
    /// `lead_enriched`: the lead's place id.
    #[oai(nullable)]
    pub place_id: Option<String>,
    /// `lead_enriched`: emails its website publishes.
    #[oai(nullable)]
    pub emails: Option<Vec<String>>,
    /// `lead_enriched`: social profiles its website links to.
    #[oai(nullable)]
    pub socials: Option<SocialsItem>,
    /// `lead_enriched`: the contact page read, if any.
    #[oai(nullable)]
    pub contact_page: Option<String>,
    /// `lead_enriched`: how reading the site went (`found`, `none`, `not_read`).
    #[oai(nullable)]
    pub status: Option<String>,
    /// `lead_enriched`: why the site was not read (`not_read` only), e.g. `timed_out`,
    /// `robots_txt`, `site_down`, `not_reached_in_time`.
    #[oai(nullable)]
    pub reason: Option<String>,
    /// `error`: what went wrong.
    #[oai(nullable)]
    pub message: Option<String>,
}

/// The spec's usage stats.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct UsageStats {
    /// Searches this month against the monthly allowance, plus leads.
    pub usage: UsageNumbers,
    /// When the monthly allowance resets.
    pub period: UsagePeriod,
    /// Whether a Places key is configured.
    pub api_key: UsageApiKey,
    /// The user's plan.
    pub tier: UsageTier,
    /// Warning levels: approaching from 75%, near from 90%, over at 100% (one at most).
    pub status: UsageLevel,
    /// Tips.
    pub recommendations: Vec<String>,
}

/// Usage numbers.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct UsageNumbers {
    /// Searches this month.
    pub current: i64,
    /// Searches allowed per month.
    pub limit: i64,
    /// Searches left this month.
    pub remaining: i64,
    /// `current / limit`, percent.
    pub percentage: f64,
    /// Leads delivered this month.
    pub leads_this_month: i64,
    /// Leads used today (including running searches' reservations).
    pub leads_today: i64,
    /// Leads allowed per day; null when uncapped.
    #[oai(nullable)]
    pub daily_lead_limit: Option<i64>,
}

/// Reset date.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct UsagePeriod {
    /// First day of next month, `YYYY-MM-DD` (UTC).
    pub reset_date: String,
    /// Days until then.
    pub days_until_reset: i64,
}

/// Key configuration.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct UsageApiKey {
    /// A key is stored.
    pub configured: bool,
    /// When it was saved (RFC 3339).
    #[oai(nullable)]
    pub last_updated: Option<String>,
}

/// Plan.
#[derive(Debug, Clone, Object)]
pub struct UsageTier {
    /// `free` or `pro`.
    pub current: String,
    /// `Free` or `Pro`.
    pub name: String,
}

/// Warning levels.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct UsageLevel {
    /// At or over the monthly allowance.
    pub is_over_limit: bool,
    /// From 90%.
    pub is_near_limit: bool,
    /// From 75% to 90%.
    pub is_approaching_limit: bool,
}

impl From<UsageReport> for UsageStats {
    fn from(r: UsageReport) -> Self {
        Self {
            usage: UsageNumbers {
                current: r.usage.current,
                limit: r.usage.limit,
                remaining: r.usage.remaining,
                percentage: r.usage.percentage,
                leads_this_month: r.usage.leads_this_month,
                leads_today: r.usage.leads_today,
                daily_lead_limit: r.usage.daily_lead_limit,
            },
            period: UsagePeriod {
                reset_date: r.period.reset_date,
                days_until_reset: r.period.days_until_reset,
            },
            api_key: UsageApiKey {
                configured: r.api_key.configured,
                last_updated: r.api_key.last_updated,
            },
            tier: UsageTier {
                current: r.tier.current,
                name: r.tier.name,
            },
            status: UsageLevel {
                is_over_limit: r.status.is_over_limit,
                is_near_limit: r.status.is_near_limit,
                is_approaching_limit: r.status.is_approaching_limit,
            },
            recommendations: r.recommendations,
        }
    }
}

/// `GET /api/leads/usage` answer.
#[derive(Debug, Object)]
pub struct UsageResponse {
    /// Always true.
    pub success: bool,
    /// The stats.
    pub data: UsageStats,
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
