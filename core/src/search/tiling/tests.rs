use std::collections::BTreeSet;

use super::*;

/// A deterministic stream of numbers in [0, 1) (xorshift: good enough to scatter points).
fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 1_000_000) as f64 / 1_000_000.0
    }
}

/// A synthetic metro: `n` places, most in a few clusters, the rest spread out.
fn metro(n: usize, seed: u64) -> Vec<(String, LatLng)> {
    let mut next = uniform(seed);
    let clusters: Vec<LatLng> = (0..6)
        .map(|_| LatLng {
            lat: 30.1 + next() * 0.4,
            lng: -97.9 + next() * 0.4,
        })
        .collect();
    (0..n)
        .map(|i| {
            let p = if i % 3 == 0 {
                LatLng {
                    lat: 30.1 + next() * 0.5,
                    lng: -97.95 + next() * 0.5,
                }
            } else {
                let c = clusters[i % clusters.len()];
                LatLng {
                    lat: c.lat + (next() - 0.5) * 0.04,
                    lng: c.lng + (next() - 0.5) * 0.04,
                }
            };
            (format!("place-{i}"), p)
        })
        .collect()
}

/// One dense downtown: `n` places in a 0.06-degree square (about a hundredth of the
/// area), thicker towards its middle.
fn downtown(n: usize, seed: u64) -> Vec<(String, LatLng)> {
    let mut next = uniform(seed);
    (0..n)
        .map(|i| {
            // The mean of two uniforms: a triangular spread, densest at the centre.
            let (a, b) = ((next() + next()) / 2.0, (next() + next()) / 2.0);
            let p = LatLng {
                lat: 30.52 + a * 0.06,
                lng: -97.61 + b * 0.06,
            };
            (format!("downtown-{i}"), p)
        })
        .collect()
}

/// `n` places spread evenly over the whole area.
fn spread(n: usize, seed: u64) -> Vec<(String, LatLng)> {
    let mut next = uniform(seed);
    let a = area();
    (0..n)
        .map(|i| {
            let p = LatLng {
                lat: a.low.lat + next() * (a.high.lat - a.low.lat),
                lng: a.low.lng + next() * (a.high.lng - a.low.lng),
            };
            (format!("even-{i}"), p)
        })
        .collect()
}

/// What Google would list for a rectangle: its matches, at most 60.
fn probe(world: &[(String, LatLng)], rect: Rect) -> Probe {
    Probe {
        ids: world
            .iter()
            .filter(|(_, p)| rect.contains(*p))
            .take(CAP)
            .map(|(id, _)| id.clone())
            .collect(),
    }
}

fn area() -> Rect {
    Rect {
        low: LatLng { lat: 30.0, lng: -98.0 },
        high: LatLng { lat: 30.7, lng: -97.3 },
    }
}

/// A planned run: the planner, its plan, and the IDs-only requests its probes made
/// (a probe reads `ceil(n / 20)` pages, at least one).
struct Run {
    planner: Planner,
    plan: Vec<Fetch>,
    probe_requests: usize,
}

/// Runs the planner to the end, probing in rounds (everything it has ready at once);
/// `reverse` records each round's answers last first, as a concurrent runner may.
fn run_with(world: &[(String, LatLng)], reverse: bool) -> Run {
    let mut planner = Planner::new(area());
    let mut probe_requests = 0;
    while !planner.is_done() {
        let mut batch: Vec<(ProbeId, Rect)> = std::iter::from_fn(|| planner.next_probe()).collect();
        if reverse {
            batch.reverse();
        }
        for (id, rect) in batch {
            let answer = probe(world, rect);
            probe_requests += answer.ids.len().div_ceil(PAGE).max(1);
            planner.record(id, answer);
        }
    }
    let plan = planner.fetch_plan();
    Run {
        planner,
        plan,
        probe_requests,
    }
}

fn run(world: &[(String, LatLng)]) -> (Planner, Vec<Fetch>) {
    let run = run_with(world, false);
    (run.planner, run.plan)
}

/// Plans `world` and checks the plan: every place, no fetch past the cap and none
/// holding a place the probes did not list. Prints and returns (fetch requests, their
/// ratio to the floor, probe requests).
fn check(name: &str, world: &[(String, LatLng)]) -> (usize, f64, usize) {
    let n = world.len();
    let Run {
        planner,
        plan,
        probe_requests,
    } = run_with(world, false);
    let fetched: BTreeSet<String> = plan.iter().flat_map(|f| f.ids.iter().cloned()).collect();
    assert_eq!(fetched.len(), n, "{name}: recall, every place");
    assert_eq!(planner.found().len(), n, "{name}: the probes list every place");
    assert!(!planner.truncated(), "{name}");
    for f in &plan {
        assert!(f.ids.len() <= CAP, "{name}: a fetch never exceeds the cap");
        let inside: BTreeSet<&String> = world
            .iter()
            .filter(|(_, p)| f.rect.contains(*p))
            .map(|(id, _)| id)
            .collect();
        assert_eq!(
            inside,
            f.ids.iter().collect(),
            "{name}: a fetch holds exactly the places the probes listed in it"
        );
    }
    let requests: usize = plan.iter().map(Fetch::requests).sum();
    let floor = n.div_ceil(PAGE);
    let ratio = requests as f64 / floor as f64;
    let total = (requests + probe_requests) as f64 / n as f64;
    eprintln!(
        "tiling {name}: {n} places: {requests} fetch requests (floor {floor}, {ratio:.3}x), \
         {probe_requests} probe requests ({} probes, {:.3} a place), {total:.3} requests a place",
        planner.probes(),
        probe_requests as f64 / n as f64,
    );
    (requests, ratio, probe_requests)
}

#[test]
fn finds_every_match_for_close_to_the_floor_with_few_probes() {
    type World = Vec<(String, LatLng)>;
    let worlds: Vec<(&str, World, f64)> = vec![
        ("metro 1500/7", metro(1_500, 7), PROBES_A_PLACE),
        ("metro 3000/11", metro(3_000, 11), PROBES_A_PLACE),
        ("metro 800/3", metro(800, 3), PROBES_A_PLACE),
        ("downtown 2000/5", downtown(2_000, 5), PROBES_A_PLACE),
        ("even 2000/9", spread(2_000, 9), PROBES_A_PLACE),
    ];
    let mut failures = Vec::new();
    for (name, world, probes_a_place) in &worlds {
        let (requests, ratio, probe_requests) = check(name, world);
        // Issue #11's ceiling: $2.00 per 1,000 leads at $35 per 1,000 Enterprise
        // requests is 1.143x the floor (measured: 1.05-1.125x).
        if ratio > 1.143 {
            failures.push(format!("{name}: {requests} fetch requests, {ratio:.3}x the floor"));
        }
        if probe_requests as f64 > probes_a_place * world.len() as f64 {
            failures.push(format!("{name}: {probe_requests} probe requests"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The IDs-only requests a place the tests hold the planner to.
const PROBES_A_PLACE: f64 = 0.16;

#[test]
fn the_plan_does_not_depend_on_the_order_probes_are_recorded_in() {
    for world in [metro(1_500, 7), downtown(2_000, 5)] {
        let sorted = |plan: Vec<Fetch>| {
            let mut rects: Vec<(String, Vec<String>)> = plan
                .into_iter()
                .map(|f| (format!("{:?}", f.rect), f.ids.into_iter().collect()))
                .collect();
            rects.sort();
            rects
        };
        let forward = run_with(&world, false);
        let backward = run_with(&world, true);
        assert_eq!(forward.probe_requests, backward.probe_requests);
        assert_eq!(sorted(forward.plan), sorted(backward.plan));
    }
}

/// What `estimate.rs` does: rounds of up to 8 probes, up to `bound` IDs-only requests;
/// the places it expects (found, plus what is left as the planner reckons it).
fn estimated(area: Rect, world: &[(String, LatLng)], bound: usize) -> (f64, bool) {
    let mut planner = Planner::new(area);
    let mut used = 0;
    loop {
        let mut round = Vec::new();
        while round.len() < 8 && used + (round.len() + 1) * 3 <= bound {
            let Some(next) = planner.next_probe() else { break };
            round.push(next);
        }
        if round.is_empty() {
            break;
        }
        for (id, rect) in round {
            let answer = clock::inside(world, rect)
                .iter()
                .take(CAP)
                .map(|(id, _)| id.clone())
                .collect();
            let answer = Probe { ids: answer };
            used += answer.ids.len().div_ceil(PAGE).max(1);
            planner.record(id, answer);
        }
    }
    let done = planner.is_done();
    (planner.found_count() as f64 + planner.estimated_unresolved(), done)
}

#[test]
fn a_plan_stopped_early_estimates_what_is_left() {
    let worlds: Vec<(String, Rect, clock::Places)> = vec![
        ("metro 1500/7".into(), area(), metro(1_500, 7)),
        ("metro 3000/11".into(), area(), metro(3_000, 11)),
        (
            "houston dentists".into(),
            clock::houston("dentist").0,
            clock::houston("dentist").1,
        ),
        (
            "houston restaurants".into(),
            clock::houston("restaurant").0,
            clock::houston("restaurant").1,
        ),
    ];
    for (name, area, world) in &worlds {
        let n = world.len() as f64;
        for bound in [30, 80] {
            let (estimate, done) = estimated(*area, world, bound);
            assert!(!done, "{name}: a metro is past {bound} requests");
            let error = (estimate - n).abs() / n;
            eprintln!("estimate of {name} after {bound} requests: {estimate:.0} for {n} ({error:.2})");
            assert!(error < 0.6, "{name}: {estimate:.0} estimated for {n}");
        }
    }
}

#[test]
fn a_sparse_area_is_one_probe_and_one_plain_fetch() {
    let world = metro(45, 5);
    let (planner, plan) = run(&world);
    assert_eq!(planner.probes(), 1, "under the cap: no split");
    assert_eq!(plan.len(), 1);
    assert_eq!(plan[0].requests(), 3, "45 places: 3 pages, the same as a quick search");
    assert_eq!(plan[0].rect, area());
}

#[test]
fn more_than_the_cap_at_one_spot_is_flagged_not_looped_on() {
    let spot = LatLng { lat: 30.3, lng: -97.7 };
    let world: Vec<(String, LatLng)> = (0..80).map(|i| (format!("mall-{i}"), spot)).collect();
    let (planner, plan) = run(&world);
    assert!(planner.truncated(), "80 at one spot: only 60 reachable by area");
    assert!(planner.probes() < 200, "splitting stops at the smallest rectangle");
    let fetched: usize = plan.iter().map(|f| f.ids.len()).sum();
    assert!(fetched >= 60);
}

/// On the simulator's metro (1,500 dentists, 3,000 restaurants in Houston, ranked as the
/// simulator ranks them), at 10 requests a second and 300 ms a request: every place once,
/// the first leads within the first few requests, and the figures the coverage bench
/// measures end to end (printed; the bench's own are in docs/benchmarks.md).
#[test]
fn on_the_simulator_s_metro_the_first_leads_come_at_once_and_every_place_once() {
    for kind in ["dentist", "restaurant"] {
        let (area, world) = clock::houston(kind);
        let t = clock::clocked(area, &world);
        let n = world.len();
        eprintln!(
            "clocked {kind}: {n} places, {} leads, {} dup, first lead {:.1} s (after {} requests), first tile {:.1} s, \
             half {:.1} s, complete {:.1} s, {} probe + {} fetch requests (floor {}), {:.0} leads/min",
            t.leads.len(),
            t.duplicates,
            t.first_lead,
            t.requests_before_first_lead,
            t.first_tile,
            t.half,
            t.complete,
            t.probe_requests,
            t.fetch_requests,
            n.div_ceil(PAGE),
            t.leads.len() as f64 / t.complete * 60.0
        );
        assert_eq!(t.leads.len(), n, "{kind}: recall, every place");
        assert_eq!(t.duplicates, 0, "{kind}: no place in two of the plan's fetches");
        // The area's probe (3 pages), then the early page.
        assert!(t.requests_before_first_lead <= 4, "{kind}: {t:?}");
        assert!(t.first_lead <= 3.0, "{kind}: first lead at {:.1} s", t.first_lead);
        // Issue #30's ceiling for the dentists, $1.90 per 1,000 leads at $35 per 1,000
        // billable requests; the product's, $2.00, for any search.
        let per_1000 = t.fetch_requests as f64 * 35.0 / n as f64;
        let ceiling = if kind == "dentist" { 1.90 } else { 2.00 };
        assert!(per_1000 <= ceiling, "{kind}: ${per_1000:.3} per 1,000 leads");
    }
}

/// A polygon search tells the planner which rectangles lie wholly outside it instead of
/// probing them; their places are unknown, so no fetch may span one and a neighbour:
/// every fetch must still hold at most Google's cap of what Google really has there, and
/// every place inside must be in one.
#[test]
fn rectangles_outside_a_polygon_are_never_grouped_with_their_neighbours() {
    for world in [metro(800, 3), spread(2_000, 9), metro(1_500, 7)] {
        outside_rectangles_stay_apart(&world);
    }
}

fn outside_rectangles_stay_apart(world: &[(String, LatLng)]) {
    // The area west of a line off the planner's grid stands in for the polygon (the
    // geometry is `polygon.rs`'s).
    let west_of = -97.57;
    let wanted = |p: LatLng| p.lng < west_of;
    let mut planner = Planner::new(area());
    let mut outside = Vec::new();
    while !planner.is_done() {
        let batch: Vec<(ProbeId, Rect)> = std::iter::from_fn(|| planner.next_probe()).collect();
        for (id, rect) in batch {
            if rect.low.lng >= west_of && planner.may_skip(id) {
                outside.push(rect);
                planner.record_outside(id);
            } else {
                planner.record(id, probe(world, rect));
            }
        }
    }
    let plan = planner.fetch_plan();
    assert!(!outside.is_empty());
    let overlap = |a: &Rect, b: &Rect| {
        a.low.lng < b.high.lng && b.low.lng < a.high.lng && a.low.lat < b.high.lat && b.low.lat < a.high.lat
    };
    let mut fetched = BTreeSet::new();
    for f in &plan {
        assert!(
            !outside.iter().any(|o| overlap(o, &f.rect)),
            "a fetch spans a rectangle nobody probed: {:?}",
            f.rect
        );
        let really: Vec<&String> = world
            .iter()
            .filter(|(_, p)| f.rect.contains(*p))
            .map(|(id, _)| id)
            .collect();
        assert!(really.len() <= CAP, "a fetch of {} places passes the cap", really.len());
        fetched.extend(really.into_iter().cloned());
    }
    let inside: BTreeSet<String> = world
        .iter()
        .filter(|(_, p)| wanted(*p))
        .map(|(id, _)| id.clone())
        .collect();
    assert!(fetched.is_superset(&inside), "every place inside is fetched");
    let full = run(world).1;
    assert!(
        plan.len() < full.len(),
        "{} fetches, {} for the whole area",
        plan.len(),
        full.len()
    );
}
