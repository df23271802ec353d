//! Running one search: Text Search pages (at most 3 of 20), deduplicated by place id,
//! within the caller's lead budget, each new lead emitted as it arrives.
//!
//! The runner knows nothing of queues or transports: the worker gives it a rate gate (per
//! API key), a sink for events and a way to learn that nobody listens any more, and, when
//! the job is a retry, where the earlier run stopped ([`Resume`]).

mod checkpoint;
mod cost;
mod estimate;
mod full;
mod leads;
mod locate;
mod options;
mod query;
mod status;
pub mod tiling;

use std::{collections::HashSet, future::Future};

use serde::{Deserialize, Serialize};

pub use checkpoint::{Checkpoint, DoneTile, Progress, Resume};
pub use cost::{PriceTable, Requests, SearchCost, Sku, round_cents};
pub use estimate::{Estimate, EstimateLimits, estimate};
pub use full::FULL_CONCURRENCY;
pub use leads::lead_from_place;
pub use locate::{AreaCache, LOCATE_FIELD_MASK, NoAreaCache, locate, normalise_location};
pub use options::{
    Area, Coverage, InvalidOption, LeadFilters, MAX_COST_USD, MAX_MIN_REVIEWS, MAX_RADIUS_METERS, PhoneFilter,
    WebsiteFilter,
};
pub use query::{InvalidSearch, MAX_LOCATION, MISSING_FIELDS, RawSearch, SearchQuery, ValidSearch};
pub use status::SearchStatus;

use crate::{
    lead::{BusinessFound, Lead, SearchEvent, SearchParams},
    places::{PlacesClient, PlacesError, SearchTextRequest},
};

/// Google serves at most 3 pages of 20 per query.
pub const MAX_PAGES: usize = 3;
/// Results per page (Google's maximum).
pub const PAGE_SIZE: u32 = 20;
/// Most leads one search can produce.
pub const MAX_LEADS: u32 = MAX_PAGES as u32 * PAGE_SIZE;

/// Waits until another upstream call with this key is allowed.
pub trait RateGate: Send + Sync {
    /// Resolves when the next call for `key_id` may go.
    fn until_ready(&self, key_id: &str) -> impl Future<Output = ()> + Send;
}

/// Where a running search sends its events.
pub trait EventSink: Send {
    /// Delivers a page's events in order, together with the checkpoint reached after them,
    /// in one step (so a retry never repeats a page whose leads went out, nor skips one
    /// whose leads did not); an error means the search should stop.
    fn emit(
        &mut self,
        events: Vec<SearchEvent>,
        checkpoint: &Checkpoint,
    ) -> impl Future<Output = Result<(), SearchStopped>> + Send;
    /// True when nobody wants the rest of this search any more.
    fn cancelled(&mut self) -> impl Future<Output = bool> + Send;
}

/// The search stopped because its listener went away or its events cannot be delivered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("search stopped: {0}")]
pub struct SearchStopped(pub String);

/// How a search ended, short of success.
#[derive(Debug, thiserror::Error)]
pub enum SearchFailure {
    /// Google refused or failed.
    #[error(transparent)]
    Upstream(#[from] PlacesError),
    /// Cancelled or undeliverable.
    #[error(transparent)]
    Stopped(#[from] SearchStopped),
    /// The search cannot run as asked (a location Google cannot place, an area too large,
    /// a budget that does not cover the first request); the message says why.
    #[error("{0}")]
    Refused(String),
}

/// Why a search ended before it covered everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "StopReason", rename_all = "snake_case")
)]
pub enum StopReason {
    /// The next request would have spent more than `maxCostUsd`.
    MaxCost,
    /// The user's lead allowance ran out.
    Allowance,
}

impl StopReason {
    /// The wire word: `max_cost`, `allowance`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MaxCost => "max_cost",
            Self::Allowance => "allowance",
        }
    }
}

/// Grants a running search more leads from the user's allowance, as they stream.
pub trait LeadAllowance: Send + Sync {
    /// Takes up to `wanted` more leads; returns how many were granted (0: none left).
    fn grant(&self, wanted: u32) -> impl Future<Output = u32> + Send;
}

/// An allowance that grants nothing beyond the reservation (quick searches, tests).
pub struct NoMoreLeads;

impl LeadAllowance for NoMoreLeads {
    async fn grant(&self, _wanted: u32) -> u32 {
        0
    }
}

/// How a search ended: its leads (those an earlier run delivered first), what it cost,
/// and whether it stopped early.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchOutcome {
    /// Every lead sent, in order.
    pub leads: Vec<Lead>,
    /// Requests made to Google, by SKU (an earlier run's included).
    pub requests: Requests,
    /// Why it stopped before covering everything.
    pub stop: Option<StopReason>,
    /// Whether some spot held more matches than Google lists for one query (full
    /// coverage cannot tell those apart by area).
    pub truncated: bool,
    /// How many places the area was expected to hold, when the search knows (full
    /// coverage: what its probes counted, exact once every area is probed).
    pub expected_places: Option<u32>,
}

/// Who to ask and how fast: the Places client, the user's key and the key's rate gate.
pub struct Upstream<'a, G: RateGate> {
    /// Google Places.
    pub client: &'a PlacesClient,
    /// The user's key.
    pub api_key: &'a str,
    /// The key's fingerprint, for the rate gate (never the key).
    pub key_id: &'a str,
    /// The key's rate gate.
    pub gate: &'a G,
}

impl<G: RateGate> Upstream<'_, G> {
    /// One page with `mask`, once the gate allows.
    pub(crate) async fn page(
        &self,
        mask: &str,
        request: &SearchTextRequest,
    ) -> Result<crate::places::SearchTextResponse, PlacesError> {
        self.gate.until_ready(self.key_id).await;
        self.client.search_text_with_mask(self.api_key, mask, request).await
    }
}

/// One search to run.
pub struct SearchPlan<'a> {
    /// What the user asked for.
    pub search: &'a ValidSearch,
    /// Leads reserved before it was queued (at most [`MAX_LEADS`]); a full search asks
    /// its [`LeadAllowance`] for more as leads stream.
    pub lead_budget: u32,
    /// Prices of Google's SKUs.
    pub prices: PriceTable,
    /// Requests in flight at once (full coverage; the rate gate still paces them).
    pub concurrency: usize,
}

impl SearchPlan<'_> {
    /// What `start` and `complete` echo.
    pub fn params(&self) -> SearchParams {
        self.search.params()
    }

    /// Whether spending `more` dollars on top of `spent` stays within the budget.
    pub(crate) fn affords(&self, spent: &Requests, sku: Sku, n: u32) -> bool {
        self.search
            .max_cost_usd()
            .is_none_or(|max| spent.cost_usd(&self.prices) + f64::from(n) * self.prices.per_request(sku) <= max + 1e-9)
    }
}

/// Runs the search; emits `business_found` for each new lead (and `progress` for a full
/// search) and returns the outcome. The caller emits `start` before and `complete`/`error`
/// after, since they carry usage.
///
/// With a [`Resume`], what the earlier run finished is skipped (pages or tiles), and new
/// leads are numbered after the delivered ones.
pub async fn run(
    upstream: &Upstream<'_, impl RateGate>,
    plan: &SearchPlan<'_>,
    sink: &mut impl EventSink,
    allowance: &impl LeadAllowance,
    cache: &impl AreaCache,
    resume: Resume,
) -> Result<SearchOutcome, SearchFailure> {
    match plan.search.coverage() {
        Coverage::Quick => quick(upstream, plan, sink, resume).await,
        Coverage::Full => full::run(upstream, plan, sink, allowance, cache, resume).await,
    }
}

/// The Text Search request of a search's first page: "{label} in {location}", or the
/// label alone restricted to an explicit area's bounds.
pub fn first_request(search: &ValidSearch) -> SearchTextRequest {
    let business = search.business();
    let (text_query, location_restriction) = match search.area() {
        Some(area) => (business.label.to_owned(), Some(area.bounds().into())),
        None => (business.text_query(search.location()), None),
    };
    SearchTextRequest {
        text_query,
        included_type: business.is_included_type().then(|| business.value.to_owned()),
        page_size: PAGE_SIZE,
        page_token: None,
        location_restriction,
        min_rating: search.filters().google_min_rating(),
    }
}

/// The lead field mask, with the place's location when the area must be checked (a
/// circle). Location is a Pro field, so the Enterprise price does not change.
pub(crate) fn lead_mask(search: &ValidSearch) -> String {
    match search.area() {
        Some(area) if area.needs_location() => format!("{},places.location", crate::places::LEAD_FIELD_MASK),
        _ => crate::places::LEAD_FIELD_MASK.to_owned(),
    }
}

/// The lead of a place if it passes the search's filters and lies in its area.
pub(crate) fn accepted_lead(search: &ValidSearch, place: crate::places::Place) -> Option<Lead> {
    if let (Some(area), Some(at)) = (search.area(), place.location)
        && area.needs_location()
        && !area.contains(tiling::LatLng {
            lat: at.latitude,
            lng: at.longitude,
        })
    {
        return None;
    }
    lead_from_place(place).filter(|lead| search.filters().accepts(lead))
}

/// A quick search: one query, at most 3 pages of 20.
async fn quick(
    upstream: &Upstream<'_, impl RateGate>,
    plan: &SearchPlan<'_>,
    sink: &mut impl EventSink,
    resume: Resume,
) -> Result<SearchOutcome, SearchFailure> {
    let mut request = first_request(plan.search);
    let mask = lead_mask(plan.search);
    let mut seen: HashSet<String> = resume.delivered.iter().map(|l| l.place_id.clone()).collect();
    let mut outcome = SearchOutcome {
        leads: resume.delivered,
        ..SearchOutcome::default()
    };
    let (mut pages, mut total) = (0u32, 0u32);
    if let Some(Checkpoint::Pages {
        pages: done,
        places_seen,
        next_page_token,
        ..
    }) = resume.checkpoint
    {
        (pages, total) = (done, places_seen);
        outcome.requests.add(Sku::Enterprise, done);
        match next_page_token {
            Some(token) => request.page_token = Some(token),
            // The earlier run fetched the last page: nothing left to ask Google.
            None => return Ok(outcome),
        }
    }
    while pages < MAX_PAGES as u32 {
        if outcome.leads.len() as u32 >= plan.lead_budget {
            break;
        }
        if sink.cancelled().await {
            return Err(SearchStopped("nobody is listening".into()).into());
        }
        if !plan.affords(&outcome.requests, Sku::Enterprise, 1) {
            outcome.stop = Some(StopReason::MaxCost);
            break;
        }
        let page = upstream.page(&mask, &request).await?;
        pages += 1;
        outcome.requests.add(Sku::Enterprise, 1);
        total += page.places.len() as u32;
        let mut found = Vec::new();
        for place in page.places {
            if outcome.leads.len() as u32 >= plan.lead_budget {
                break;
            }
            let Some(lead) = accepted_lead(plan.search, place) else {
                continue;
            };
            if !seen.insert(lead.place_id.clone()) {
                continue;
            }
            outcome.leads.push(lead.clone());
            found.push(SearchEvent::BusinessFound(BusinessFound {
                name: lead.name.clone(),
                found: outcome.leads.len() as u32,
                total,
                lead,
            }));
        }
        let next_page_token = page.next_page_token.filter(|token| !token.is_empty());
        let checkpoint = Checkpoint::Pages {
            pages,
            places_seen: total,
            leads: outcome.leads.len() as u32,
            next_page_token: next_page_token.clone(),
        };
        sink.emit(found, &checkpoint).await?;
        match next_page_token {
            Some(token) => request.page_token = Some(token),
            None => break,
        }
    }
    Ok(outcome)
}
