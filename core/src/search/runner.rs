//! What running a search is given (who to ask, how fast, where its events go, its leads'
//! allowance) and what it gives back.

use std::{collections::HashSet, future::Future};

use super::{
    checkpoint::Checkpoint,
    cost::{PriceTable, Requests, Sku},
    query::ValidSearch,
};
use crate::{
    lead::{Lead, SearchEvent, SearchParams, StopReason},
    places::{PlacesClient, PlacesError, SearchTextRequest},
};

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
    /// The completeness meter's last reading (full coverage, when Google counted).
    pub completeness: Option<super::meter::SearchCompleteness>,
    /// Distinct matching places left out by the search's `exclude` (known to the
    /// workspace's place memory); 0 for `exclude: none`.
    pub excluded: u32,
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
    /// The completeness meter (Places Aggregate API), when it is on: a full search asks it
    /// once how many places its area holds.
    pub aggregate: Option<&'a crate::places::AggregateClient>,
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

    /// One place by id with `mask` (a Place Details mask), once the gate allows.
    pub(crate) async fn details(&self, mask: &str, place_id: &str) -> Result<crate::places::Place, PlacesError> {
        self.gate.until_ready(self.key_id).await;
        self.client.place_details(self.api_key, mask, place_id).await
    }
}

/// One search to run.
pub struct SearchPlan<'a> {
    /// What the user asked for.
    pub search: &'a ValidSearch,
    /// Leads reserved before it was queued (at most [`MAX_LEADS`](super::paging::MAX_LEADS)); a full search asks
    /// its [`LeadAllowance`] for more as leads stream.
    pub lead_budget: u32,
    /// Prices of Google's SKUs.
    pub prices: PriceTable,
    /// Requests in flight at once (full coverage; the rate gate still paces them).
    pub concurrency: usize,
    /// What the workspace's monthly spend cap leaves this search, if it has a cap; read
    /// before each request, lowered while it runs as other searches spend.
    pub spend_cap: Option<crate::spend::LiveSpendCap>,
    /// Place ids the search must not send (its `exclude`, read from the workspace's
    /// place memory before it starts; empty for `none`).
    pub excluded: HashSet<String>,
    /// Whether a full search whose area the completeness meter counts at
    /// [`MAX_PLACE_IDS`](super::missing::MAX_PLACE_IDS) places or fewer fetches, by id,
    /// those Google lists that its pages did not (`LEADGEN_COMPLETENESS_FETCH_MISSING`).
    pub fetch_missing: bool,
    /// The workspace's remembered plans (`LEADGEN_PLAN_MEMORY_DAYS`; `None` when off): a
    /// full search runs from its area's plan when one is remembered, and leaves its own.
    pub plan_memory: Option<&'a dyn super::plan_memory::PlanMemory>,
}

impl SearchPlan<'_> {
    /// Whether `place_id` is left out by the search's `exclude`.
    pub(crate) fn is_excluded(&self, place_id: &str) -> bool {
        self.excluded.contains(place_id)
    }
}

impl SearchPlan<'_> {
    /// What `start` and `complete` echo.
    pub fn params(&self) -> SearchParams {
        self.search.params()
    }

    /// The limit `n` more requests of `sku` on top of `spent` would pass, if any: the
    /// search's own budget (`maxCostUsd`) first, then what the workspace's monthly cap
    /// leaves it. A search stops before such a request, with what it has.
    pub(crate) fn limit_passed(&self, spent: &Requests, sku: Sku, n: u32) -> Option<StopReason> {
        let after = spent.cost_usd(&self.prices) + f64::from(n) * self.prices.per_request(sku);
        let within = |max: f64| after <= max + 1e-9;
        if !self.search.max_cost_usd().is_none_or(within) {
            return Some(StopReason::MaxCost);
        }
        if !self.spend_cap.as_ref().is_none_or(|cap| within(cap.left_usd())) {
            return Some(StopReason::SpendCap);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        search::query::RawSearch,
        spend::{LiveSpendCap, SpendCap},
    };

    fn search(max_cost_usd: Option<f64>) -> ValidSearch {
        ValidSearch::try_from(RawSearch {
            business_type: "cafe".into(),
            location: "Austin, TX".into(),
            max_cost_usd,
            ..RawSearch::default()
        })
        .expect("valid")
    }

    fn plan(search: &ValidSearch, spend_cap: Option<SpendCap>) -> SearchPlan<'_> {
        SearchPlan {
            search,
            lead_budget: 60,
            prices: PriceTable::default(),
            concurrency: 1,
            spend_cap: spend_cap.map(LiveSpendCap::new),
            excluded: HashSet::new(),
            fetch_missing: false,
            plan_memory: None,
        }
    }

    #[test]
    fn a_search_stops_at_its_budget_first_then_at_the_workspace_cap() {
        let page = PriceTable::default().per_request(Sku::Enterprise);
        let two_pages = Requests {
            enterprise: 2,
            ..Requests::default()
        };
        let unlimited = search(None);
        assert_eq!(
            plan(&unlimited, None).limit_passed(&two_pages, Sku::Enterprise, 100),
            None
        );
        // The cap leaves three pages: the third fits, the fourth does not.
        let cap = SpendCap::new(1_000, 10.0 - 3.0 * page);
        assert_eq!(
            plan(&unlimited, Some(cap)).limit_passed(&two_pages, Sku::Enterprise, 1),
            None
        );
        assert_eq!(
            plan(&unlimited, Some(cap)).limit_passed(&two_pages, Sku::Enterprise, 2),
            Some(StopReason::SpendCap)
        );
        // A cap already reached stops the first request.
        let reached = SpendCap::new(1_000, 10.0);
        assert_eq!(
            plan(&unlimited, Some(reached)).limit_passed(&Requests::default(), Sku::Enterprise, 1),
            Some(StopReason::SpendCap)
        );
        // Another search spending meanwhile lowers what is left: the third page no longer fits.
        let live = LiveSpendCap::new(cap);
        let shared = SearchPlan {
            spend_cap: Some(live.clone()),
            ..plan(&unlimited, None)
        };
        assert_eq!(shared.limit_passed(&two_pages, Sku::Enterprise, 1), None);
        live.update(10.0 - 3.0 * page + page);
        assert_eq!(
            shared.limit_passed(&two_pages, Sku::Enterprise, 1),
            Some(StopReason::SpendCap)
        );
        // The search's own budget, when both would stop it, is the reason given.
        let budgeted = search(Some(2.0 * page));
        assert_eq!(
            plan(&budgeted, Some(reached)).limit_passed(&two_pages, Sku::Enterprise, 1),
            Some(StopReason::MaxCost)
        );
    }
}
