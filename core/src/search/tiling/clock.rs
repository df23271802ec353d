//! Test support: the Places simulator's metro as the planner sees it, and a clock model of
//! the runner (`full.rs`) driving the planner against it, so that the time to the first
//! lead and to the last can be measured in a unit test, without servers.
//!
//! The model: a key paced at `RPS` requests a second (a request may start no sooner than
//! `1 / RPS` after the one before, first come first served), `LATENCY` a request, up to
//! `CONCURRENCY` probes and fetches in flight, each reading its pages one after the other;
//! fetches go first, as in the runner. A fetch's leads go out when its last page is in.

use std::{
    cmp::Reverse,
    collections::{BTreeSet, BinaryHeap},
};

use leadgen_testkit::places_sim::{DEFAULT_SEED, METRO_CITY, World};

use super::*;

/// A world: place ids with their positions, best ranked first (Google lists the places
/// of a rectangle in one order whatever the rectangle).
pub(super) type Places = Vec<(String, LatLng)>;

/// The simulator's metro (`kind` in Houston) as the bench searches it: its viewport and
/// its places, ranked as the simulator ranks them (prominence, then id).
pub(super) fn houston(kind: &str) -> (Rect, Places) {
    let world = World::new(DEFAULT_SEED);
    let city = world.city(METRO_CITY).expect("the metro");
    let area = Rect {
        low: LatLng {
            lat: city.viewport.low.latitude,
            lng: city.viewport.low.longitude,
        },
        high: LatLng {
            lat: city.viewport.high.latitude,
            lng: city.viewport.high.longitude,
        },
    };
    let mut places = world.places_for(METRO_CITY, kind);
    places.sort_by(|a, b| b.prominence.total_cmp(&a.prominence).then_with(|| a.id.cmp(&b.id)));
    let places = places
        .into_iter()
        .map(|p| {
            let at = LatLng {
                lat: p.location.latitude,
                lng: p.location.longitude,
            };
            (p.id, at)
        })
        .filter(|(_, at)| area.contains(*at))
        .collect();
    (area, places)
}

/// Every place of `rect`, in rank order (uncapped).
pub(super) fn inside(world: &[(String, LatLng)], rect: Rect) -> Vec<&(String, LatLng)> {
    world.iter().filter(|(_, p)| rect.contains(*p)).collect()
}

/// Requests a second the key allows.
const RPS: f64 = 10.0;
/// Seconds a request takes.
const LATENCY: f64 = 0.3;
/// Requests in flight (the runner's `FULL_CONCURRENCY`).
const CONCURRENCY: usize = 8;

/// What a clocked run measured.
#[derive(Debug, Clone)]
pub(super) struct Timing {
    /// Seconds to the first lead and to the last.
    pub first_lead: f64,
    pub complete: f64,
    /// Requests made: probes (IDs-only) and fetches (billable).
    pub probe_requests: usize,
    pub fetch_requests: usize,
    /// Distinct places fetched, and places the plan's fetches listed more than once
    /// (the early page's are fetched again by design, and not counted).
    pub leads: BTreeSet<String>,
    pub duplicates: usize,
    /// Seconds to the first of the plan's own fetches (after the early page).
    pub first_tile: f64,
    /// Seconds by which half the places were out.
    pub half: f64,
    /// Billable requests before the first lead went out.
    pub requests_before_first_lead: usize,
}

enum Task {
    Probe(ProbeId, Vec<String>),
    /// A fetch: the tile's index, and what Google lists there.
    Fetch(usize, Vec<String>),
    Early(Vec<String>),
}

/// Runs the planner over `world` on the clock model (see the module docs): a first search.
pub(super) fn clocked(area: Rect, world: &[(String, LatLng)]) -> Timing {
    let mut plans = Plans::fresh(area);
    let timing = clocked_plans(&mut plans, world);
    let planner = &plans.plans[0].0;
    assert!(planner.is_done());
    let (mut split, mut leaves, mut leaf_pages, mut extra) = (0, 0, 0, 0);
    let mut hist = [0; 7];
    for node in &planner.nodes {
        match &node.state {
            super::state::State::Split { .. } => split += 1,
            super::state::State::Leaf { ids, .. } => {
                hist[ids.len() / 10] += 1;
                leaves += 1;
                leaf_pages += ids.len().div_ceil(PAGE).max(1);
            }
            super::state::State::Extra => extra += 1,
            _ => {}
        }
    }
    eprintln!(
        "  saturated probes {split}, leaves {leaves} ({leaf_pages} pages) by tens {hist:?}, repair probes {extra}"
    );
    timing
}

/// Runs `plans` (a first search's, or one from memory) over `world` on the clock model.
pub(super) fn clocked_plans(plans: &mut Plans, world: &[(String, LatLng)]) -> Timing {
    // (time a page comes back, task index)
    let mut events: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    let mut tasks: Vec<(Task, usize, usize)> = Vec::new(); // (task, pages read, pages in all)
    let mut gate = 0.0f64;
    let mut now = 0.0f64;
    let mut inflight = 0usize;
    let mut next_fetch = 0usize;
    let mut timing = Timing {
        first_lead: f64::NAN,
        complete: 0.0,
        probe_requests: 0,
        fetch_requests: 0,
        leads: BTreeSet::new(),
        duplicates: 0,
        first_tile: f64::NAN,
        half: f64::NAN,
        requests_before_first_lead: 0,
    };
    let mut planned = BTreeSet::new();
    let micros = |t: f64| (t * 1e6).round() as u64;
    let mut request = |events: &mut BinaryHeap<Reverse<(u64, usize)>>, now: f64, task: usize| {
        let start = now.max(gate);
        gate = start + 1.0 / RPS;
        events.push(Reverse((micros(start + LATENCY), task)));
    };
    let pages_of = |n: usize| n.min(CAP).div_ceil(PAGE).max(1);
    loop {
        while inflight < CONCURRENCY {
            let task = if let Some(rect) = plans.early_page() {
                // One page with the lead mask: the rectangle's first 20.
                let ids: Vec<String> = inside(world, rect)
                    .iter()
                    .take(PAGE)
                    .map(|(id, _)| id.clone())
                    .collect();
                (Task::Early(ids), 1)
            } else if let Some(fetch) = plans.fetch_at(next_fetch) {
                let ids: Vec<String> = inside(world, fetch.rect)
                    .iter()
                    .take(CAP)
                    .map(|(id, _)| id.clone())
                    .collect();
                let pages = pages_of(ids.len());
                next_fetch += 1;
                (Task::Fetch(next_fetch - 1, ids), pages)
            } else if let Some((id, rect)) = plans.next_probe() {
                let ids: Vec<String> = inside(world, rect).iter().take(CAP).map(|(id, _)| id.clone()).collect();
                let pages = pages_of(ids.len());
                (Task::Probe(id, ids), pages)
            } else {
                break;
            };
            tasks.push((task.0, 0, task.1));
            inflight += 1;
            request(&mut events, now, tasks.len() - 1);
        }
        let Some(Reverse((at, index))) = events.pop() else {
            break;
        };
        now = at as f64 / 1e6;
        let (task, read, all) = &mut tasks[index];
        *read += 1;
        match task {
            Task::Probe(..) => timing.probe_requests += 1,
            Task::Fetch(..) | Task::Early(..) => timing.fetch_requests += 1,
        }
        if *read < *all {
            request(&mut events, now, index);
            continue;
        }
        inflight -= 1;
        match std::mem::replace(task, Task::Early(Vec::new())) {
            Task::Probe(id, ids) => plans.record(id, Probe { ids }),
            task @ (Task::Fetch(..) | Task::Early(_)) => {
                let (ids, early) = match task {
                    Task::Fetch(tile, ids) => {
                        // A tile that comes back at the cap is planned afresh: its places
                        // are fetched again with the sub-plan, like the early page's.
                        let whole = plans.fetched(tile, ids.clone());
                        (ids, !whole)
                    }
                    Task::Early(ids) => (ids, true),
                    Task::Probe(..) => unreachable!(),
                };
                if timing.first_lead.is_nan() && !ids.is_empty() {
                    timing.first_lead = now;
                    timing.requests_before_first_lead = timing.probe_requests + timing.fetch_requests;
                }
                if !early && timing.first_tile.is_nan() {
                    timing.first_tile = now;
                }
                for id in ids {
                    if !early && !planned.insert(id.clone()) {
                        timing.duplicates += 1;
                    }
                    timing.leads.insert(id);
                }
                if timing.half.is_nan() && timing.leads.len() * 2 >= world.len() {
                    timing.half = now;
                }
                timing.complete = now;
            }
        }
    }
    assert!(plans.is_done());
    timing
}
