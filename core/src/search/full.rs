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

use std::{
    collections::HashSet,
    time::{Duration, Instant},
};

use futures_util::{FutureExt, StreamExt, future::BoxFuture, stream::FuturesUnordered};

use super::{
    checkpoint::{Checkpoint, DoneTile, Resume},
    completeness,
    cost::{Requests, Sku, round_cents},
    locate::{AreaCache, locate},
    meter::Completeness,
    options::Area,
    paging::{MAX_LEADS, MAX_PAGES},
    query::ValidSearch,
    request::{accepted_lead, first_request, in_area, lead_mask},
    runner::{EventSink, LeadAllowance, RateGate, SearchFailure, SearchOutcome, SearchPlan, SearchStopped, Upstream},
    tiling::{CAP, Planner, Probe, ProbeId, Rect},
};
use crate::{
    lead::{BusinessFound, Lead, SearchEvent, SearchProgress, StopReason},
    places::{IDS_FIELD_MASK, Place, PlacesError, SearchTextRequest},
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
        planned: u32,
        result: Result<(Vec<Place>, u32), PlacesError>,
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
    /// Enterprise requests of fetches in flight: counted against the budget already.
    committed: u32,
}

impl Tally {
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
    let mut outcome = SearchOutcome {
        leads: resume.delivered,
        ..SearchOutcome::default()
    };
    let mut seen: HashSet<String> = outcome.leads.iter().map(|l| l.place_id.clone()).collect();
    let mut budget = plan.lead_budget.max(outcome.leads.len() as u32);
    let mut tally = match resume.checkpoint {
        Some(Checkpoint::Tiles { area, done, requests }) => Tally {
            area,
            fetched: done.len() as u32,
            done,
            requests,
            probed: 0,
            committed: 0,
        },
        _ => {
            let mut requests = Requests::default();
            let area = match search.area() {
                Some(area) => area.bounds(),
                None => {
                    if let Some(limit) = plan.limit_passed(&requests, Sku::Pro, 1) {
                        outcome.stop = Some(limit);
                        return Ok(outcome);
                    }
                    locate(upstream, search.location(), cache, &mut requests).await?
                }
            };
            let tally = Tally {
                area,
                done: Vec::new(),
                requests,
                probed: 0,
                fetched: 0,
                committed: 0,
            };
            // A retry from here on neither locates nor pays for it again.
            sink.emit(Vec::new(), &tally.checkpoint()).await?;
            tally
        }
    };
    let done_before: Vec<Rect> = tally.done.iter().map(|t| t.rect).collect();
    // Places of the area fetched so far, before Leadgen's own filters: what the
    // completeness meter's count is compared with.
    let mut fetched_ids: HashSet<String> = seen.clone();
    let mut expected: Option<Completeness> = None;

    let base = base_request(search);
    let mask = lead_mask(search);
    let may_hold = |rect: Rect| search.area().is_none_or(|a| a.may_hold(rect));
    let mut planner = Planner::new(tally.area);
    let mut inflight: FuturesUnordered<BoxFuture<'_, Done>> = FuturesUnordered::new();
    let mut next_fetch = 0usize;
    let mut last_progress = Instant::now();
    let mut last_cancel_check = Instant::now();
    // The completeness meter counts the area alongside the first probes (a first run
    // only: a resumed search is not charged for a second count, and shows none).
    // A budget too tight for the count goes without it, rather than stop the search.
    let count_fits = plan.limit_passed(&tally.requests, Sku::Aggregate, 1).is_none();
    if tally.done.is_empty() && outcome.leads.is_empty() && count_fits && upstream.aggregate.is_some() {
        let area = search.area().cloned().unwrap_or(Area::Rectangle {
            low: tally.area.low,
            high: tally.area.high,
        });
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
    let mut early_wanted = tally.done.is_empty() && outcome.leads.is_empty() && plan.excluded.is_empty();
    // Matching places left out by `exclude`, by id (a place on two tiles counts once).
    let mut left_out: HashSet<String> = HashSet::new();

    loop {
        while outcome.stop.is_none() && inflight.len() < plan.concurrency.max(1) {
            if let Some(rect) = planner.early_page().filter(|_| early_wanted) {
                early_wanted = false;
                let spent = Requests {
                    enterprise: tally.requests.enterprise + tally.committed,
                    ..tally.requests
                };
                if let Some(limit) = plan.limit_passed(&spent, Sku::Enterprise, 1) {
                    outcome.stop = Some(limit);
                    break;
                }
                tally.committed += 1;
                inflight.push(first_page(upstream, &base, &mask, rect).boxed());
            } else if let Some(fetch) = planner.fetch_at(next_fetch) {
                next_fetch += 1;
                if done_before.iter().any(|done| done.same_as(&fetch.rect)) {
                    continue;
                }
                if !may_hold(fetch.rect) {
                    // Wholly outside a polygon: none of its places could be sent.
                    tally.fetched += 1;
                    tally.done.push(DoneTile {
                        rect: fetch.rect,
                        leads: 0,
                    });
                    continue;
                }
                if !fetch.ids.is_empty() && fetch.ids.iter().all(|id| plan.is_excluded(id)) {
                    // The free probes listed only places the search leaves out: the tile
                    // is done without paying for its leads (which may include places the
                    // filters would drop; they are counted as left out all the same).
                    left_out.extend(fetch.ids.iter().cloned());
                    tally.fetched += 1;
                    tally.done.push(DoneTile {
                        rect: fetch.rect,
                        leads: 0,
                    });
                    continue;
                }
                let planned = fetch.requests().max(1) as u32;
                let spent = Requests {
                    enterprise: tally.requests.enterprise + tally.committed,
                    ..tally.requests
                };
                if let Some(limit) = plan.limit_passed(&spent, Sku::Enterprise, planned) {
                    outcome.stop = Some(limit);
                    break;
                }
                tally.committed += planned;
                inflight.push(fetch_tile(upstream, &base, &mask, fetch.rect, planned).boxed());
            } else if let Some((id, rect)) = planner.next_probe() {
                if !may_hold(rect) {
                    // Wholly outside a polygon: no place of it counts, so it is known
                    // empty without asking (recall is kept: a tile partly inside is probed).
                    planner.record(id, Probe::default());
                    continue;
                }
                inflight.push(probe(upstream, &base, id, rect).boxed());
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
            Done::Fetch { rect, planned, result } => {
                let (places, pages) = result?;
                tally.committed -= planned;
                tally.requests.add(Sku::Enterprise, pages);
                // What the meter counts: places of the area (a polygon's, strictly inside).
                fetched_ids.extend(places.iter().filter(|p| in_area(search, p)).map(|p| p.id.clone()));
                let mut fresh: Vec<Lead> = Vec::new();
                for lead in places.into_iter().filter_map(|p| accepted_lead(search, p)) {
                    if plan.is_excluded(&lead.place_id) {
                        left_out.insert(lead.place_id);
                    } else if seen.insert(lead.place_id.clone()) {
                        fresh.push(lead);
                    }
                }
                let wanted = (outcome.leads.len() + fresh.len()).saturating_sub(budget as usize) as u32;
                if wanted > 0 {
                    // Asked for in reservations of up to 60, so a search of thousands makes
                    // a few dozen store calls, not one per lead; settling gives back the
                    // unused rest.
                    budget += allowance.grant(wanted.next_multiple_of(MAX_LEADS)).await;
                }
                let mut given = 0;
                // Places found so far: the same for every lead of this tile (the probes'
                // count, or the leads out so far while the first regions are probed).
                let total = (planner.found_count() as u32).max((outcome.leads.len() + fresh.len()) as u32);
                for lead in fresh {
                    if outcome.leads.len() as u32 >= budget {
                        outcome.stop = Some(StopReason::Allowance);
                        break;
                    }
                    given += 1;
                    outcome.leads.push(lead.clone());
                    events.push(SearchEvent::BusinessFound(BusinessFound {
                        name: lead.name.clone(),
                        found: outcome.leads.len() as u32,
                        total,
                        lead,
                    }));
                }
                if let Some(rect) = rect {
                    tally.fetched += 1;
                    tally.done.push(DoneTile { rect, leads: given });
                }
                tile_done = true;
            }
        }
        if tile_done || last_progress.elapsed() >= PROGRESS_EVERY {
            let meter = expected.map(|c| c.with_found(fetched_ids.len() as u32));
            events.push(SearchEvent::Progress(progress(
                &tally, &planner, &outcome, plan, next_fetch, meter,
            )));
            sink.emit(events, &tally.checkpoint()).await?;
            last_progress = Instant::now();
        }
        if outcome.stop == Some(StopReason::Allowance) {
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
    outcome.requests = tally.requests;
    outcome.truncated = planner.truncated();
    outcome.completeness = expected.map(|c| c.with_found(fetched_ids.len() as u32));
    outcome.excluded = left_out.len() as u32;
    let last = progress(&tally, &planner, &outcome, plan, next_fetch, outcome.completeness);
    outcome.expected_places = Some(last.estimated_places);
    sink.emit(vec![SearchEvent::Progress(last)], &tally.checkpoint())
        .await?;
    Ok(outcome)
}

/// A probe or fetch request of `search` before its rectangle is set: the business's label
/// alone (the rectangle says where), its type and Google's `minRating`.
pub(crate) fn base_request(search: &ValidSearch) -> SearchTextRequest {
    let mut request = first_request(search);
    request.text_query = search.business().label.to_owned();
    request.location_restriction = None;
    request
}

/// The `progress` event: what is done, and what the rest is expected to cost.
fn progress(
    tally: &Tally,
    planner: &Planner,
    outcome: &SearchOutcome,
    plan: &SearchPlan<'_>,
    next_fetch: usize,
    completeness: Option<super::meter::SearchCompleteness>,
) -> SearchProgress {
    let prices = &plan.prices;
    let unresolved = planner.unresolved();
    // Planned fetches not started, and each unresolved region at a cap (3 pages).
    let pending_requests: usize = (next_fetch..planner.fetch_count())
        .filter_map(|i| planner.fetch_at(i))
        .map(|f| f.requests())
        .sum::<usize>()
        + tally.committed as usize
        + unresolved * MAX_PAGES;
    let spent = tally.requests.cost_usd(prices);
    let expected = if outcome.stop.is_some() {
        spent
    } else {
        spent + pending_requests as f64 * prices.per_request(Sku::Enterprise)
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
        estimated_places: (planner.found_count() + unresolved * CAP) as u32,
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
    rect: Rect,
    planned: u32,
) -> Done {
    let result = all_pages(upstream, mask, within(base, rect)).await;
    Done::Fetch {
        rect: Some(rect),
        planned,
        result,
    }
}

/// The first page of `rect` with the lead mask (the planner's early page).
async fn first_page(upstream: &Upstream<'_, impl RateGate>, base: &SearchTextRequest, mask: &str, rect: Rect) -> Done {
    let result = upstream
        .page(mask, &within(base, rect))
        .await
        .map(|page| (page.places, 1));
    Done::Fetch {
        rect: None,
        planned: 1,
        result,
    }
}
