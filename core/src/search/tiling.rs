//! Full coverage of an area: the pure planner (no I/O) that decides which rectangles to
//! probe and which to fetch, so that every match is found for close to the least Google
//! bills.
//!
//! Google's Text Search answers at most 60 places a query (3 pages of 20). The planner
//! probes rectangles with the free IDs-only field mask; a rectangle whose probe fills the
//! cap may hold more, so it is split in four and its quarters probed. A rectangle under the
//! cap is a leaf: the probe listed every match in it. Leads are then fetched with the
//! billable lead mask, and the planner groups neighbouring leaves into one rectangle where
//! their matches fit in the cap, because each fetch costs `ceil(n / 20)` requests and many
//! small leaves round up badly. The floor is `ceil(N / 20)` for N matches.
//!
//! How: a saturated region is quartered once (so a few regions progress at once), then
//! *carved*: strips are cut off along its longer side at a position found by probing a few
//! cuts at once and narrowing, until a strip holds a count that fills its pages (a
//! multiple of 20, or at most 3 short of one). Each strip is a fetch; the rest of the
//! region is carved again. On synthetic metros this costs 1.05-1.08x the floor (a plain
//! quadtree: 1.45x), for about one free probe per 5 places.
//!
//! The runner drives it: `next_probe` → probe (concurrently, under the key's rate gate) →
//! `record`; `fetch_plan` grows as strips are cut, so fetching can start early.
//! `full.rs` runs it for full-coverage searches.

use std::collections::{BTreeSet, VecDeque};

/// Google's cap on one query's results.
pub const CAP: usize = 60;
/// Results per page.
pub const PAGE: usize = 20;
/// Smallest side (degrees, about 10 m) a rectangle is split to: more than 60 matches at one
/// spot (a mall) cannot be told apart by area, so such a leaf keeps the 60 it saw.
pub const MIN_SIDE: f64 = 0.000_1;

/// A point (degrees).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LatLng {
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lng: f64,
}

/// A rectangle as Google's `locationRestriction.rectangle` takes it: south-west `low`,
/// north-east `high`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rect {
    /// South-west corner.
    pub low: LatLng,
    /// North-east corner.
    pub high: LatLng,
}

impl Rect {
    /// Whether `p` lies inside (edges included).
    pub fn contains(&self, p: LatLng) -> bool {
        (self.low.lat..=self.high.lat).contains(&p.lat) && (self.low.lng..=self.high.lng).contains(&p.lng)
    }

    /// Whether `other` is the same rectangle up to 1e-9 degrees (a tenth of a millimetre):
    /// a rectangle read back from a checkpoint's JSON may differ in its last bit.
    pub fn same_as(&self, other: &Rect) -> bool {
        const EPSILON: f64 = 1e-9;
        [
            self.low.lat - other.low.lat,
            self.low.lng - other.low.lng,
            self.high.lat - other.high.lat,
            self.high.lng - other.high.lng,
        ]
        .iter()
        .all(|d| d.abs() < EPSILON)
    }

    /// The four quarters: south-west, south-east, north-west, north-east.
    pub fn quarters(&self) -> [Rect; 4] {
        let mid = LatLng {
            lat: (self.low.lat + self.high.lat) / 2.0,
            lng: (self.low.lng + self.high.lng) / 2.0,
        };
        let r = |low_lat, low_lng, high_lat, high_lng| Rect {
            low: LatLng {
                lat: low_lat,
                lng: low_lng,
            },
            high: LatLng {
                lat: high_lat,
                lng: high_lng,
            },
        };
        [
            r(self.low.lat, self.low.lng, mid.lat, mid.lng),
            r(self.low.lat, mid.lng, mid.lat, self.high.lng),
            r(mid.lat, self.low.lng, self.high.lat, mid.lng),
            r(mid.lat, mid.lng, self.high.lat, self.high.lng),
        ]
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        Rect {
            low: LatLng {
                lat: self.low.lat.min(other.low.lat),
                lng: self.low.lng.min(other.low.lng),
            },
            high: LatLng {
                lat: self.high.lat.max(other.high.lat),
                lng: self.high.lng.max(other.high.lng),
            },
        }
    }

    fn small(&self) -> bool {
        self.high.lat - self.low.lat <= MIN_SIDE || self.high.lng - self.low.lng <= MIN_SIDE
    }
}

/// What one free probe of a rectangle returned: the place ids of its (up to 3) pages.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Probe {
    /// Place ids, as Google listed them.
    pub ids: Vec<String>,
}

impl Probe {
    /// Whether it filled Google's cap (there may be more).
    pub fn saturated(&self) -> bool {
        self.ids.len() >= CAP
    }
}

/// One billable fetch: a rectangle and the matches the probes found in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Fetch {
    /// Where to search (`locationRestriction.rectangle`).
    pub rect: Rect,
    /// The place ids it will return.
    pub ids: BTreeSet<String>,
}

impl Fetch {
    /// Billable requests: one per page of 20.
    pub fn requests(&self) -> usize {
        self.ids.len().div_ceil(PAGE)
    }
}

/// Which probe of the plan (an index).
pub type ProbeId = usize;

/// Splits by area (quarters) while a region is saturated and shallower than this, so that
/// several regions are carved at once; deeper regions are carved.
const QUARTER_DEPTH: u8 = 1;
/// Cut positions probed at once in one round of a carve.
const CUTS_PER_ROUND: usize = 3;
/// Rounds before a carve takes the best it has.
const MAX_ROUNDS: u8 = 5;

/// Which side a carve cuts along.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Axis {
    Lat,
    Lng,
}

/// `rect` from its start to fraction `t` along `axis`.
fn prefix(rect: Rect, axis: Axis, t: f64) -> Rect {
    let mut r = rect;
    match axis {
        Axis::Lat => r.high.lat = rect.low.lat + (rect.high.lat - rect.low.lat) * t,
        Axis::Lng => r.high.lng = rect.low.lng + (rect.high.lng - rect.low.lng) * t,
    }
    r
}

/// `rect` from fraction `t` along `axis` to its end.
fn suffix(rect: Rect, axis: Axis, t: f64) -> Rect {
    let mut r = rect;
    match axis {
        Axis::Lat => r.low.lat = rect.low.lat + (rect.high.lat - rect.low.lat) * t,
        Axis::Lng => r.low.lng = rect.low.lng + (rect.high.lng - rect.low.lng) * t,
    }
    r
}

/// A count that fills its pages well: at most 3 places short of a multiple of 20.
fn fills_pages(count: usize) -> bool {
    count > 0 && (count.is_multiple_of(PAGE) || count % PAGE >= PAGE - 3)
}

/// Cutting strips off a saturated region, each with close to a whole number of pages.
#[derive(Debug, Clone)]
struct Carve {
    rect: Rect,
    axis: Axis,
    /// The prefix up to `lo` holds `lo_ids` (under the cap).
    lo: f64,
    lo_ids: BTreeSet<String>,
    /// The prefix up to `hi` fills the cap.
    hi: f64,
    round: u8,
    waiting: usize,
    results: Vec<(f64, Probe)>,
    /// Cut off its last strip: the rest is a region of its own.
    finished: bool,
}

#[derive(Debug, Clone)]
enum Ask {
    /// The whole region, at this quartering depth.
    Region { rect: Rect, depth: u8 },
    /// A prefix of a carve's region.
    Cut { carve: usize, t: f64 },
}

/// The planner of one area.
#[derive(Debug, Clone)]
pub struct Planner {
    asks: Vec<Ask>,
    queue: VecDeque<ProbeId>,
    carves: Vec<Carve>,
    leaves: Vec<Fetch>,
    probing: usize,
    probes: usize,
    truncated: bool,
    /// Region probes asked and not yet answered.
    open_regions: usize,
    /// Their ids.
    open_region_ids: BTreeSet<ProbeId>,
    /// Carves still cutting.
    open_carves: usize,
}

impl Planner {
    /// Plans `area`; its first probe is the whole area.
    pub fn new(area: Rect) -> Self {
        let mut planner = Self {
            asks: Vec::new(),
            queue: VecDeque::new(),
            carves: Vec::new(),
            leaves: Vec::new(),
            probing: 0,
            probes: 0,
            truncated: false,
            open_regions: 0,
            open_region_ids: BTreeSet::new(),
            open_carves: 0,
        };
        planner.ask(Ask::Region { rect: area, depth: 0 });
        planner
    }

    fn ask(&mut self, ask: Ask) {
        if matches!(ask, Ask::Region { .. }) {
            self.open_regions += 1;
            self.open_region_ids.insert(self.asks.len());
        }
        self.asks.push(ask);
        self.queue.push_back(self.asks.len() - 1);
    }

    /// The next rectangle to probe, if one is waiting. Several may be probed at once.
    pub fn next_probe(&mut self) -> Option<(ProbeId, Rect)> {
        let id = self.queue.pop_front()?;
        self.probing += 1;
        let rect = match &self.asks[id] {
            Ask::Region { rect, .. } => *rect,
            Ask::Cut { carve, t } => {
                let c = &self.carves[*carve];
                prefix(c.rect, c.axis, *t)
            }
        };
        Some((id, rect))
    }

    /// Records a probe's answer.
    pub fn record(&mut self, id: ProbeId, probe: Probe) {
        self.probing -= 1;
        self.probes += 1;
        match self.asks[id].clone() {
            Ask::Region { rect, depth } => {
                self.open_regions -= 1;
                self.open_region_ids.remove(&id);
                self.region(rect, depth, probe);
            }
            Ask::Cut { carve, t } => {
                let c = &mut self.carves[carve];
                c.results.push((t, probe));
                c.waiting -= 1;
                if c.waiting == 0 {
                    self.settle_round(carve);
                }
            }
        }
    }

    /// A region's whole probe: a leaf, quarters, or a carve.
    fn region(&mut self, rect: Rect, depth: u8, probe: Probe) {
        if !probe.saturated() {
            self.leaf(rect, probe.ids);
        } else if rect.small() {
            // More than the cap at one spot: keep what the probe listed.
            self.truncated = true;
            self.leaf(rect, probe.ids);
        } else if depth < QUARTER_DEPTH {
            for quarter in rect.quarters() {
                self.ask(Ask::Region {
                    rect: quarter,
                    depth: depth + 1,
                });
            }
        } else {
            let axis = if rect.high.lat - rect.low.lat >= rect.high.lng - rect.low.lng {
                Axis::Lat
            } else {
                Axis::Lng
            };
            self.carves.push(Carve {
                rect,
                axis,
                lo: 0.0,
                lo_ids: BTreeSet::new(),
                hi: 1.0,
                round: 0,
                waiting: 0,
                results: Vec::new(),
                finished: false,
            });
            self.open_carves += 1;
            self.start_round(self.carves.len() - 1);
        }
    }

    fn leaf(&mut self, rect: Rect, ids: Vec<String>) {
        if !ids.is_empty() {
            self.leaves.push(Fetch {
                rect,
                ids: ids.into_iter().collect(),
            });
        }
    }

    /// Probes a few cut positions between `lo` and `hi` at once.
    fn start_round(&mut self, carve: usize) {
        let (lo, hi) = (self.carves[carve].lo, self.carves[carve].hi);
        self.carves[carve].round += 1;
        self.carves[carve].waiting = CUTS_PER_ROUND;
        for k in 1..=CUTS_PER_ROUND {
            let t = lo + (hi - lo) * k as f64 / (CUTS_PER_ROUND + 1) as f64;
            self.ask(Ask::Cut { carve, t });
        }
    }

    /// A round's answers: cut a strip that fills its pages, or narrow and go again.
    fn settle_round(&mut self, carve: usize) {
        let c = &mut self.carves[carve];
        let mut results = std::mem::take(&mut c.results);
        results.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (t, probe) in results {
            if probe.saturated() {
                c.hi = c.hi.min(t);
            } else if t < c.hi && t > c.lo {
                c.lo = t;
                c.lo_ids = probe.ids.into_iter().collect();
            }
        }
        let thin = match c.axis {
            Axis::Lat => (c.rect.high.lat - c.rect.low.lat) * (c.hi - c.lo),
            Axis::Lng => (c.rect.high.lng - c.rect.low.lng) * (c.hi - c.lo),
        } <= MIN_SIDE;
        let good = fills_pages(c.lo_ids.len());
        if !(good || thin || c.round >= MAX_ROUNDS) {
            self.start_round(carve);
            return;
        }
        let (rect, axis, lo, hi) = (c.rect, c.axis, c.lo, c.hi);
        let ids = std::mem::take(&mut c.lo_ids);
        // This carve is over; what is left of its region is a region of its own.
        self.open_carves -= 1;
        self.carves[carve].finished = true;
        if ids.is_empty() {
            if lo > 0.0 {
                // Nothing before `lo`: carry on from there.
                self.ask(Ask::Region {
                    rect: suffix(rect, axis, lo),
                    depth: QUARTER_DEPTH,
                });
            } else {
                // The cap is reached within a strip too thin to find a cut in (every cut
                // saturated): probe that strip on its own (it shrinks each time, down to
                // the smallest rectangle) and the rest separately.
                self.ask(Ask::Region {
                    rect: prefix(rect, axis, hi),
                    depth: QUARTER_DEPTH,
                });
                self.ask(Ask::Region {
                    rect: suffix(rect, axis, hi),
                    depth: QUARTER_DEPTH,
                });
            }
            return;
        }
        self.leaves.push(Fetch {
            rect: prefix(rect, axis, lo),
            ids,
        });
        // The rest of the region is a region of its own.
        self.ask(Ask::Region {
            rect: suffix(rect, axis, lo),
            depth: QUARTER_DEPTH,
        });
    }

    /// Whether every rectangle is probed.
    pub fn is_done(&self) -> bool {
        self.queue.is_empty() && self.probing == 0
    }

    /// Probes recorded so far (free, IDs-only).
    pub fn probes(&self) -> usize {
        self.probes
    }

    /// Whether some spot held more than 60 matches in the smallest rectangle (those past
    /// 60 cannot be reached by area).
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// Every match found by the probes.
    pub fn found(&self) -> BTreeSet<String> {
        self.leaves.iter().flat_map(|f| f.ids.iter().cloned()).collect()
    }

    /// Regions not yet resolved: region probes awaiting an answer and saturated regions
    /// still being carved. Each holds an unknown number of matches (a carve: at least the
    /// cap); estimates count them as a cap each.
    pub fn unresolved(&self) -> usize {
        self.open_regions + self.open_carves
    }

    /// Matches expected in the regions not yet resolved (see [`Self::unresolved`]), for
    /// an estimate stopped early. A carve in progress knows a prefix under the cap and a
    /// prefix over it: its region holds about `count(lo) / lo` (at least `60 / hi`) if
    /// places spread evenly along it. A region not yet probed is counted at the density of
    /// the carves (it is a quarter or the rest of a saturated region), or at the cap.
    /// Measured on synthetic metros after about 80 requests: within 2% for 1,500 places
    /// and 55% (under) for 3,000, so an estimate stopped early says it is rough.
    pub fn estimated_unresolved(&self) -> f64 {
        let area = |r: &Rect| (r.high.lat - r.low.lat) * (r.high.lng - r.low.lng);
        let (mut expected, mut carved_area) = (0.0, 0.0);
        for c in self.carves.iter().filter(|c| !c.finished) {
            let by_lo = if c.lo > 0.0 { c.lo_ids.len() as f64 / c.lo } else { 0.0 };
            // At least the cap up to `hi`.
            let by_cap = CAP as f64 / c.hi.max(f64::EPSILON);
            expected += by_lo.max(by_cap);
            carved_area += area(&c.rect);
        }
        let density = (carved_area > 0.0).then(|| expected / carved_area);
        for (id, ask) in self.asks.iter().enumerate() {
            if let Ask::Region { rect, .. } = ask
                && self.open_region_ids.contains(&id)
            {
                expected += density.map_or(CAP as f64, |d| (d * area(rect)).max(CAP as f64 / 4.0));
            }
        }
        expected
    }

    /// Matches found so far (places listed by leaves).
    pub fn found_count(&self) -> usize {
        self.leaves.iter().map(|f| f.ids.len()).sum()
    }

    /// How many fetches are planned so far; they only ever grow, in order.
    pub fn fetch_count(&self) -> usize {
        self.leaves.len()
    }

    /// The `index`-th fetch planned.
    pub fn fetch_at(&self, index: usize) -> Option<&Fetch> {
        self.leaves.get(index)
    }

    /// The fetches found so far (all of them once done): each a rectangle under the cap.
    /// A runner may start fetching a leaf as soon as it appears.
    pub fn fetch_plan(&self) -> Vec<Fetch> {
        self.leaves.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic metro: `n` places, most in a few clusters, the rest spread out.
    fn metro(n: usize, seed: u64) -> Vec<(String, LatLng)> {
        let mut state = seed;
        let mut next = move || {
            // xorshift: deterministic, good enough to scatter points.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 1_000_000) as f64 / 1_000_000.0
        };
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

    fn run(world: &[(String, LatLng)]) -> (Planner, Vec<Fetch>) {
        let mut planner = Planner::new(area());
        while !planner.is_done() {
            let batch: Vec<(ProbeId, Rect)> = std::iter::from_fn(|| planner.next_probe()).collect();
            for (id, rect) in batch {
                planner.record(id, probe(world, rect));
            }
        }
        let plan = planner.fetch_plan();
        (planner, plan)
    }

    #[test]
    fn finds_every_match_of_a_dense_metro_for_close_to_the_floor() {
        for (n, seed) in [(1_500, 7), (3_000, 11), (800, 3)] {
            let world = metro(n, seed);
            let (planner, plan) = run(&world);
            let fetched: BTreeSet<String> = plan.iter().flat_map(|f| f.ids.iter().cloned()).collect();
            assert_eq!(fetched.len(), n, "recall: every place, seed {seed}");
            assert!(!planner.truncated());
            for f in &plan {
                assert!(f.ids.len() <= CAP, "a fetch never exceeds the cap");
                let inside = world.iter().filter(|(_, p)| f.rect.contains(*p)).count();
                assert!(
                    inside <= CAP,
                    "a merged rectangle holds no unprobed place beyond the cap"
                );
            }
            let requests: usize = plan.iter().map(Fetch::requests).sum();
            let floor = n.div_ceil(PAGE);
            let ratio = requests as f64 / floor as f64;
            eprintln!(
                "tiling: {n} places, seed {seed}: {requests} requests (floor {floor}, {ratio:.3}x), {} free probes",
                planner.probes()
            );
            // Issue #11's target: $2.00 per 1,000 leads at $35 per 1,000 Enterprise requests,
            // 1.143 x the floor (a plain quadtree measured 1.45x here).
            assert!(
                ratio <= 1.143,
                "{n} places: {requests} requests against a floor of {floor} ({ratio:.2}x)"
            );
        }
    }

    #[test]
    fn a_plan_stopped_early_estimates_what_is_left() {
        for (n, seed) in [(1_500, 7), (3_000, 11)] {
            let world = metro(n, seed);
            let mut planner = Planner::new(area());
            // About what 80 requests buy: the first few rounds.
            for _ in 0..4 {
                let batch: Vec<(ProbeId, Rect)> = std::iter::from_fn(|| planner.next_probe()).collect();
                for (id, rect) in batch {
                    planner.record(id, probe(&world, rect));
                }
            }
            assert!(!planner.is_done());
            let estimate = planner.found_count() as f64 + planner.estimated_unresolved();
            let error = (estimate - n as f64).abs() / n as f64;
            eprintln!(
                "estimate after {} probes: {estimate:.0} for {n} ({error:.2})",
                planner.probes()
            );
            assert!(error < 0.6, "{estimate:.0} estimated for {n}");
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
}
