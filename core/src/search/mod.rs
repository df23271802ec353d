//! Running one search: Text Search pages (at most 3 of 20), deduplicated by place id,
//! within the caller's lead budget, each new lead emitted as it arrives.
//!
//! The runner knows nothing of queues or transports: the worker gives it a rate gate (per
//! API key), a sink for events and a way to learn that nobody listens any more, and, when
//! the job is a retry, where the earlier run stopped ([`Resume`]).

mod cheaper;
mod checkpoint;
mod completeness;
mod cost;
mod estimate;
mod full;
mod keep_probing;
mod leads;
mod locate;
mod meter;
mod missing;
mod options;
mod paging;
mod plan_memory;
mod polygon;
mod postal;
mod query;
mod quick;
mod request;
mod runner;
mod status;
pub mod tiling;

pub use checkpoint::{Checkpoint, DoneTile, Progress, Resume};
pub use cost::{PriceTable, Requests, SearchCost, Sku, round_cents};
pub use estimate::{Estimate, EstimateLimits, WorkspaceKnows, estimate};
pub use full::FULL_CONCURRENCY;
pub use keep_probing::{FIRST_PROBE_AFTER, KeptProbing, ProbingEnded, Unfinished, keep_probing};
pub use leads::lead_from_place;
pub use locate::{
    AreaCache, LOCATE_FIELD_MASK, Located, Matched, NoAreaCache, area_of, cached, locate, normalise_location,
};
pub use meter::{Completeness, CompletenessSource, SearchCompleteness};
pub use options::{
    Area, Coverage, Exclude, InvalidOption, LeadFilters, MAX_COST_USD, MAX_MIN_REVIEWS, MAX_RADIUS_METERS, PhoneFilter,
    WebsiteFilter,
};
pub use paging::{MAX_LEADS, MAX_PAGES, PAGE_SIZE};
pub use plan_memory::{PROBES_KEPT, PlanKey, PlanMemory, ProbeAnswer, ProbeAnswers};
pub use polygon::{InvalidRing, MAX_POLYGON_POINTS, Ring};
pub use postal::PostalCode;
pub use query::{InvalidSearch, MAX_LOCATION, MISSING_FIELDS, RawSearch, SearchQuery, ValidSearch};
pub use request::first_request;
pub use runner::{
    EventSink, LeadAllowance, NoMoreLeads, RateGate, SearchFailure, SearchOutcome, SearchPlan, SearchStopped, Upstream,
};
pub use status::SearchStatus;

/// Why a search ended early; declared with the events that carry it.
pub use crate::lead::StopReason;

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
        Coverage::Quick => quick::quick(upstream, plan, sink, resume).await,
        Coverage::Full => full::run(upstream, plan, sink, allowance, cache, resume).await,
    }
}
