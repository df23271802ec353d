//! What a search would find and cost, before it runs, from free IDs-only probes (and, for
//! a full search of a named location, the one locate request, cached).
//!
//! A quick search's estimate is one probe of its query. A full search's runs the tiling
//! planner's probes, up to a bound on requests so the answer comes in seconds; when the
//! bound stops it early, the regions still saturated are counted at the cap each and the
//! answer says it is not exact.
//!
//! With the completeness meter on and a Google type, one Places Aggregate call counts
//! the area's places while the probes run (`completeness`); it never fails the estimate.

use std::collections::HashSet;

use super::{
    completeness,
    cost::{PriceTable, Requests, SearchCost, Sku, round_cents},
    full::{Done, FULL_CONCURRENCY, all_pages, base_request, probe},
    locate::{AreaCache, locate},
    meter::Completeness,
    options::{Area, Coverage},
    paging::{MAX_PAGES, PAGE_SIZE},
    query::ValidSearch,
    request::first_request,
    runner::{RateGate, SearchFailure, Upstream},
    tiling::{Planner, Probe, Rect},
};
use crate::places::IDS_FIELD_MASK;

/// Lead pages per place beyond the floor's `1/20` (measured: 1.05-1.125x the floor).
const REST_OVERHEAD: f64 = 1.09;
/// Places found per IDs-only request on dense areas (the planner's unit tests measure
/// 0.14-0.19 probe requests a place on synthetic metros: 5 to 7 places a request).
const PLACES_PER_PROBE_REQUEST: f64 = 6.0;

/// Bounds of one estimate.
#[derive(Debug, Clone, Copy)]
pub struct EstimateLimits {
    /// Most IDs-only requests an estimate makes (at 10 a second, 80 take 8 s).
    pub max_probe_requests: u32,
    /// The key's pace, requests a second (for `estimated_seconds`).
    pub rps: f64,
    /// Probes in flight at once.
    pub concurrency: usize,
}

impl Default for EstimateLimits {
    fn default() -> Self {
        Self {
            max_probe_requests: 80,
            rps: 10.0,
            concurrency: FULL_CONCURRENCY,
        }
    }
}

/// What a search is expected to find and cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Places expected (matching type, area and `minRating`; the website, phone and
    /// review filters may send fewer).
    pub estimated_leads: u32,
    /// Dollars the search would spend on the user's key.
    pub estimated_cost_usd: f64,
    /// Seconds it would take at the key's pace.
    pub estimated_seconds: f64,
    /// Requests the search would make, by SKU.
    pub requests: Requests,
    /// Whether every region was probed (the figures are then exact for today's data).
    pub exact: bool,
    /// What the estimate itself spent (the locate request, unless cached, and the
    /// meter's count).
    pub spent: SearchCost,
    /// The area's places by an independent count (the completeness meter), when it is
    /// on, the type is a Google type and the area is known (a full search, or an explicit
    /// area); none when the count failed.
    pub completeness: Option<Completeness>,
    /// With an `exclude`: of `estimated_leads`, the places the workspace's memory does
    /// not hold (the ones the search would send); `None` without one. Unprobed regions of
    /// an estimate that is not exact count as new.
    pub new_places: Option<u32>,
}

/// Estimates `search` (see the module docs); the completeness meter is `upstream`'s
/// `aggregate`, when it is on; `excluded`, the place ids its `exclude` leaves out (empty
/// for `none`).
///
/// With an `exclude`, a quick search still pays for every page it reads (Google lists
/// known and new places together), so only the places change; a full search's plan
/// leaves out the rectangles whose probed places are all excluded, as the search does.
pub async fn estimate(
    upstream: &Upstream<'_, impl RateGate>,
    search: &ValidSearch,
    prices: &PriceTable,
    cache: &impl AreaCache,
    limits: EstimateLimits,
    excluded: &HashSet<String>,
) -> Result<Estimate, SearchFailure> {
    let mut spent = Requests::default();
    // A full search of a named location is located first: its probes and the meter both
    // need the area.
    let tiled = match (search.coverage(), search.area()) {
        (Coverage::Quick, _) => None,
        (Coverage::Full, Some(area)) => Some(area.bounds()),
        (Coverage::Full, None) => Some(locate(upstream, search.location(), cache, &mut spent).await?),
    };
    let metered = search.area().cloned().or(tiled.map(|r| Area::Rectangle {
        low: r.low,
        high: r.high,
    }));
    let counting = completeness::expected(upstream.aggregate, upstream.api_key, search, metered);
    let probing = async {
        let mut probes = Requests::default();
        let answer = match tiled {
            None => {
                let (places, pages) = all_pages(upstream, IDS_FIELD_MASK, first_request(search)).await?;
                probes.add(Sku::IdsOnly, pages);
                let ids = places.len() as u32;
                let new = places.iter().filter(|p| !excluded.contains(&p.id)).count() as u32;
                let mut requests = Requests::default();
                requests.add(Sku::Enterprise, ids.div_ceil(PAGE_SIZE).max(1));
                // A polygon's box lists places outside it, which are paid for, not sent.
                let share = search.area().map_or(1.0, |a| a.share_of(a.bounds()));
                let inside = |n: u32| (f64::from(n) * share).round() as u32;
                (inside(ids), inside(new), requests, true)
            }
            Some(area) => full(upstream, search, area, limits, &mut probes, excluded).await?,
        };
        Ok::<_, SearchFailure>((answer, probes))
    };
    let (probed, (completeness, counted)) = futures_util::join!(probing, counting);
    let ((places, new, mut requests, exact), probes) = probed?;
    spent.add(Sku::IdsOnly, probes.ids_only);
    spent.add(Sku::Aggregate, counted.aggregate);
    // The search's own probes and locate: the estimate's probes are not reused (their
    // answers may change in between, and nothing of them is kept). A full search counts
    // its area once more for its own meter (nothing of the estimate is kept either), so
    // the count is in its cost too when the estimate's count answered.
    requests.ids_only += spent.ids_only;
    requests.pro += spent.pro;
    if tiled.is_some() && completeness.is_some() {
        requests.add(Sku::Aggregate, 1);
    }
    let seconds = f64::from(requests.ids_only + requests.pro + requests.enterprise) / limits.rps.max(0.1);
    Ok(Estimate {
        estimated_leads: places,
        estimated_cost_usd: round_cents(requests.cost_usd(prices)),
        estimated_seconds: (seconds * 10.0).ceil() / 10.0,
        requests,
        exact,
        spent: spent.report(prices),
        completeness,
        new_places: (search.exclude() != super::options::Exclude::None).then_some(new),
    })
}

async fn full(
    upstream: &Upstream<'_, impl RateGate>,
    search: &ValidSearch,
    area: Rect,
    limits: EstimateLimits,
    spent: &mut Requests,
    excluded: &HashSet<String>,
) -> Result<(u32, u32, Requests, bool), SearchFailure> {
    let base = base_request(search);
    let may_hold = |rect: Rect| search.area().is_none_or(|a| a.may_hold(rect));
    let mut planner = Planner::new(area);
    // In rounds: every probe the plan has ready, answered together, recorded in order.
    // The estimate then depends only on Google's answers, not on which came first.
    let mut used = 0u32;
    loop {
        let mut round = Vec::new();
        while round.len() < limits.concurrency.max(1)
            && used + (round.len() * MAX_PAGES) as u32 + MAX_PAGES as u32 <= limits.max_probe_requests
        {
            let Some((id, rect)) = planner.next_probe() else { break };
            if !may_hold(rect) {
                // Wholly outside a polygon: known empty without asking, as the search does.
                planner.record(id, Probe::default());
                continue;
            }
            round.push((id, rect));
        }
        if round.is_empty() {
            break;
        }
        let answers =
            futures_util::future::join_all(round.into_iter().map(|(id, rect)| probe(upstream, &base, id, rect))).await;
        for done in answers {
            if let Done::Probe(id, result) = done {
                let (ids, pages) = result?;
                spent.add(Sku::IdsOnly, pages);
                used += pages;
                planner.record(id, Probe { ids });
            }
        }
    }
    let exact = planner.is_done();
    let found = planner.found_count();
    let rest = if exact { 0.0 } else { planner.estimated_unresolved() };
    // Rectangles whose places are all excluded are not fetched (as the search skips them).
    let planned: usize = planner
        .fetch_plan()
        .iter()
        .filter(|f| may_hold(f.rect) && (f.ids.is_empty() || !f.ids.iter().all(|id| excluded.contains(id))))
        .map(|f| f.requests())
        .sum();
    let known = if excluded.is_empty() {
        0
    } else {
        planner.found().iter().filter(|id| excluded.contains(*id)).count()
    };
    // The early page is not taken when the search excludes places.
    let extra = if excluded.is_empty() {
        planner.extra_requests()
    } else {
        0
    };
    // Fetching the rest costs about what the floor does, plus the planner's few percent.
    let rest_pages = (rest / f64::from(PAGE_SIZE) * REST_OVERHEAD).ceil() as u32;
    let mut requests = Requests::default();
    // The search's early page (one page of the area while the planner probes) is billed too.
    requests.add(Sku::Enterprise, (planned + extra) as u32 + rest_pages);
    if !exact {
        // Probing the rest: on dense areas the planner makes about one IDs-only request
        // for every `PLACES_PER_PROBE_REQUEST` places.
        requests.add(Sku::IdsOnly, (rest / PLACES_PER_PROBE_REQUEST).ceil() as u32);
    }
    // A polygon's tiles hold places outside it too, which the search pays for and does
    // not send: each tile counts its share inside the ring (its places taken as spread
    // evenly), the unresolved rest the ring's share of its box. Other shapes count whole.
    let (inside, rest_inside) = match search.area() {
        Some(area) => (
            planner
                .fetch_plan()
                .iter()
                .map(|f| f.ids.len() as f64 * area.share_of(f.rect))
                .sum::<f64>(),
            rest * area.share_of(area.bounds()),
        ),
        None => (found as f64, rest),
    };
    let share = if found as f64 + rest > 0.0 {
        (inside + rest_inside) / (found as f64 + rest)
    } else {
        1.0
    };
    let total = (inside + rest_inside).round() as u32;
    Ok((
        total,
        total.saturating_sub((known as f64 * share).round() as u32),
        requests,
        exact,
    ))
}
