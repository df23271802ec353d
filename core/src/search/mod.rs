//! Running one search: Text Search pages (at most 3 of 20), deduplicated by place id,
//! within the caller's lead budget, each new lead emitted as it arrives.
//!
//! The runner knows nothing of queues or transports: the worker gives it a rate gate (per
//! API key), a sink for events and a way to learn that nobody listens any more.

mod leads;

use std::{collections::HashSet, future::Future};

pub use leads::lead_from_place;

use crate::{
    catalogue::BusinessType,
    lead::{Lead, SearchEvent, SearchParams},
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
    /// Delivers a page's events in order (one round trip for the lot); an error means the
    /// search should stop.
    fn emit(&mut self, events: Vec<SearchEvent>) -> impl Future<Output = Result<(), SearchStopped>> + Send;
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
}

/// One search to run.
pub struct SearchPlan<'a> {
    /// What the user asked for.
    pub params: &'a SearchParams,
    /// The catalogue entry for `params.business_type`.
    pub business: BusinessType,
    /// At most this many leads (the user's remaining allowance, at most [`MAX_LEADS`]).
    pub lead_budget: u32,
    /// Identifies the API key for rate limiting (a hash, never the key).
    pub key_id: &'a str,
}

/// Runs the search; emits `business_found` for each new lead and returns them all. The
/// caller emits `start` before and `complete`/`error` after, since they carry usage.
pub async fn run(
    client: &PlacesClient,
    api_key: &str,
    plan: &SearchPlan<'_>,
    gate: &impl RateGate,
    sink: &mut impl EventSink,
) -> Result<Vec<Lead>, SearchFailure> {
    let mut request = SearchTextRequest {
        text_query: plan.business.text_query(&plan.params.location),
        included_type: plan.business.is_included_type().then(|| plan.business.value.to_owned()),
        page_size: PAGE_SIZE,
        page_token: None,
    };
    let mut seen = HashSet::new();
    let mut leads = Vec::new();
    let mut total = 0u32;
    for _ in 0..MAX_PAGES {
        if leads.len() as u32 >= plan.lead_budget {
            break;
        }
        if sink.cancelled().await {
            return Err(SearchStopped("nobody is listening".into()).into());
        }
        gate.until_ready(plan.key_id).await;
        let page = client.search_text(api_key, &request).await?;
        total += page.places.len() as u32;
        let mut found = Vec::new();
        for place in page.places {
            if leads.len() as u32 >= plan.lead_budget {
                break;
            }
            let Some(lead) = lead_from_place(place) else { continue };
            if !seen.insert(lead.place_id.clone()) {
                continue;
            }
            leads.push(lead.clone());
            found.push(SearchEvent::BusinessFound {
                name: lead.name.clone(),
                found: leads.len() as u32,
                total,
                lead,
            });
        }
        if !found.is_empty() {
            sink.emit(found).await?;
        }
        match page.next_page_token {
            Some(token) if !token.is_empty() => request.page_token = Some(token),
            _ => break,
        }
    }
    Ok(leads)
}
