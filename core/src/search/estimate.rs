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
//! Where it answers for the probed rectangle, the count, not the planner's guess, says
//! how many places the unprobed regions hold, and the probes stop sooner (issue #30
//! item 4: within 10%, within 3 s). For a postal code it counts the code's own region,
//! the places the search sends, and the code's viewport, whose pages it pays for.

use std::{collections::HashSet, time::Duration};

use super::{
    cheaper::TileFetch,
    completeness,
    cost::{PriceTable, Requests, SearchCost, Sku, round_cents},
    full::{Done, FULL_CONCURRENCY, all_pages, probe},
    keep_probing::Unfinished,
    locate::{AreaCache, locate},
    meter::Completeness,
    options::{Area, Coverage},
    paging::{MAX_PAGES, PAGE_SIZE},
    plan_memory::{PlanKey, PlanMemory, ProbeAnswer, ProbeAnswers},
    query::ValidSearch,
    request::{base_request, first_request},
    runner::{RateGate, SearchFailure, Upstream},
    tiling::{Planner, Probe, ProbeQueue, Rect, Remembered},
};
use crate::places::{AggregateArea, IDS_FIELD_MASK};

/// Lead pages per place beyond the floor's `1/20` (measured: 1.05-1.125x the floor).
const REST_OVERHEAD: f64 = 1.09;
/// Places found per IDs-only request on dense areas (the planner's unit tests measure
/// 0.14-0.19 probe requests a place on synthetic metros: 5 to 7 places a request).
const PLACES_PER_PROBE_REQUEST: f64 = 6.0;
/// Most IDs-only requests when Google's count of the area answers too (2 s at 10 a
/// second): the count says how many places there are, so the probes only need to show
/// how the first regions cut, not to find everything (issue #30 item 4: within 3 s).
const COUNTED_PROBE_REQUESTS: u32 = 20;
/// With the count coming, the probes stop this long after the estimate started: a round
/// takes only the probes whose pages the key's pace lets start by then (issue #30 item 4:
/// within 3 s). The request bound alone let a metro's second round run to 3.0-3.2 s at
/// 300 ms a request, and a postal code's rounds to 3.8 s; with this, 2.1-2.5 s, for the
/// same estimated cost (the count stands for what the probes leave out). Where Google
/// answers slowly it bounds the estimate's time as a count of requests cannot.
const COUNTED_PROBING: Duration = Duration::from_millis(2_200);

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
    /// review filters may send fewer): a postal code's own, by the meter's count of its
    /// region, when it answers.
    pub estimated_leads: u32,
    /// Dollars the search would spend on the user's key.
    pub estimated_cost_usd: f64,
    /// Seconds it would take at the key's pace.
    pub estimated_seconds: f64,
    /// Requests the search would make, by SKU.
    pub requests: Requests,
    /// Whether every region was probed (the figures are then exact for today's data);
    /// never for a postal code Google did not count (its leads are then the viewport's).
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
    /// Where the probes stopped, when they left their answers for the search and did not
    /// finish the area: [`keep_probing`](super::keep_probing) goes on from here.
    pub unfinished: Option<Unfinished>,
}

/// What the workspace already knows that changes an estimate.
#[derive(Clone, Copy)]
pub struct WorkspaceKnows<'a> {
    /// The place ids the search's `exclude` leaves out (empty for `none`).
    pub excluded: &'a HashSet<String>,
    /// The workspace's remembered area plans, when it keeps them.
    pub memory: Option<&'a dyn PlanMemory>,
    /// Whether the workspace keeps place ids (its place memory is on): only then does a
    /// full search's estimate leave its probes' answers in `memory` for the search.
    pub keeps_place_ids: bool,
}

/// Estimates `search` (see the module docs); the completeness meter is `upstream`'s
/// `aggregate`, when it is on. `spent` (start from empty) gathers what Google bills the
/// estimate itself, failed or not: a location Google could not place, or probes that
/// failed after the count answered, were still billed.
///
/// With an `exclude`, a quick search still pays for every page it reads (Google lists
/// known and new places together), so only the places change; a full search's plan
/// leaves out the rectangles whose probed places are all excluded and fetches by id the
/// few new places of a rectangle when that is cheaper, as the search does.
///
/// A full search whose area's plan is in `memory` (and that has no `exclude`: the memory
/// keeps no ids to tell new places by) is answered from it without probing: its pages
/// exactly as the last search found them, and the probes of its empty rectangles. One
/// that probes leaves the answers in `memory` (see [`PlanMemory::leave_probes`]) when the
/// workspace keeps place ids: the search that follows does not ask for them again.
pub async fn estimate(
    upstream: &Upstream<'_, impl RateGate>,
    search: &ValidSearch,
    prices: &PriceTable,
    cache: &impl AreaCache,
    limits: EstimateLimits,
    known: WorkspaceKnows<'_>,
    spent: &mut Requests,
) -> Result<Estimate, SearchFailure> {
    let started = tokio::time::Instant::now();
    let WorkspaceKnows {
        excluded,
        memory,
        keeps_place_ids,
    } = known;
    // A full search of a named location is located first: its probes and the meter both
    // need the area.
    let located = match (search.coverage(), search.area()) {
        (Coverage::Full, None) => Some(locate(upstream, search.location(), cache, spent).await?),
        _ => None,
    };
    let tiled = match (search.coverage(), search.area()) {
        (Coverage::Quick, _) => None,
        (Coverage::Full, Some(area)) => Some(area.bounds()),
        (Coverage::Full, None) => located.as_ref().map(|l| l.area),
    };
    let metered = completeness::counted_area(search, located.as_ref());
    let counting = completeness::expected(upstream.aggregate, upstream.api_key, search, metered);
    // A postal code's meter counts the code, but the search pays for its viewport's
    // pages: the viewport is counted too (one more Aggregate call), for the cost.
    let viewport = located
        .as_ref()
        .filter(|_| search.postal_code().is_some())
        .map(|l| Area::Rectangle {
            low: l.area.low,
            high: l.area.high,
        });
    let counting_viewport = async {
        match viewport {
            Some(area) => {
                let area = Some(AggregateArea::from(&area));
                completeness::expected(upstream.aggregate, upstream.api_key, search, area).await
            }
            None => (None, Requests::default()),
        }
    };
    // With a count coming, fewer probes do: the count replaces the extrapolation of what
    // the probes did not reach (a count that then fails leaves a rougher extrapolation).
    let counted = upstream.aggregate.is_some() && search.business().is_included_type();
    let limits = if counted {
        EstimateLimits {
            max_probe_requests: limits.max_probe_requests.min(COUNTED_PROBE_REQUESTS),
            ..limits
        }
    } else {
        limits
    };
    let probe_until = counted.then(|| started + COUNTED_PROBING);
    let remembered = match (tiled, memory) {
        (Some(area), Some(memory)) if excluded.is_empty() => memory
            .recall(&PlanKey::of(search, area))
            .await
            .filter(|m| super::full::fits(m, area)),
        _ => None,
    };
    let mut answers = ProbeAnswers::default();
    let probing = async {
        let mut probes = Requests::default();
        let answer = match (tiled, &remembered) {
            (Some(_), Some(memory)) => from_memory(search, memory),
            (None, _) => {
                let (places, pages) = all_pages(upstream, IDS_FIELD_MASK, first_request(search)).await?;
                probes.add(Sku::IdsOnly, pages);
                let ids = places.len() as u32;
                let new = places.iter().filter(|p| !excluded.contains(&p.id)).count() as u32;
                let mut requests = Requests::default();
                requests.add(Sku::Enterprise, ids.div_ceil(PAGE_SIZE).max(1));
                // A polygon's box lists places outside it, which are paid for, not sent.
                let share = search.area().map_or(1.0, |a| a.share_of(a.bounds()));
                let inside = |n: u32| (f64::from(n) * share).round() as u32;
                Forecast {
                    places: inside(ids),
                    new: inside(new),
                    requests,
                    exact: true,
                    rest: 0.0,
                }
            }
            (Some(area), None) => {
                let probed = Probed {
                    requests: &mut probes,
                    answers: &mut answers,
                    probe_until,
                };
                full(upstream, search, area, limits, probed, excluded, prices).await?
            }
        };
        Ok::<_, SearchFailure>((answer, probes))
    };
    let (probed, (completeness, counted), (viewport_count, viewport_counted)) =
        futures_util::join!(probing, counting, counting_viewport);
    // Google bills the counts even when the probes then fail.
    spent.add(Sku::Aggregate, counted.aggregate + viewport_counted.aggregate);
    let (mut forecast, probes) = probed?;
    // A count of the probed rectangle: the meter's, where its area is that rectangle (a
    // circle's count leaves out the corners its bounding rectangle's probes include), or
    // a postal code's viewport's.
    let rectangle_count = match search.postal_code() {
        Some(_) => viewport_count,
        None => {
            completeness.filter(|_| tiled.is_some() && matches!(search.area(), None | Some(Area::Rectangle { .. })))
        }
    };
    if let Some(count) = rectangle_count.filter(|_| !forecast.exact) {
        // Google's count of the area replaces the extrapolation of the unprobed regions.
        let found = f64::from(forecast.places) - forecast.rest;
        forecast.extrapolated(f64::from(count.expected) - found);
    }
    let code_counted = match completeness.filter(|_| search.postal_code().is_some()) {
        Some(count) => {
            // A postal code's search pays for its viewport's pages and sends the code's
            // places: Google's count of the code's region.
            forecast.sent_only(count.expected);
            true
        }
        None => false,
    };
    let Forecast {
        places,
        new,
        mut requests,
        exact,
        ..
    } = forecast;
    let probes_done = exact;
    // Uncounted, a postal code's leads are every place its viewport lists (IDs-only
    // answers carry no address to tell the code's own by), more than the search sends:
    // never exact.
    let exact = exact && (search.postal_code().is_none() || code_counted);
    spent.add(Sku::IdsOnly, probes.ids_only);
    // The estimate's probes are the search's first ones: left for it, the search does not
    // make them again; otherwise it does. Not its locate: the area the estimate located
    // is cached, and the search reads it there. A full search counts its area once more
    // for its own meter (nothing of the estimate's count is kept), so the count is in its
    // cost too when the estimate's count answered.
    let (left, unfinished) = match (tiled, memory) {
        (Some(area), Some(memory)) if keeps_place_ids && !answers.0.is_empty() => {
            let key = PlanKey::of(search, area);
            memory.leave_probes(&key, &answers).await;
            let unfinished = (!probes_done).then_some(Unfinished { key, area, answers });
            (true, unfinished)
        }
        _ => (false, None),
    };
    if !left {
        requests.ids_only += spent.ids_only;
    }
    if tiled.is_some() && completeness.is_some() {
        requests.add(Sku::Aggregate, 1);
    }
    let seconds =
        f64::from(requests.ids_only + requests.pro + requests.enterprise + requests.details) / limits.rps.max(0.1);
    Ok(Estimate {
        estimated_leads: places,
        estimated_cost_usd: round_cents(requests.cost_usd(prices)),
        estimated_seconds: (seconds * 10.0).ceil() / 10.0,
        requests,
        exact,
        spent: spent.report(prices),
        completeness,
        new_places: (search.exclude() != super::options::Exclude::None).then_some(new),
        unfinished,
    })
}

/// What a search is expected to find and request, before the estimate's own requests.
struct Forecast {
    /// Places expected (probed, plus `rest`).
    places: u32,
    /// Of them, those `exclude` does not leave out.
    new: u32,
    /// The search's requests (its lead pages, and probing the rest when not exact).
    requests: Requests,
    /// Every region was probed.
    exact: bool,
    /// Places expected in the regions the probes did not finish (0 when exact).
    rest: f64,
}

impl Forecast {
    /// The same forecast with `rest` places, not the planner's guess, in the regions the
    /// probes did not finish: their lead pages and probes change with them.
    fn extrapolated(&mut self, rest: f64) {
        let rest = rest.max(0.0);
        let (old_pages, old_probes) = rest_requests(self.rest);
        let (pages, probes) = rest_requests(rest);
        self.requests.enterprise = self.requests.enterprise - old_pages + pages;
        self.requests.ids_only = self.requests.ids_only - old_probes + probes;
        let found = f64::from(self.places) - self.rest;
        let known = self.places - self.new;
        self.places = (found + rest).round() as u32;
        self.new = self.places.saturating_sub(known);
        self.rest = rest;
    }

    /// The same forecast sending only `sent` of its places (a postal code's, of its
    /// viewport's), the new ones in the same share; its requests do not change.
    fn sent_only(&mut self, sent: u32) {
        let share = if self.places == 0 {
            0.0
        } else {
            f64::from(self.new) / f64::from(self.places)
        };
        self.places = sent;
        self.new = (f64::from(sent) * share).round() as u32;
    }
}

/// Lead pages and IDs-only requests of `rest` places the probes did not reach: fetching
/// them costs about what the floor does, plus the planner's few percent; on dense areas
/// the planner makes about one IDs-only request every `PLACES_PER_PROBE_REQUEST` places.
fn rest_requests(rest: f64) -> (u32, u32) {
    if rest <= 0.0 {
        return (0, 0);
    }
    (
        (rest / f64::from(PAGE_SIZE) * REST_OVERHEAD).ceil() as u32,
        (rest / PLACES_PER_PROBE_REQUEST).ceil() as u32,
    )
}

/// What a full search from `memory` is expected to find and request: the remembered
/// fetches' places (a polygon's tiles counted by their share inside it, as below) and
/// pages, and its IDs-only probes. Not exact: the places may have changed since.
fn from_memory(search: &ValidSearch, memory: &Remembered) -> Forecast {
    let places = match search.area() {
        Some(area) => memory
            .fetches
            .iter()
            .map(|f| f64::from(f.places) * area.share_of(f.rect))
            .sum::<f64>()
            .round() as u32,
        None => memory.places() as u32,
    };
    let mut requests = Requests::default();
    requests.add(Sku::Enterprise, memory.pages() as u32);
    requests.add(Sku::IdsOnly, memory.probes(false) as u32);
    Forecast {
        places,
        new: places,
        requests,
        exact: false,
        rest: 0.0,
    }
}

/// Where an estimate's probes go: the requests they made, and what Google answered; and
/// by when every probe request must have started (see [`COUNTED_PROBING`]).
struct Probed<'a> {
    requests: &'a mut Requests,
    answers: &'a mut ProbeAnswers,
    probe_until: Option<tokio::time::Instant>,
}

async fn full(
    upstream: &Upstream<'_, impl RateGate>,
    search: &ValidSearch,
    area: Rect,
    limits: EstimateLimits,
    probed: Probed<'_>,
    excluded: &HashSet<String>,
    prices: &PriceTable,
) -> Result<Forecast, SearchFailure> {
    let Probed {
        requests: spent,
        answers: probe_answers,
        probe_until,
    } = probed;
    let base = base_request(search);
    let may_hold = |rect: Rect| search.area().is_none_or(|a| a.may_hold(rect));
    let mut planner = Planner::new(area);
    // In rounds: every probe the plan has ready, answered together, recorded in order.
    // The estimate then depends only on Google's answers, not on which came first (and,
    // with the count coming, on how long they took).
    let mut used = 0u32;
    // Whether a round of `probes` can start all its pages in time, at the key's pace (the
    // k-th request starts k / rps after the first).
    let in_time = |probes: usize| {
        probe_until.is_none_or(|until| {
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            ((probes * MAX_PAGES).saturating_sub(1)) as f64 <= left.as_secs_f64() * limits.rps
        })
    };
    loop {
        let mut round = Vec::new();
        while round.len() < limits.concurrency.max(1)
            && used + (round.len() * MAX_PAGES) as u32 + MAX_PAGES as u32 <= limits.max_probe_requests
            && in_time(round.len() + 1)
        {
            let Some(next) = planner.next_probe_within(may_hold) else {
                break;
            };
            round.push(next);
        }
        if round.is_empty() {
            break;
        }
        let rects: Vec<Rect> = round.iter().map(|(_, rect)| *rect).collect();
        let answers =
            futures_util::future::join_all(round.into_iter().map(|(id, rect)| probe(upstream, &base, id, rect))).await;
        for (done, rect) in answers.into_iter().zip(rects) {
            if let Done::Probe(id, result) = done {
                let (ids, pages) = result?;
                spent.add(Sku::IdsOnly, pages);
                used += pages;
                probe_answers.0.push(ProbeAnswer { rect, ids: ids.clone() });
                planner.record(id, Probe { ids });
            }
        }
    }
    let exact = planner.is_done();
    let found = planner.found_count();
    let rest = if exact { 0.0 } else { planner.estimated_unresolved() };
    // Each rectangle as the search fetches it: not at all when it lies outside a polygon
    // or its places are all excluded, by id when that is cheaper (the search's choice).
    let (mut planned, mut by_id) = (0u32, 0u32);
    for fetch in planner.fetch_plan().iter().filter(|f| may_hold(f.rect)) {
        let pages = fetch.requests().max(1) as u32;
        let choice = if excluded.is_empty() {
            TileFetch::Pages(pages)
        } else {
            TileFetch::choose(&fetch.ids, pages, |id| !excluded.contains(id), prices)
        };
        let (p, d) = choice.requests();
        planned += p;
        by_id += d;
    }
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
    let (rest_pages, rest_probes) = rest_requests(rest);
    let mut requests = Requests::default();
    // The search's early page (one page of the area while the planner probes) is billed too.
    requests.add(Sku::Enterprise, planned + extra as u32 + rest_pages);
    requests.add(Sku::Details, by_id);
    requests.add(Sku::IdsOnly, rest_probes);
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
    Ok(Forecast {
        places: total,
        new: total.saturating_sub((known as f64 * share).round() as u32),
        requests,
        exact,
        // Google's count may replace it only where the area is the probed rectangle,
        // whose share is whole.
        rest: rest_inside,
    })
}
