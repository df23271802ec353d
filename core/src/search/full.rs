//! A full-coverage search: every match in the area, past Google's 60-result cap, for
//! close to the least Google bills.
//!
//! The area is the location's viewport (one Pro request, cached) or the caller's explicit
//! area. The [planner](super::tiling) decides which rectangles to probe with the free
//! IDs-only mask and which to fetch with the lead mask; this runner drives it: probes and
//! fetches run concurrently under the key's rate gate, each fetched tile's leads go out
//! (deduplicated by place id, filtered, within the user's allowance) together with a
//! checkpoint naming the tiles done, and `progress` events say how far it is and what it
//! costs. A budget (`maxCostUsd`) is checked before every billable request.
//!
//! A finished plan is remembered for the workspace (`LEADGEN_PLAN_MEMORY_DAYS`, see
//! [`plan_memory`](super::plan_memory)); a later full search of the same query and area
//! fetches the remembered rectangles at once instead of probing the area again, and
//! leaves what it found (or verified) for the next one.
//!
//! With an `exclude`, a rectangle holding only a few new places may be fetched by Place
//! Details instead ([`cheaper`](super::cheaper)); with a small count from the completeness
//! meter, the places Google counts that no page listed are fetched by id at the end
//! ([`missing`](super::missing)).

use std::{
    collections::HashSet,
    time::{Duration, Instant},
};

use futures_util::{FutureExt, StreamExt, future::BoxFuture, stream::FuturesUnordered};

use super::{
    cheaper::TileFetch,
    checkpoint::{Checkpoint, DoneTile, Resume},
    completeness,
    cost::{Requests, Sku, round_cents},
    locate::{AreaCache, Located, Matched, cached, locate},
    meter::Completeness,
    missing,
    paging::{MAX_LEADS, MAX_PAGES},
    plan_memory::{PlanKey, ProbeAnswers},
    request::{accepted_lead, base_request, in_area},
    runner::{EventSink, LeadAllowance, RateGate, SearchFailure, SearchOutcome, SearchPlan, SearchStopped, Upstream},
    tiling::{CAP, Plans, Probe, ProbeId, ProbeQueue, Rect, Remembered},
};
use crate::{
    lead::{BusinessFound, Lead, SearchEvent, SearchProgress, StopReason},
    places::{
        AggregateArea, IDS_FIELD_MASK, LEAD_FIELD_MASK, Place, PlacesError, SearchTextRequest, details_field_mask,
    },
};

/// Requests one full search keeps in flight; the key's rate gate paces them (at 10 a
/// second and 300 ms a request, 3 would do; more absorbs slow answers).
pub const FULL_CONCURRENCY: usize = 8;
/// Shortest gap between two `progress` events without a fetched tile between them.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);
/// How often the runner asks whether anyone still listens.
const CANCEL_CHECK_EVERY: Duration = Duration::from_millis(250);

/// A finished request of the runner.
pub(crate) enum Done {
    Probe(ProbeId, Result<(Vec<String>, u32), PlacesError>),
    Fetch {
        /// The planned tile, or `None` for the planner's early page (one page of the
        /// area, fetched again with its region, so no tile is done by it).
        rect: Option<Rect>,
        /// Which of the plans' tiles it is (`None` for the early page).
        tile: Option<usize>,
        /// The requests counted against the budget when it started, by SKU.
        planned: Requests,
        /// The places, and the requests made, by SKU.
        result: Result<(Vec<Place>, Requests), PlacesError>,
    },
    /// The completeness meter's count of the area (never an error: a failed count is none).
    Count(Option<Completeness>, Requests),
}

/// Where a full search stands.
struct Tally {
    area: Rect,
    done: Vec<DoneTile>,
    requests: Requests,
    probed: u32,
    fetched: u32,
    /// Requests of fetches in flight: counted against the budget already.
    committed: Requests,
}

impl Tally {
    /// What is spent, and promised to fetches in flight: what the budget is checked on.
    fn spent(&self) -> Requests {
        self.requests.plus(&self.committed)
    }

    fn checkpoint(&self) -> Checkpoint {
        Checkpoint::Tiles {
            area: self.area,
            done: self.done.clone(),
            requests: self.requests,
        }
    }
}

pub(crate) async fn run(
    upstream: &Upstream<'_, impl RateGate>,
    plan: &SearchPlan<'_>,
    sink: &mut impl EventSink,
    allowance: &impl LeadAllowance,
    cache: &impl AreaCache,
    resume: Resume,
) -> Result<SearchOutcome, SearchFailure> {
    let search = plan.search;
    let mut out = Output::new(resume.delivered, plan.lead_budget);
    // What the meter counts (it counts only on a run that has sent nothing yet).
    let meter_area;
    let mut tally = match resume.checkpoint {
        Some(Checkpoint::Tiles { area, done, requests }) => {
            // A retry's area is its checkpoint's; what Google matched is in the cache (a
            // postal code's place id; none when it is gone: no count rather than a wrong
            // one).
            let matched = match search.postal_code() {
                Some(_) => cached(cache, search.location()).await.map(|l| l.matched),
                None => Some(Matched::Other),
            };
            meter_area =
                matched.and_then(|matched| completeness::counted_area(search, Some(&Located { area, matched })));
            Tally {
                area,
                fetched: done.len() as u32,
                done,
                requests,
                probed: 0,
                committed: Requests::default(),
            }
        }
        _ => {
            let mut requests = Requests::default();
            let (area, located) = match search.area() {
                Some(area) => (area.bounds(), None),
                None => {
                    if let Some(limit) = plan.limit_passed(&requests, Sku::Pro, 1) {
                        out.outcome.stop = Some(limit);
                        return Ok(out.outcome);
                    }
                    let located = locate(upstream, search.location(), cache, &mut requests).await?;
                    (located.area, Some(located))
                }
            };
            meter_area = completeness::counted_area(search, located.as_ref());
            let tally = Tally {
                area,
                done: Vec::new(),
                requests,
                probed: 0,
                fetched: 0,
                committed: Requests::default(),
            };
            // A retry from here on neither locates nor pays for it again.
            sink.emit(Vec::new(), &tally.checkpoint()).await?;
            tally
        }
    };
    let done_before: Vec<Rect> = tally.done.iter().map(|t| t.rect).collect();
    let mut expected: Option<Completeness> = None;

    let base = base_request(search);
    // The lead fields, the position included (a lead's, and what a circle or polygon
    // checks).
    let mask = LEAD_FIELD_MASK;
    let may_hold = |rect: Rect| search.area().is_none_or(|a| a.may_hold(rect));
    // The same fields by id, so a place fetched either way is the same lead.
    let by_id_mask = details_field_mask(mask);
    // An earlier search of the same area and query may have left its plan: then the
    // remembered rectangles are fetched at once (a resumed run too: its done tiles are
    // the remembered ones when the memory did not change in between; when it did, tiles
    // are fetched again, which costs pages, never leads).
    let key = PlanKey::of(search, tally.area);
    let remembered = match plan.plan_memory {
        Some(memory) => memory.recall(&key).await.filter(|m| fits(m, tally.area)),
        None => None,
    };
    // An estimate of the same search may have left what its probes answered (the web
    // app estimates before a full search): those rectangles are not asked again. A plan
    // from memory probes only its empty rectangles, which no estimate probed.
    let mut probed_before = match (plan.plan_memory, &remembered) {
        (Some(memory), None) => memory.take_probes(&key).await.unwrap_or_default(),
        _ => ProbeAnswers::default(),
    };
    let mut planner = match &remembered {
        // With an `exclude`, each remembered rectangle is probed first: which places are
        // new is decided from the ids a probe lists, and the memory keeps none.
        Some(memory) => Plans::from_memory(memory, !plan.excluded.is_empty()),
        None => Plans::fresh(tally.area),
    };
    let mut inflight: FuturesUnordered<BoxFuture<'_, Done>> = FuturesUnordered::new();
    let mut next_fetch = 0usize;
    let mut last_progress = Instant::now();
    let mut last_cancel_check = Instant::now();
    // The completeness meter counts the area alongside the first probes (on a run that
    // has sent nothing: a search resumed after that is not charged for a second count,
    // and shows none).
    // A budget too tight for the count goes without it, rather than stop the search.
    let count_fits = plan.limit_passed(&tally.requests, Sku::Aggregate, 1).is_none();
    if let Some(area) = meter_area.clone()
        && tally.done.is_empty()
        && out.outcome.leads.is_empty()
        && count_fits
        && upstream.aggregate.is_some()
    {
        let api_key = upstream.api_key;
        let meter = upstream.aggregate;
        inflight.push(
            async move {
                let (count, requests) = completeness::expected(meter, api_key, search, Some(area)).await;
                Done::Count(count, requests)
            }
            .boxed(),
        );
    }
    // The early page shows the first leads while the planner probes; a resumed search
    // has shown its first leads already, so it does not pay for it again. With an
    // `exclude`, the early page is not wanted either: it would pay for places the probes
    // may show are all left out.
    let mut early_wanted = tally.done.is_empty() && out.outcome.leads.is_empty() && plan.excluded.is_empty();

    loop {
        while out.outcome.stop.is_none() && inflight.len() < plan.concurrency.max(1) {
            if let Some(rect) = planner.early_page().filter(|_| early_wanted) {
                early_wanted = false;
                if let Some(limit) = plan.limit_passed(&tally.spent(), Sku::Enterprise, 1) {
                    out.outcome.stop = Some(limit);
                    break;
                }
                tally.committed.add(Sku::Enterprise, 1);
                inflight.push(first_page(upstream, &base, mask, rect).boxed());
            } else if let Some(fetch) = planner.fetch_at(next_fetch).cloned() {
                let index = next_fetch;
                next_fetch += 1;
                if done_before.iter().any(|done| done.same_as(&fetch.rect)) {
                    planner.passed_over(index);
                    continue;
                }
                if !may_hold(fetch.rect) {
                    planner.passed_over(index);
                    // Wholly outside a polygon: none of its places could be sent.
                    tally.fetched += 1;
                    tally.done.push(DoneTile {
                        rect: fetch.rect,
                        leads: 0,
                    });
                    continue;
                }
                let pages = fetch.requests().max(1) as u32;
                let choice = match &fetch.ids {
                    // Places left out, or fetched already on another tile, are not wanted.
                    Some(ids) if !plan.excluded.is_empty() => TileFetch::choose(
                        ids,
                        pages,
                        |id| !plan.is_excluded(id) && !out.fetched_ids.contains(id),
                        &plan.prices,
                    ),
                    // No `exclude`, or a remembered rectangle fetched at once (only
                    // without one).
                    _ => TileFetch::Pages(pages),
                };
                let rect = fetch.rect;
                let (pages, by_id) = choice.requests();
                let mut planned = Requests::default();
                planned.add(Sku::Enterprise, pages);
                planned.add(Sku::Details, by_id);
                let limit = match choice {
                    TileFetch::Skip => None,
                    TileFetch::Details(_) => plan.limit_passed(&tally.spent(), Sku::Details, by_id),
                    TileFetch::Pages(_) => plan.limit_passed(&tally.spent(), Sku::Enterprise, pages),
                };
                if let Some(limit) = limit {
                    out.outcome.stop = Some(limit);
                    break;
                }
                if !matches!(choice, TileFetch::Pages(_)) {
                    // The free probes listed the tile's places: those left out are not
                    // fetched, and are counted as left out (whether or not the filters
                    // would have dropped them).
                    out.left_out
                        .extend(fetch.ids.iter().flatten().filter(|id| plan.is_excluded(id)).cloned());
                }
                match choice {
                    TileFetch::Skip => {
                        // Nothing new: the tile is done without paying for its leads.
                        tally.fetched += 1;
                        tally.done.push(DoneTile { rect, leads: 0 });
                    }
                    TileFetch::Details(ids) => {
                        tally.committed = tally.committed.plus(&planned);
                        inflight.push(fetch_by_id(upstream, &by_id_mask, Some((rect, index)), ids, planned).boxed());
                    }
                    TileFetch::Pages(_) => {
                        tally.committed = tally.committed.plus(&planned);
                        inflight.push(fetch_tile(upstream, &base, mask, (rect, index), planned).boxed());
                    }
                }
            } else if let Some((id, rect)) = planner.next_probe_within(may_hold) {
                match probed_before.take(&rect) {
                    Some(ids) => inflight.push(async move { Done::Probe(id, Ok((ids, 0))) }.boxed()),
                    None => inflight.push(probe(upstream, &base, id, rect).boxed()),
                }
            } else {
                break;
            }
        }
        let Some(done) = inflight.next().await else { break };
        let mut events = Vec::new();
        let mut tile_done = false;
        match done {
            Done::Probe(id, result) => {
                let (ids, pages) = result?;
                tally.requests.add(Sku::IdsOnly, pages);
                tally.probed += 1;
                planner.record(id, Probe { ids });
            }
            Done::Count(count, requests) => {
                expected = count;
                tally.requests.add(Sku::Aggregate, requests.aggregate);
            }
            Done::Fetch {
                rect,
                tile,
                planned,
                result,
            } => {
                let (places, made) = result?;
                tally.committed = minus(&tally.committed, &planned);
                tally.requests = tally.requests.plus(&made);
                // A remembered rectangle that comes back at the cap is planned afresh: its
                // places go out now, but it is not done (a resumed run must ask it again).
                let listed: Vec<String> = places
                    .iter()
                    .map(|p| p.id.clone())
                    .filter(|id| !id.is_empty())
                    .collect();
                let whole = tile.is_none_or(|index| planner.fetched(index, listed));
                let given = out
                    .take(places, plan, allowance, planner.found_count() as u32, &mut events)
                    .await;
                if let Some(rect) = rect.filter(|_| whole) {
                    tally.fetched += 1;
                    tally.done.push(DoneTile { rect, leads: given });
                }
                tile_done = true;
            }
        }
        if tile_done || last_progress.elapsed() >= PROGRESS_EVERY {
            let meter = expected.map(|c| c.with_found(out.in_area.len() as u32));
            events.push(SearchEvent::Progress(progress(
                &tally,
                &planner,
                &out.outcome,
                plan,
                next_fetch,
                meter,
                out.in_area_share(),
            )));
            sink.emit(events, &tally.checkpoint()).await?;
            last_progress = Instant::now();
        }
        if out.outcome.stop == Some(StopReason::Allowance) {
            // Nothing more can go out: stop paying for requests in flight.
            break;
        }
        if last_cancel_check.elapsed() >= CANCEL_CHECK_EVERY {
            last_cancel_check = Instant::now();
            if sink.cancelled().await {
                return Err(SearchStopped("nobody is listening".into()).into());
            }
        }
    }
    if plan.fetch_missing
        && out.outcome.stop.is_none()
        && let Some(meter) = upstream.aggregate
        && let Some(area) = &meter_area
        && missing::worth_asking(expected, out.in_area.union(&out.left_out).count())
    {
        let missed = MissedPlaces {
            meter,
            area,
            mask: &by_id_mask,
            found: planner.found_count() as u32,
        };
        missed
            .fetch(upstream, plan, &mut tally, &mut out, allowance, sink)
            .await?;
    }
    if out.outcome.stop.is_none()
        && let Some(memory) = plan.plan_memory
        && let Some(learned) = planner.remembered()
    {
        // Finished, every region resolved: what this search learned (or verified) about
        // the area is what the next one starts from.
        memory.remember(&key, &learned).await;
    }
    let in_area_share = out.in_area_share();
    let mut outcome = out.outcome;
    // What the meter counts: places of the area (a polygon's or circle's, strictly inside).
    let in_area_ids = out.in_area;
    let left_out = out.left_out;
    outcome.requests = tally.requests;
    outcome.truncated = planner.truncated();
    outcome.completeness = expected.map(|c| c.with_found(in_area_ids.len() as u32));
    outcome.excluded = left_out.len() as u32;
    let last = progress(
        &tally,
        &planner,
        &outcome,
        plan,
        next_fetch,
        outcome.completeness,
        in_area_share,
    );
    outcome.expected_places = Some(last.estimated_places);
    sink.emit(vec![SearchEvent::Progress(last)], &tally.checkpoint())
        .await?;
    Ok(outcome)
}

/// Whether remembered plan `memory` can be run from for `area` (see
/// [`Remembered::fits`]); one that cannot is ignored, with a log line.
pub(crate) fn fits(memory: &Remembered, area: Rect) -> bool {
    let fits = memory.fits(area);
    if !fits {
        tracing::warn!("a remembered area plan does not cover its area; planning afresh");
    }
    fits
}

/// `a` less `b`, by SKU (what a finished fetch no longer holds against the budget).
fn minus(a: &Requests, b: &Requests) -> Requests {
    Requests {
        ids_only: a.ids_only.saturating_sub(b.ids_only),
        pro: a.pro.saturating_sub(b.pro),
        enterprise: a.enterprise.saturating_sub(b.enterprise),
        aggregate: a.aggregate.saturating_sub(b.aggregate),
        details: a.details.saturating_sub(b.details),
    }
}

/// What a full search has sent and may still send.
struct Output {
    /// The leads sent (an earlier run's first), and how it stopped.
    outcome: SearchOutcome,
    /// Place ids sent.
    seen: HashSet<String>,
    /// Leads it may send: its reservation, grown from the allowance as leads stream.
    budget: u32,
    /// Places fetched so far, before Leadgen's own filters (a tile's places outside a
    /// circle or polygon included).
    fetched_ids: HashSet<String>,
    /// Matching places left out by `exclude`, by id (a place on two tiles counts once).
    left_out: HashSet<String>,
    /// Of `fetched_ids`, those inside the search's area (a circle's or polygon's tiles
    /// also list places outside it): what the completeness meter's count is compared with.
    in_area: HashSet<String>,
}

impl Output {
    fn new(delivered: Vec<Lead>, lead_budget: u32) -> Self {
        let seen: HashSet<String> = delivered.iter().map(|l| l.place_id.clone()).collect();
        Self {
            budget: lead_budget.max(delivered.len() as u32),
            fetched_ids: seen.clone(),
            in_area: seen.clone(),
            seen,
            outcome: SearchOutcome {
                leads: delivered,
                ..SearchOutcome::default()
            },
            left_out: HashSet::new(),
        }
    }

    /// Of the places fetched so far, the share inside the search's area: its tiles list
    /// places outside a circle, a polygon or a postal code too, which the probes count.
    /// Whole before anything is fetched.
    fn in_area_share(&self) -> f64 {
        if self.fetched_ids.is_empty() {
            1.0
        } else {
            self.in_area.len() as f64 / self.fetched_ids.len() as f64
        }
    }

    /// Takes fetched places (a tile's pages, or places by id): each that passes the
    /// search's filters, is not left out and was not sent yet goes out as a lead into
    /// `events`, within the allowance; returns how many went out. `found`: the places
    /// the probes found so far (each lead's `total`, when more than the leads out).
    async fn take(
        &mut self,
        places: Vec<Place>,
        plan: &SearchPlan<'_>,
        allowance: &impl LeadAllowance,
        found: u32,
        events: &mut Vec<SearchEvent>,
    ) -> u32 {
        self.fetched_ids.extend(places.iter().map(|p| p.id.clone()));
        self.in_area
            .extend(places.iter().filter(|p| in_area(plan.search, p)).map(|p| p.id.clone()));
        let mut fresh: Vec<Lead> = Vec::new();
        for lead in places.into_iter().filter_map(|p| accepted_lead(plan.search, p)) {
            if plan.is_excluded(&lead.place_id) {
                self.left_out.insert(lead.place_id);
            } else if self.seen.insert(lead.place_id.clone()) {
                fresh.push(lead);
            }
        }
        let leads = &mut self.outcome.leads;
        let wanted = (leads.len() + fresh.len()).saturating_sub(self.budget as usize) as u32;
        if wanted > 0 {
            // Asked for in reservations of up to 60, so a search of thousands makes
            // a few dozen store calls, not one per lead; settling gives back the
            // unused rest.
            self.budget += allowance.grant(wanted.next_multiple_of(MAX_LEADS)).await;
        }
        let mut given = 0;
        // Places found so far: the same for every lead of this answer (the probes'
        // count, or the leads out so far while the first regions are probed).
        let total = found.max((leads.len() + fresh.len()) as u32);
        for lead in fresh {
            if leads.len() as u32 >= self.budget {
                self.outcome.stop = Some(StopReason::Allowance);
                break;
            }
            given += 1;
            leads.push(lead.clone());
            events.push(SearchEvent::BusinessFound(BusinessFound {
                name: lead.name.clone(),
                found: leads.len() as u32,
                total,
                lead,
            }));
        }
        given
    }
}

/// The end of a full search that fetches what Google counts and its pages missed (see
/// [`missing`]).
struct MissedPlaces<'a> {
    meter: &'a crate::places::AggregateClient,
    area: &'a AggregateArea,
    /// The Place Details mask: the lead fields.
    mask: &'a str,
    /// Places the probes found (each lead's `total`).
    found: u32,
}

impl MissedPlaces<'_> {
    /// Asks Google for the area's place ids (when the budget allows the call) and fetches
    /// by id, one at a time, those neither fetched nor left out, each through
    /// [`Output::take`] and out with its checkpoint. A failure here never fails the search,
    /// whose pages are all out: it stops the fetching, with a log line.
    async fn fetch(
        &self,
        upstream: &Upstream<'_, impl RateGate>,
        plan: &SearchPlan<'_>,
        tally: &mut Tally,
        out: &mut Output,
        allowance: &impl LeadAllowance,
        sink: &mut impl EventSink,
    ) -> Result<(), SearchFailure> {
        if plan.limit_passed(&tally.requests, Sku::Aggregate, 1).is_some() {
            // The extra call is the meter's nicety, as the count is: a budget too tight
            // for it goes without.
            return Ok(());
        }
        let listed = match missing::listed(self.meter, upstream.api_key, plan.search, self.area).await {
            Ok(ids) => ids,
            Err(error) => {
                tracing::warn!(%error, "listing the area's places failed; missed places are not fetched");
                return Ok(());
            }
        };
        tally.requests.add(Sku::Aggregate, 1);
        let mut missed = Vec::new();
        for id in listed {
            if plan.is_excluded(&id) {
                out.left_out.insert(id);
            } else if !out.fetched_ids.contains(&id) && !missed.contains(&id) {
                missed.push(id);
            }
        }
        for id in missed {
            if let Some(limit) = plan.limit_passed(&tally.requests, Sku::Details, 1) {
                out.outcome.stop = Some(limit);
                break;
            }
            let place = match upstream.details(self.mask, &id).await {
                Ok(place) => place,
                Err(PlacesError::Upstream { status: 404, .. }) => continue,
                Err(error) => {
                    tracing::warn!(%error, "fetching a missed place by id failed; the rest are not fetched");
                    break;
                }
            };
            tally.requests.add(Sku::Details, 1);
            let mut events = Vec::new();
            out.take(vec![place], plan, allowance, self.found, &mut events).await;
            sink.emit(events, &tally.checkpoint()).await?;
            if out.outcome.stop.is_some() {
                break;
            }
        }
        Ok(())
    }
}

/// The `progress` event: what is done, and what the rest is expected to cost.
fn progress(
    tally: &Tally,
    planner: &Plans,
    outcome: &SearchOutcome,
    plan: &SearchPlan<'_>,
    next_fetch: usize,
    completeness: Option<super::meter::SearchCompleteness>,
    in_area_share: f64,
) -> SearchProgress {
    let prices = &plan.prices;
    let unresolved = planner.unresolved();
    // Planned fetches not started, and each unresolved region at a cap (3 pages).
    let pending_requests: usize = (next_fetch..planner.fetch_count())
        .filter_map(|i| planner.fetch_at(i))
        .map(|f| f.requests())
        .sum::<usize>()
        + tally.committed.enterprise as usize
        + unresolved * MAX_PAGES;
    let spent = tally.requests.cost_usd(prices);
    let expected = if outcome.stop.is_some() {
        spent
    } else {
        spent
            + pending_requests as f64 * prices.per_request(Sku::Enterprise)
            + f64::from(tally.committed.details) * prices.per_request(Sku::Details)
    };
    SearchProgress {
        areas_probed: tally.probed,
        areas_fetched: tally.fetched,
        areas_planned: planner.fetch_count() as u32,
        leads: outcome.leads.len() as u32,
        places_found: planner.found_count() as u32,
        billable_requests: tally.requests.billable(prices),
        cost_usd: round_cents(spent),
        estimated_cost_usd: round_cents(expected),
        estimated_places: ((planner.found_count() + unresolved * CAP) as f64 * in_area_share).round() as u32,
        completeness,
    }
}

/// Every page (at most 3) of `request` with `mask`, and how many requests that took.
pub(crate) async fn all_pages(
    upstream: &Upstream<'_, impl RateGate>,
    mask: &str,
    mut request: SearchTextRequest,
) -> Result<(Vec<Place>, u32), PlacesError> {
    let mut places = Vec::new();
    let mut pages = 0;
    for _ in 0..MAX_PAGES {
        let page = upstream.page(mask, &request).await?;
        pages += 1;
        places.extend(page.places);
        match page.next_page_token.filter(|t| !t.is_empty()) {
            Some(token) => request.page_token = Some(token),
            None => break,
        }
    }
    Ok((places, pages))
}

/// `base` restricted to `rect`.
fn within(base: &SearchTextRequest, rect: Rect) -> SearchTextRequest {
    let mut request = base.clone();
    request.location_restriction = Some(rect.into());
    request
}

/// Every place id a rectangle lists (its up to 3 pages), with the free IDs-only mask.
pub(crate) async fn probe(
    upstream: &Upstream<'_, impl RateGate>,
    base: &SearchTextRequest,
    id: ProbeId,
    rect: Rect,
) -> Done {
    let result = all_pages(upstream, IDS_FIELD_MASK, within(base, rect))
        .await
        .map(|(places, pages)| {
            (
                places.into_iter().map(|p| p.id).filter(|id| !id.is_empty()).collect(),
                pages,
            )
        });
    Done::Probe(id, result)
}

/// A tile's places with the lead mask (up to 3 pages).
async fn fetch_tile(
    upstream: &Upstream<'_, impl RateGate>,
    base: &SearchTextRequest,
    mask: &str,
    (rect, tile): (Rect, usize),
    planned: Requests,
) -> Done {
    let result = all_pages(upstream, mask, within(base, rect))
        .await
        .map(|(places, pages)| (places, pages_of(pages)));
    Done::Fetch {
        rect: Some(rect),
        tile: Some(tile),
        planned,
        result,
    }
}

/// `pages` Text Search Enterprise requests.
fn pages_of(pages: u32) -> Requests {
    let mut requests = Requests::default();
    requests.add(Sku::Enterprise, pages);
    requests
}

/// A tile's new places by id (Place Details), one after another: a place Google no
/// longer knows (404, not billed) is skipped; any other failure fails the fetch, as a
/// page's would.
async fn fetch_by_id(
    upstream: &Upstream<'_, impl RateGate>,
    mask: &str,
    at: Option<(Rect, usize)>,
    ids: Vec<String>,
    planned: Requests,
) -> Done {
    let mut made = Requests::default();
    let mut places = Vec::new();
    let mut failure = None;
    for id in &ids {
        match upstream.details(mask, id).await {
            Ok(place) => {
                made.add(Sku::Details, 1);
                places.push(place);
            }
            Err(PlacesError::Upstream { status: 404, .. }) => {}
            Err(error) => {
                failure = Some(error);
                break;
            }
        }
    }
    Done::Fetch {
        rect: at.map(|(rect, _)| rect),
        tile: at.map(|(_, tile)| tile),
        planned,
        result: failure.map_or(Ok((places, made)), Err),
    }
}

/// The first page of `rect` with the lead mask (the planner's early page).
async fn first_page(upstream: &Upstream<'_, impl RateGate>, base: &SearchTextRequest, mask: &str, rect: Rect) -> Done {
    let result = upstream
        .page(mask, &within(base, rect))
        .await
        .map(|page| (page.places, pages_of(1)));
    Done::Fetch {
        rect: None,
        tile: None,
        planned: pages_of(1),
        result,
    }
}
