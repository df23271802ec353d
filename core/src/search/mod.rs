//! Running one search: Text Search pages (at most 3 of 20), deduplicated by place id,
//! within the caller's lead budget, each new lead emitted as it arrives.
//!
//! The runner knows nothing of queues or transports: the worker gives it a rate gate (per
//! API key), a sink for events and a way to learn that nobody listens any more, and, when
//! the job is a retry, where the earlier run stopped ([`Resume`]).

mod checkpoint;
mod leads;
mod query;
mod status;
pub mod tiling;

use std::{collections::HashSet, future::Future};

pub use checkpoint::{Checkpoint, Resume};
pub use leads::lead_from_place;
pub use query::{InvalidSearch, MAX_LOCATION, MISSING_FIELDS, RawSearch, SearchQuery, ValidSearch};
pub use status::SearchStatus;

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

/// Runs the search; emits `business_found` for each new lead and returns them all (those
/// an earlier run delivered first). The caller emits `start` before and `complete`/`error`
/// after, since they carry usage.
///
/// With a [`Resume`], the pages the earlier run fetched are skipped: the runner continues
/// from the stored page token, and numbers new leads after the delivered ones.
pub async fn run(
    client: &PlacesClient,
    api_key: &str,
    plan: &SearchPlan<'_>,
    gate: &impl RateGate,
    sink: &mut impl EventSink,
    resume: Resume,
) -> Result<Vec<Lead>, SearchFailure> {
    let mut request = SearchTextRequest {
        text_query: plan.business.text_query(&plan.params.location),
        included_type: plan.business.is_included_type().then(|| plan.business.value.to_owned()),
        page_size: PAGE_SIZE,
        page_token: None,
        location_restriction: None,
    };
    let mut seen: HashSet<String> = resume.delivered.iter().map(|l| l.place_id.clone()).collect();
    let mut leads = resume.delivered;
    let (mut pages, mut total) = (0u32, 0u32);
    if let Some(Checkpoint::Pages {
        pages: done,
        places_seen,
        next_page_token,
    }) = resume.checkpoint
    {
        match next_page_token {
            Some(token) => request.page_token = Some(token),
            // The earlier run fetched the last page: nothing left to ask Google.
            None => return Ok(leads),
        }
        (pages, total) = (done, places_seen);
    }
    while pages < MAX_PAGES as u32 {
        if leads.len() as u32 >= plan.lead_budget {
            break;
        }
        if sink.cancelled().await {
            return Err(SearchStopped("nobody is listening".into()).into());
        }
        gate.until_ready(plan.key_id).await;
        let page = client.search_text(api_key, &request).await?;
        pages += 1;
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
        let next_page_token = page.next_page_token.filter(|token| !token.is_empty());
        let checkpoint = Checkpoint::Pages {
            pages,
            places_seen: total,
            next_page_token: next_page_token.clone(),
        };
        sink.emit(found, &checkpoint).await?;
        match next_page_token {
            Some(token) => request.page_token = Some(token),
            None => break,
        }
    }
    Ok(leads)
}
