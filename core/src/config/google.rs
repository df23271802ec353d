//! `[places]` and `[google]`: Google's APIs, what a search may ask of them and what their
//! requests cost.

use serde::{Deserialize, Deserializer};
use url::Url;

use super::de;

/// Google's issuer, used when an OIDC client id is set without an issuer.
pub const GOOGLE_ISSUER: &str = "https://accounts.google.com";
/// Google Places API (New) base URL.
pub const GOOGLE_PLACES_BASE_URL: &str = "https://places.googleapis.com";
/// Google's Places Aggregate API base URL (`POST /v1:computeInsights`).
pub const GOOGLE_AGGREGATE_BASE_URL: &str = "https://areainsights.googleapis.com";
/// Google's OAuth 2.0 token endpoint (refreshing Sheets access).
pub const GOOGLE_TOKEN_URL: &str = "https://oauth2.googleapis.com/token";
/// Google Sheets API base URL (paths start with `/v4/`).
pub const GOOGLE_SHEETS_BASE_URL: &str = "https://sheets.googleapis.com";
/// Google Drive API base URL (paths start with `/drive/v3/`).
pub const GOOGLE_DRIVE_BASE_URL: &str = "https://www.googleapis.com";

/// A URL constant of this module, parsed.
fn known(url: &str) -> Url {
    Url::parse(url).expect("Google's URLs parse")
}

/// Google Places.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlacesConfig {
    /// `LEADGEN_PLACES_BASE_URL`: Google Places API (New) base URL; tests and demos point
    /// it at the simulator. Default `https://places.googleapis.com`.
    #[serde(deserialize_with = "de::http_url")]
    pub base_url: Url,
    /// `LEADGEN_PLACES_RPS`: upstream requests per second allowed per API key, across the
    /// whole fleet. Default 10 (Google's default quota: 600 Text Search requests a
    /// minute); held to 1 to 10000.
    #[serde(deserialize_with = "rps")]
    pub rps: u32,
    /// `[places.prices]`: what Text Search requests cost.
    pub prices: PriceTable,
    /// `LEADGEN_AGGREGATE_BASE_URL`: Google's Places Aggregate API base URL, which the
    /// completeness meter counts places with; tests and demos point it at the simulator.
    /// Default `https://areainsights.googleapis.com`.
    #[serde(deserialize_with = "de::http_url")]
    pub aggregate_base_url: Url,
    /// `LEADGEN_COMPLETENESS`: whether an estimate asks the Places Aggregate API how many
    /// places of the type the area holds (one billed call, `aggregate` in the prices).
    /// `on` or `off` (also `true`/`false`). Default on.
    #[serde(deserialize_with = "switch")]
    pub completeness: bool,
    /// `LEADGEN_COMPLETENESS_FETCH_MISSING`: whether a full search whose area Google
    /// counts at 100 places or fewer asks the Places Aggregate API for their ids at the
    /// end (one more call) and fetches by Place Details those its pages did not list.
    /// `on` or `off`. Default on; nothing happens while `LEADGEN_COMPLETENESS` is off.
    #[serde(deserialize_with = "switch")]
    pub completeness_fetch_missing: bool,
    /// `LEADGEN_PLAN_MEMORY_DAYS`: days a full search's plan of its area (our rectangles
    /// and how many places Google listed in each; no place data) is remembered, so that a
    /// later full search of the same query and area in the same workspace fetches at once
    /// instead of probing the area again. 0 turns it off. Default 30, at most 30: the plan
    /// is derived from Google's answers, and 30 days is the longest Google's terms let
    /// anything but place ids be kept.
    #[serde(deserialize_with = "plan_memory_days")]
    pub plan_memory_days: u32,
    /// `LEADGEN_PROBE_AFTER_ESTIMATE_SECS`: how long a full search's estimate goes on
    /// probing (free IDs-only requests, at the key's pace) after it answers, while the
    /// user reads it, so that the search pressed then has less to probe. Only where the
    /// workspace keeps place ids; it stops sooner when the area is all probed or the
    /// search starts. 0 turns it off. Default 20, at most 60.
    #[serde(deserialize_with = "probe_after_estimate_secs")]
    pub probe_after_estimate_secs: u32,
}

impl Default for PlacesConfig {
    fn default() -> Self {
        Self {
            base_url: known(GOOGLE_PLACES_BASE_URL),
            rps: 10,
            prices: PriceTable::default(),
            aggregate_base_url: known(GOOGLE_AGGREGATE_BASE_URL),
            completeness: true,
            completeness_fetch_missing: true,
            plan_memory_days: DEFAULT_PLAN_MEMORY_DAYS,
            probe_after_estimate_secs: DEFAULT_PROBE_AFTER_ESTIMATE_SECS,
        }
    }
}

/// US dollars per 1,000 requests of each SKU Leadgen uses, from 0 to 10000.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PriceTable {
    /// `LEADGEN_PRICE_TEXT_SEARCH_IDS_ONLY`: IDs only. Default Google's list price, 0.
    #[serde(deserialize_with = "price")]
    pub ids_only: f64,
    /// `LEADGEN_PRICE_TEXT_SEARCH_PRO`: Pro. Default Google's list price, 32.
    #[serde(deserialize_with = "price")]
    pub pro: f64,
    /// `LEADGEN_PRICE_TEXT_SEARCH_ENTERPRISE`: Enterprise. Default Google's list price, 35.
    #[serde(deserialize_with = "price")]
    pub enterprise: f64,
    /// `LEADGEN_PRICE_PLACES_AGGREGATE`: one Places Aggregate API call (the "Places
    /// Aggregate" SKU, `computeInsights`), the completeness meter's count. Default 10
    /// (about a cent a call).
    #[serde(deserialize_with = "price")]
    pub aggregate: f64,
    /// `LEADGEN_PRICE_PLACE_DETAILS_ENTERPRISE`: one Place Details (New) call with the
    /// lead fields ("Place Details Enterprise"), which full coverage makes for a few new
    /// places when cheaper than a rectangle's pages. Default Google's list price, 20.
    #[serde(deserialize_with = "price")]
    pub details: f64,
}

impl Default for PriceTable {
    fn default() -> Self {
        Self {
            ids_only: 0.0,
            pro: 32.0,
            enterprise: 35.0,
            aggregate: 10.0,
            details: 20.0,
        }
    }
}

/// Where the Sheets export talks to Google; tests point them at the fake.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoogleApis {
    /// `LEADGEN_GOOGLE_TOKEN_URL`: OAuth 2.0 token endpoint (refresh-token grant).
    /// Default Google's.
    #[serde(deserialize_with = "de::http_url")]
    pub token_url: Url,
    /// `LEADGEN_SHEETS_BASE_URL`: Sheets API v4 base URL. Default Google's.
    #[serde(deserialize_with = "de::http_url")]
    pub sheets_base_url: Url,
    /// `LEADGEN_DRIVE_BASE_URL`: Drive API v3 base URL. Default Google's.
    #[serde(deserialize_with = "de::http_url")]
    pub drive_base_url: Url,
}

impl Default for GoogleApis {
    fn default() -> Self {
        Self {
            token_url: known(GOOGLE_TOKEN_URL),
            sheets_base_url: known(GOOGLE_SHEETS_BASE_URL),
            drive_base_url: known(GOOGLE_DRIVE_BASE_URL),
        }
    }
}

fn rps<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    // Held to the range rather than refused, as it always was: 0 means "slowest".
    Ok(u32::try_from(de::whole(d)?.clamp(1, 10_000)).unwrap_or(10))
}

/// `LEADGEN_PLAN_MEMORY_DAYS`' default, and its most.
pub const DEFAULT_PLAN_MEMORY_DAYS: u32 = 30;

fn plan_memory_days<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    de::whole_in(d, 0, i64::from(DEFAULT_PLAN_MEMORY_DAYS), "days").map(|n| n as u32)
}

/// `LEADGEN_PROBE_AFTER_ESTIMATE_SECS`' default: about what a user takes to read an
/// estimate and press Search; at 10 requests a second, 200 IDs-only requests, a
/// 1,500-place metro's whole probing.
pub const DEFAULT_PROBE_AFTER_ESTIMATE_SECS: u32 = 20;

fn probe_after_estimate_secs<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    de::whole_in(d, 0, 60, "seconds").map(|n| n as u32)
}

/// A switch: `on`/`off`, `true`/`false`, `1`/`0` (or a TOML boolean).
fn switch<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Flag(bool),
        Text(String),
    }
    match Raw::deserialize(d)? {
        Raw::Flag(flag) => Ok(flag),
        Raw::Text(text) => match text.trim().to_ascii_lowercase().as_str() {
            "on" | "true" | "1" => Ok(true),
            "off" | "false" | "0" => Ok(false),
            _ => Err(serde::de::Error::invalid_value(
                serde::de::Unexpected::Str(&text),
                &"on or off",
            )),
        },
    }
}

fn price<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    de::number_in(d, 0.0, 10_000.0, "US dollars per 1,000 requests,")
}
