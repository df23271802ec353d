//! Request and response shapes of `/api/leads/*`.

use leadgen_core::{
    lead::{Lead, SearchParams},
    usage::UsageReport,
};
use poem_openapi::Object;

/// What to search for.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct SearchRequest {
    /// A catalogue value from `GET /api/leads/business-types`, e.g. `restaurant`.
    #[oai(validator(max_length = 64))]
    pub business_type: Option<String>,
    /// A city, state, ZIP code or full address (trimmed; at most 200 characters).
    #[oai(validator(max_length = 400))]
    pub location: Option<String>,
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
    pub rating: Option<f64>,
    /// Number of ratings, when rated.
    pub review_count: Option<u32>,
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
pub struct SearchResult {
    /// Always true (failures answer with an error status).
    pub success: bool,
    /// Every lead found.
    pub results: Vec<LeadItem>,
    /// What was searched.
    pub search: SearchEcho,
    /// Usage after the search.
    pub usage: UsageStats,
}

/// One event of `POST /api/leads/search-stream` (the `data:` of an SSE frame). Which
/// fields are present depends on `type`: `start` (businessType, location),
/// `business_found` (name, found, total, lead), `complete` (results, search, usage),
/// `error` (message).
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct StreamEvent {
    /// `start`, `business_found`, `complete` or `error`.
    #[oai(rename = "type")]
    pub kind: String,
    /// `start`: catalogue value.
    pub business_type: Option<String>,
    /// `start`: location.
    pub location: Option<String>,
    /// `business_found`: the business's name.
    pub name: Option<String>,
    /// `business_found`: businesses found so far, this one included.
    pub found: Option<u32>,
    /// `business_found`: results Google returned so far.
    pub total: Option<u32>,
    /// `business_found`: the lead.
    pub lead: Option<LeadItem>,
    /// `complete`: every lead.
    pub results: Option<Vec<LeadItem>>,
    /// `complete`: what was searched.
    pub search: Option<SearchEcho>,
    /// `complete`: usage after the search.
    pub usage: Option<UsageStats>,
    /// `error`: what went wrong.
    pub message: Option<String>,
    /// The frame's `id:` (not part of `data:`).
    #[oai(skip)]
    pub id: u64,
    /// The event as sent (the frame's `data:`).
    #[oai(skip)]
    pub data: String,
}

impl StreamEvent {
    /// A frame for an event: the JSON is the bus event itself.
    pub fn frame(id: u64, event: &leadgen_core::lead::SearchEvent) -> Self {
        let data = serde_json::to_string(event)
            .unwrap_or_else(|_| r#"{"type":"error","message":"Stream processing failed"}"#.into());
        Self {
            kind: String::new(),
            business_type: None,
            location: None,
            name: None,
            found: None,
            total: None,
            lead: None,
            results: None,
            search: None,
            usage: None,
            message: None,
            id,
            data,
        }
    }
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
pub struct BusinessTypesResponse {
    /// The spec's 13 groups.
    pub groups: Vec<BusinessTypeGroupItem>,
}
