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

/// Every point of `area` lies in a remembered fetch or an unfetched rectangle (sampled on a
/// fine grid, edges included).
fn covers_the_area(memory: &Remembered, area: Rect) -> bool {
    let steps = 200;
    (0..=steps).all(|i| {
        (0..=steps).all(|j| {
            let p = LatLng {
                lat: area.low.lat + (area.high.lat - area.low.lat) * i as f64 / steps as f64,
                lng: area.low.lng + (area.high.lng - area.low.lng) * j as f64 / steps as f64,
            };
            memory.fetches.iter().any(|f| f.rect.contains(p)) || memory.unfetched.iter().any(|r| r.contains(p))
        })
    })
}

/// The simulator's metro searched again from what the first search remembered: every
/// place, no more pages, only the empty rectangles probed, the first lead after one
/// request; the figures are printed next to the first search's.
#[test]
fn a_search_from_memory_fetches_at_once_and_finds_every_place() {
    for kind in ["dentist", "restaurant"] {
        let (area, world) = clock::houston(kind);
        let mut first = Plans::fresh(area);
        let t1 = clock::clocked_plans(&mut first, &world);
        let memory = first.remembered().expect("a finished plan is remembered");
        assert!(
            covers_the_area(&memory, area),
            "{kind}: the memory covers the whole area"
        );
        assert_eq!(memory.places(), world.len(), "{kind}");
        let mut again = Plans::from_memory(&memory, false);
        let t2 = clock::clocked_plans(&mut again, &world);
        let n = world.len();
        for (name, t) in [("first", &t1), ("repeat", &t2)] {
            eprintln!(
                "clocked {kind} {name}: {} leads, first lead {:.1} s (after {} requests), complete {:.1} s, \
                 {} probe + {} fetch requests, ${:.2} per 1,000, {:.0} leads/min",
                t.leads.len(),
                t.first_lead,
                t.requests_before_first_lead,
                t.complete,
                t.probe_requests,
                t.fetch_requests,
                t.fetch_requests as f64 * 35.0 / n as f64,
                t.leads.len() as f64 / t.complete * 60.0
            );
        }
        eprintln!(
            "  memory: {} fetches ({} of exactly the cap), {} unfetched rectangles",
            memory.fetches.len(),
            memory.fetches.iter().filter(|f| f.places as usize == CAP).count(),
            memory.unfetched.len()
        );
        assert_eq!(t2.leads.len(), n, "{kind}: recall");
        assert_eq!(t2.duplicates, 0, "{kind}");
        assert!(
            t2.probe_requests <= memory.probes(false) + 2,
            "{kind}: only what the memory says is probed: {} of {}",
            t2.probe_requests,
            memory.probes(false)
        );
        assert!(t2.probe_requests * 5 < t1.probe_requests, "{kind}: {t2:?}");
        assert!(
            t2.fetch_requests < t1.fetch_requests,
            "{kind}: no early page, the same plan"
        );
        assert_eq!(t2.requests_before_first_lead, 1, "{kind}");
        assert_eq!(
            again.remembered(),
            Some(memory),
            "{kind}: nothing changed, nothing to learn"
        );
    }
}

/// The world changed since the plan was remembered: a place opened in an empty rectangle,
/// and a fetch's rectangle now holds more than the cap. Both are found: the empty
/// rectangle's probe lists the new place, and the crowded rectangle is planned afresh.
#[test]
fn a_search_from_memory_finds_what_changed() {
    let mut world = metro(1_500, 7);
    let mut first = Plans::fresh(area());
    clock::clocked_plans(&mut first, &world);
    let memory = first.remembered().expect("remembered");
    assert!(covers_the_area(&memory, area()));
    let empty = *memory.unfetched.first().expect("the metro leaves an empty rectangle");
    let centre = |r: Rect| LatLng {
        lat: (r.low.lat + r.high.lat) / 2.0,
        lng: (r.low.lng + r.high.lng) / 2.0,
    };
    world.push(("opened-in-the-empty".to_owned(), centre(empty)));
    let busy = memory
        .fetches
        .iter()
        .find(|f| f.places > 20 && (f.places as usize) < CAP)
        .expect("a fetch made at once");
    let mut next = uniform(42);
    for i in 0..80 {
        let (r, p) = (busy.rect, &mut next);
        world.push((
            format!("crowd-{i}"),
            LatLng {
                lat: r.low.lat + (r.high.lat - r.low.lat) * (0.05 + 0.9 * p()),
                lng: r.low.lng + (r.high.lng - r.low.lng) * (0.05 + 0.9 * p()),
            },
        ));
    }
    let mut again = Plans::from_memory(&memory, false);
    let t = clock::clocked_plans(&mut again, &world);
    let truth: BTreeSet<String> = world
        .iter()
        .filter(|(_, p)| area().contains(*p))
        .map(|(id, _)| id.clone())
        .collect();
    assert_eq!(t.leads, truth, "recall after the world changed");
    let relearned = again.remembered().expect("remembered again");
    assert!(covers_the_area(&relearned, area()));
    assert_eq!(
        relearned.places(),
        truth.len(),
        "the new memory counts what is there now"
    );
    // Searched once more from the new memory: nothing at the cap, so nothing planned afresh.
    let mut third = Plans::from_memory(&relearned, false);
    let t3 = clock::clocked_plans(&mut third, &world);
    assert_eq!(t3.leads, truth);
    assert!(t3.probe_requests <= relearned.probes(false) + 2);
}

/// With an `exclude`, every remembered rectangle is probed first (the search decides from
/// the ids which places are new), still far fewer probes than planning the area.
#[test]
fn a_search_from_memory_with_an_exclude_probes_each_rectangle_once() {
    let world = metro(1_500, 7);
    let mut first = Plans::fresh(area());
    let t1 = clock::clocked_plans(&mut first, &world);
    let memory = first.remembered().expect("remembered");
    let mut again = Plans::from_memory(&memory, true);
    let t2 = clock::clocked_plans(&mut again, &world);
    assert_eq!(t2.leads.len(), world.len());
    let fetched: usize = (0..again.fetch_count())
        .map(|i| again.fetch_at(i).expect("tile").requests())
        .sum();
    assert_eq!(fetched, memory.pages(), "the same pages, decided from fresh ids");
    assert!((0..again.fetch_count()).all(|i| again.fetch_at(i).is_some_and(|t| t.ids.is_some())));
    assert!(
        t2.probe_requests < t1.probe_requests,
        "{} vs {}",
        t2.probe_requests,
        t1.probe_requests
    );
}

/// A plan that is not finished, or found more than the cap at one spot, is not remembered.
#[test]
fn only_a_finished_complete_plan_is_remembered() {
    let world = metro(800, 3);
    let mut planner = Planner::new(area());
    let (id, rect) = planner.next_probe().expect("the area");
    planner.record(id, probe(&world, rect));
    assert_eq!(planner.remembered(), None, "probes still waiting");
    let spot = LatLng { lat: 30.3, lng: -97.6 };
    let crowd: Vec<(String, LatLng)> = (0..70).map(|i| (format!("mall-{i}"), spot)).collect();
    let (planner, _) = run(&crowd);
    assert!(planner.truncated());
    assert_eq!(planner.remembered(), None, "truncated");
    let (planner, plan) = run(&world);
    let memory = planner.remembered().expect("finished");
    assert_eq!(memory.fetches.len(), plan.len());
    assert!(covers_the_area(&memory, area()));
}

/// A remembered plan that does not cover its area, or whose rectangles are not real ones
/// inside it, is not run from (a damaged row must not cost recall).
#[test]
fn a_plan_that_does_not_cover_its_area_is_not_run_from() {
    let (planner, _) = run(&metro(800, 3));
    let memory = planner.remembered().expect("finished");
    assert!(memory.fits(area()));
    let mut gap = memory.clone();
    gap.fetches.pop();
    assert!(!gap.fits(area()), "a part of the area left out");
    let other = Rect {
        low: LatLng { lat: 29.0, lng: -98.0 },
        high: LatLng { lat: 30.7, lng: -97.3 },
    };
    assert!(!memory.fits(other), "another area");
    let mut inverted = memory.clone();
    let r = &mut inverted.fetches[0].rect;
    std::mem::swap(&mut r.low, &mut r.high);
    assert!(!inverted.fits(area()));
    let mut crowded = memory.clone();
    crowded.fetches[0].places = 61;
    assert!(!crowded.fits(area()), "past the cap");
    let mut nan = memory;
    nan.unfetched.push(Rect {
        low: LatLng {
            lat: f64::NAN,
            lng: 0.0,
        },
        high: LatLng { lat: 0.0, lng: 0.0 },
    });
    assert!(!nan.fits(area()));
}

/// A fresh plan's fetch whose probe listed fewer than the cap comes back at it: the
/// listing grew after the probe (an estimate's answers are minutes old when its search
/// fetches). The rectangle is planned afresh from that answer, and every place of the
/// grown world is fetched.
#[test]
fn a_fetch_at_the_cap_after_a_smaller_probe_is_planned_afresh() {
    let before = spread(40, 3);
    let mut plans = Plans::fresh(area());
    let (id, rect) = plans.next_probe().expect("the area's probe");
    plans.record(id, probe(&before, rect));
    assert_eq!(plans.fetch_count(), 1, "40 places: one fetch of the area");
    assert!(plans.next_probe().is_none());

    let mut grown = before.clone();
    grown.extend(spread(60, 4).into_iter().map(|(id, p)| (format!("new-{id}"), p)));
    let listed = probe(&grown, area()).ids;
    assert_eq!(listed.len(), CAP);
    assert!(!plans.fetched(0, listed), "not done: it may hold more");
    let mut fetched: BTreeSet<String> = BTreeSet::new();
    let mut next_fetch = 1;
    while !plans.is_done() || next_fetch < plans.fetch_count() {
        while let Some((id, rect)) = plans.next_probe() {
            plans.record(id, probe(&grown, rect));
        }
        while let Some(tile) = plans.fetch_at(next_fetch).cloned() {
            let listed = probe(&grown, tile.rect).ids;
            fetched.extend(listed.iter().cloned());
            assert!(plans.fetched(next_fetch, listed), "the world does not change again");
            next_fetch += 1;
        }
    }
    let truth: BTreeSet<String> = grown.into_iter().map(|(id, _)| id).collect();
    assert_eq!(fetched, truth, "every place of the grown world");

    // A fetch whose probe listed the cap already (a spot too small to split) is done.
    let spot = LatLng { lat: 30.3, lng: -97.7 };
    let crowded: Vec<(String, LatLng)> = (0..80).map(|i| (format!("mall-{i}"), spot)).collect();
    let mut plans = Plans::fresh(area());
    while !plans.is_done() {
        while let Some((id, rect)) = plans.next_probe() {
            plans.record(id, probe(&crowded, rect));
        }
    }
    let (index, tile) = (0..plans.fetch_count())
        .filter_map(|i| plans.fetch_at(i).cloned().map(|t| (i, t)))
        .find(|(_, t)| t.places >= CAP)
        .expect("the spot's fetch, at the cap");
    assert!(plans.fetched(index, probe(&crowded, tile.rect).ids));
}
