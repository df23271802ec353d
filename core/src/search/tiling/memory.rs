//! An area's plan remembered (issue #30 item 2): what a finished plan learned, kept so
//! that a later full search of the same area and query fetches at once instead of probing
//! the whole area again, and the run of such a search, which still finds every match.
//!
//! What is kept ([`Remembered`]) is ours alone: the fetches' rectangles and how many places
//! Google listed in each, and the rectangles no fetch covers (they held nothing). No place
//! id and no place's position.
//!
//! Why a run from memory keeps recall ([`Plans::from_memory`]): every region of the area is
//! asked again. A remembered fetch under Google's cap is fetched at once with the lead
//! mask; Google lists every match of a rectangle holding fewer than the cap, so an answer
//! under the cap is the whole rectangle, however the world changed since. An answer at the
//! cap may hold more: that rectangle is planned afresh (a sub-plan whose first probe is
//! that answer). A remembered fetch of exactly the cap is ambiguous from its answer alone,
//! so its two halves are probed (IDs only) first: each under the cap is complete, and
//! together they say whether the whole still fits one fetch. Every rectangle that held
//! nothing is probed too (a place may have opened there). With an `exclude`, every region
//! is probed first (the search decides from the ids a probe lists which places are new,
//! and the memory keeps no ids).

use std::collections::{BTreeSet, VecDeque};

use serde::{Deserialize, Serialize};

use super::{
    geometry::Rect,
    probe::{CAP, PAGE, Probe, ProbeId, ProbeQueue},
    state::{Planner, State},
};

/// What a finished plan of an area says: enough to cover the whole area again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Remembered {
    /// The fetches, in the plan's order: each rectangle and how many places Google listed.
    pub fetches: Vec<RememberedFetch>,
    /// Rectangles of the area no fetch covers (they held nothing, or lie outside the
    /// search's polygon): probed again, IDs only.
    pub unfetched: Vec<Rect>,
}

/// One remembered fetch.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RememberedFetch {
    /// Where it searched.
    pub rect: Rect,
    /// How many places Google listed there.
    pub places: u32,
}

impl Remembered {
    /// Whether it can be a plan of `area`: every rectangle a real one inside it, no count
    /// past the cap, and together they cover it. A row that is not (damaged, or written by
    /// a version with other rules) must not be run from: a search from it could miss a
    /// part of the area.
    pub fn fits(&self, area: Rect) -> bool {
        const SLACK: f64 = 1e-9;
        let real = |r: &Rect| {
            r.low.is_on_earth()
                && r.high.is_on_earth()
                && r.low.lat < r.high.lat
                && r.low.lng < r.high.lng
                && r.low.lat >= area.low.lat - SLACK
                && r.low.lng >= area.low.lng - SLACK
                && r.high.lat <= area.high.lat + SLACK
                && r.high.lng <= area.high.lng + SLACK
        };
        let rects: Vec<Rect> = self
            .fetches
            .iter()
            .map(|f| f.rect)
            .chain(self.unfetched.iter().copied())
            .collect();
        rects.iter().all(real) && self.fetches.iter().all(|f| f.places as usize <= CAP) && covered(area, &rects)
    }

    /// Billable pages its fetches take (the search's pages, if nothing changed).
    pub fn pages(&self) -> usize {
        self.fetches.iter().map(|f| (f.places as usize).div_ceil(PAGE)).sum()
    }

    /// Places its fetches listed.
    pub fn places(&self) -> usize {
        self.fetches.iter().map(|f| f.places as usize).sum()
    }

    /// About how many IDs-only requests a run from it makes, if nothing changed: a page
    /// for each unfetched rectangle, two for each half of a fetch of exactly the cap (see
    /// [`Plans::from_memory`]); with `probe_all` (an `exclude`) every fetch's pages too.
    pub fn probes(&self, probe_all: bool) -> usize {
        let fetches: usize = self
            .fetches
            .iter()
            .map(|f| match f.places as usize {
                CAP => 4,
                n if probe_all => n.div_ceil(PAGE).max(1),
                _ => 0,
            })
            .sum();
        fetches + self.unfetched.len()
    }
}

/// Whether a remembered fetch of `places` is fetched at once (under the cap, so that an
/// answer under the cap again is sure to be whole).
fn direct(places: usize) -> bool {
    places > 0 && places < CAP
}

impl Planner {
    /// What this plan says about its area, once it is finished (every region probed and
    /// grouped) and complete (no spot held more than the cap); `None` before that.
    pub fn remembered(&self) -> Option<Remembered> {
        if !self.is_done() || self.truncated {
            return None;
        }
        let mut unfetched = Vec::new();
        let fetched: Vec<Rect> = self.fetches.iter().map(|f| f.rect).collect();
        for node in &self.nodes {
            match &node.state {
                State::Asked | State::Saturated { .. } | State::Leaf { planned: false, .. } => return None,
                State::Leaf { .. } if !covered(node.rect, &fetched) => unfetched.push(node.rect),
                _ => {}
            }
        }
        Some(Remembered {
            fetches: self
                .fetches
                .iter()
                .map(|f| RememberedFetch {
                    rect: f.rect,
                    places: f.ids.len() as u32,
                })
                .collect(),
            unfetched: merged(unfetched),
        })
    }
}

/// Whether `by` together cover `rect`: `rect` cut along every edge of them that crosses
/// it, each piece's middle lies in one of them.
fn covered(rect: Rect, by: &[Rect]) -> bool {
    let near: Vec<Rect> = by
        .iter()
        .copied()
        .filter(|r| {
            r.low.lng < rect.high.lng
                && r.high.lng > rect.low.lng
                && r.low.lat < rect.high.lat
                && r.high.lat > rect.low.lat
        })
        .collect();
    let cuts = |low: f64, high: f64, edges: &mut dyn Iterator<Item = f64>| {
        let mut v: Vec<f64> = std::iter::once(low)
            .chain(edges.filter(|e| *e > low && *e < high))
            .chain(std::iter::once(high))
            .collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let xs = cuts(
        rect.low.lng,
        rect.high.lng,
        &mut near.iter().flat_map(|r| [r.low.lng, r.high.lng]),
    );
    let ys = cuts(
        rect.low.lat,
        rect.high.lat,
        &mut near.iter().flat_map(|r| [r.low.lat, r.high.lat]),
    );
    // Slivers thinner than a tenth of a millimetre are edges read back from JSON a bit
    // off (serde_json's float parsing may miss the last bit), not gaps.
    const SLIVER: f64 = 1e-9;
    xs.windows(2).all(|x| {
        ys.windows(2).all(|y| {
            if x[1] - x[0] < SLIVER || y[1] - y[0] < SLIVER {
                return true;
            }
            let middle = super::LatLng {
                lat: (y[0] + y[1]) / 2.0,
                lng: (x[0] + x[1]) / 2.0,
            };
            near.iter().any(|r| r.contains(middle))
        })
    })
}

/// `rects` with every two that share a whole edge joined, again and again (fewer probes).
fn merged(mut rects: Vec<Rect>) -> Vec<Rect> {
    let joinable = |a: &Rect, b: &Rect| {
        let side_by_side =
            a.low.lat == b.low.lat && a.high.lat == b.high.lat && (a.high.lng == b.low.lng || b.high.lng == a.low.lng);
        let stacked =
            a.low.lng == b.low.lng && a.high.lng == b.high.lng && (a.high.lat == b.low.lat || b.high.lat == a.low.lat);
        side_by_side || stacked
    };
    'again: loop {
        for i in 0..rects.len() {
            for j in i + 1..rects.len() {
                if joinable(&rects[i], &rects[j]) {
                    let b = rects.swap_remove(j);
                    rects[i] = rects[i].union(&b);
                    continue 'again;
                }
            }
        }
        return rects;
    }
}

/// A rectangle the run fetches: planned by a plan (its probes listed `ids`), or
/// remembered (`ids` unknown, `places` as the memory says).
#[derive(Debug, Clone, PartialEq)]
pub struct Tile {
    /// Where to search.
    pub rect: Rect,
    /// The place ids a probe listed in it; `None` for a remembered fetch made at once.
    pub ids: Option<BTreeSet<String>>,
    /// How many places it is expected to list.
    pub places: usize,
    /// The remembered region it fetches at once, if it is one.
    region: Option<usize>,
}

impl Tile {
    /// Billable requests it is expected to take: one per page of 20.
    pub fn requests(&self) -> usize {
        self.places.div_ceil(PAGE)
    }
}

/// Where a probe of the run goes.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// A plan's probe: the plan, and its own probe id.
    Plan(usize, ProbeId),
    /// A remembered region's IDs-only probe: the whole region, or one of its halves.
    Region(usize, Option<usize>),
}

/// Where a remembered region stands.
#[derive(Debug, Clone, PartialEq)]
enum Region {
    /// Waiting for its fetch (`direct`: made at once) or its probe.
    Waiting { rect: Rect, places: usize, direct: bool },
    /// A remembered fetch of exactly the cap, probed in two halves: their answers so far.
    Halves {
        rect: Rect,
        answers: [Option<Vec<String>>; 2],
    },
    /// Resolved: what it holds now, part by part.
    Done(Vec<Part>),
}

/// A resolved part of a remembered region.
#[derive(Debug, Clone, PartialEq)]
enum Part {
    /// Under the cap: Google listed `places` (0: empty, or outside the polygon).
    Listed { rect: Rect, places: usize },
    /// Planned afresh by plan `usize` (it answered at the cap).
    Planned(usize),
}

/// `rect` cut in two across its longer side.
fn halves(rect: Rect) -> [Rect; 2] {
    let (mut a, mut b) = (rect, rect);
    if rect.high.lng - rect.low.lng >= rect.high.lat - rect.low.lat {
        let middle = (rect.low.lng + rect.high.lng) / 2.0;
        a.high.lng = middle;
        b.low.lng = middle;
    } else {
        let middle = (rect.low.lat + rect.high.lat) / 2.0;
        a.high.lat = middle;
        b.low.lat = middle;
    }
    [a, b]
}

/// The plans of one full search: the area's own plan (a first search), or what the memory
/// says with sub-plans for the regions that changed (a search from memory). What the
/// runner drives: probes, their answers, and the fetches, a growing list in order.
#[derive(Debug, Clone)]
pub struct Plans {
    /// The plans, with how many of each's fetches are in `tiles` already. A first search's
    /// area is plan 0.
    pub(super) plans: Vec<(Planner, usize)>,
    regions: Vec<Region>,
    tiles: Vec<Tile>,
    targets: Vec<Target>,
    /// Regions (or halves) waiting for their probe.
    queue: VecDeque<(usize, Option<usize>)>,
    /// Regions not resolved yet.
    open: usize,
    from_memory: bool,
}

impl Plans {
    /// A first search: the area's own plan.
    pub fn fresh(area: Rect) -> Self {
        Self {
            plans: vec![(Planner::new(area), 0)],
            regions: Vec::new(),
            tiles: Vec::new(),
            targets: Vec::new(),
            queue: VecDeque::new(),
            open: 0,
            from_memory: false,
        }
    }

    /// A search from memory (see the module docs); `probe_all` probes every region first
    /// (an `exclude`). A remembered fetch of exactly the cap is probed in two halves: each
    /// holds fewer than the cap unless the world changed, so their answers are complete and
    /// say whether the whole is still under the cap (then it is fetched as one, as before).
    /// The fetches made at once go first, fewest pages first, so that the first leads come
    /// after one request.
    pub fn from_memory(memory: &Remembered, probe_all: bool) -> Self {
        let mut plans = Self {
            plans: Vec::new(),
            regions: Vec::new(),
            tiles: Vec::new(),
            targets: Vec::new(),
            queue: VecDeque::new(),
            open: 0,
            from_memory: true,
        };
        let mut direct_tiles = Vec::new();
        let regions = memory
            .fetches
            .iter()
            .map(|f| (f.rect, f.places as usize))
            .chain(memory.unfetched.iter().map(|r| (*r, 0)));
        for (rect, places) in regions {
            let index = plans.regions.len();
            plans.open += 1;
            let direct = direct(places) && !probe_all;
            if places >= CAP {
                plans.regions.push(Region::Halves {
                    rect,
                    answers: [None, None],
                });
                plans.queue.extend([(index, Some(0)), (index, Some(1))]);
                continue;
            }
            plans.regions.push(Region::Waiting { rect, places, direct });
            if direct {
                direct_tiles.push(Tile {
                    rect,
                    ids: None,
                    places,
                    region: Some(index),
                });
            } else {
                plans.queue.push_back((index, None));
            }
        }
        direct_tiles.sort_by_key(Tile::requests);
        plans.tiles = direct_tiles;
        plans
    }

    /// Whether it runs from memory.
    pub fn is_from_memory(&self) -> bool {
        self.from_memory
    }

    /// The area's first page, for a first search (see [`Planner::early_page`]): a search
    /// from memory fetches at once, and a sub-plan's region is fetched already.
    pub fn early_page(&mut self) -> Option<Rect> {
        if self.from_memory {
            return None;
        }
        self.plans.first_mut().and_then(|(plan, _)| plan.early_page())
    }

    /// Billable requests beyond the fetches: the early page, if one was wanted.
    pub fn extra_requests(&self) -> usize {
        if self.from_memory {
            return 0;
        }
        self.plans.first().map_or(0, |(plan, _)| plan.extra_requests())
    }

    /// Records a probe's answer.
    pub fn record(&mut self, id: ProbeId, probe: Probe) {
        match self.targets[id] {
            Target::Plan(plan, id) => {
                self.plans[plan].0.record(id, probe);
                self.pull(plan);
            }
            Target::Region(region, None) => {
                let Region::Waiting { rect, .. } = self.regions[region] else {
                    return;
                };
                let part = self.part(rect, probe.ids);
                self.resolve(region, vec![part]);
            }
            Target::Region(region, Some(k)) => {
                let Region::Halves { rect, answers } = &mut self.regions[region] else {
                    return;
                };
                answers[k] = Some(probe.ids);
                let (rect, [Some(a), Some(b)]) = (*rect, answers.clone()) else {
                    return;
                };
                let [ha, hb] = halves(rect);
                let parts = if a.len() < CAP && b.len() < CAP {
                    let union: BTreeSet<String> = a.iter().chain(&b).cloned().collect();
                    if union.len() <= CAP {
                        // Still one fetch's worth, as remembered.
                        vec![self.listed(rect, union)]
                    } else {
                        vec![self.part(ha, a), self.part(hb, b)]
                    }
                } else {
                    vec![self.part(ha, a), self.part(hb, b)]
                };
                self.resolve(region, parts);
            }
        }
    }

    /// What Google's answer `ids` for `rect` makes of it: a tile to fetch (under the cap,
    /// not empty), nothing (empty), or a plan afresh (at the cap: it may hold more).
    fn part(&mut self, rect: Rect, ids: Vec<String>) -> Part {
        let probe = Probe { ids };
        if probe.saturated() {
            return Part::Planned(self.replan(rect, probe));
        }
        self.listed(rect, probe.ids.into_iter().collect())
    }

    /// `rect` holds exactly `ids`: a tile to fetch, unless there are none.
    fn listed(&mut self, rect: Rect, ids: BTreeSet<String>) -> Part {
        let places = ids.len();
        if places > 0 {
            self.tiles.push(Tile {
                rect,
                places,
                ids: Some(ids),
                region: None,
            });
        }
        Part::Listed { rect, places }
    }

    fn resolve(&mut self, region: usize, parts: Vec<Part>) {
        if !matches!(self.regions[region], Region::Done(_)) {
            self.open -= 1;
        }
        self.regions[region] = Region::Done(parts);
    }

    /// Records what fetching tile `index` listed (`ids`, before any filter). Answers
    /// whether the tile is done: a remembered fetch made at once that comes back at the
    /// cap may hold more, so its region is planned afresh, with this answer as its first
    /// probe (its places went out; the sub-plan's fetches send the rest). So is a planned
    /// fetch whose probe listed fewer than the cap: the listing grew after its probe (an
    /// estimate's probe answers are minutes old by the time its search fetches).
    pub fn fetched(&mut self, index: usize, ids: Vec<String>) -> bool {
        let Some(&Tile {
            rect: tile_rect,
            places: planned,
            region,
            ..
        }) = self.tiles.get(index)
        else {
            return true;
        };
        let probe = Probe { ids };
        let Some(region) = region else {
            if probe.saturated() && planned < CAP {
                self.replan(tile_rect, probe);
                return false;
            }
            return true;
        };
        let Region::Waiting { rect, .. } = self.regions[region] else {
            return true;
        };
        if probe.saturated() {
            let plan = self.replan(rect, probe);
            self.resolve(region, vec![Part::Planned(plan)]);
            return false;
        }
        let places = probe.ids.len();
        self.resolve(region, vec![Part::Listed { rect, places }]);
        true
    }

    /// Tile `index` is not fetched (done by an earlier run, or outside the polygon): its
    /// region, if remembered, is taken to hold what the memory says.
    pub fn passed_over(&mut self, index: usize) {
        let Some(region) = self.tiles.get(index).and_then(|t| t.region) else {
            return;
        };
        if let Region::Waiting { rect, places, .. } = self.regions[region] {
            self.resolve(region, vec![Part::Listed { rect, places }]);
        }
    }

    /// Plans `rect` afresh, its first probe answered by `probe`; answers the plan's index.
    fn replan(&mut self, rect: Rect, probe: Probe) -> usize {
        let mut plan = Planner::new(rect);
        if let Some((id, _)) = plan.next_probe() {
            plan.record(id, probe);
        }
        self.plans.push((plan, 0));
        let index = self.plans.len() - 1;
        self.pull(index);
        index
    }

    /// Moves plan `index`'s new fetches to the tiles.
    fn pull(&mut self, index: usize) {
        let (plan, pulled) = &mut self.plans[index];
        while let Some(fetch) = plan.fetch_at(*pulled) {
            self.tiles.push(Tile {
                rect: fetch.rect,
                places: fetch.ids.len(),
                ids: Some(fetch.ids.clone()),
                region: None,
            });
            *pulled += 1;
        }
    }

    /// Whether every region is resolved and every plan probed.
    pub fn is_done(&self) -> bool {
        self.open == 0 && self.queue.is_empty() && self.plans.iter().all(|(p, _)| p.is_done())
    }

    /// Whether some spot held more than the cap in the smallest rectangle.
    pub fn truncated(&self) -> bool {
        self.plans.iter().any(|(p, _)| p.truncated())
    }

    /// Places in the fetches so far (probed, or as remembered).
    pub fn found_count(&self) -> usize {
        self.tiles.iter().map(|t| t.places).sum()
    }

    /// Fetches so far; they only ever grow, in order.
    pub fn fetch_count(&self) -> usize {
        self.tiles.len()
    }

    /// The `index`-th fetch.
    pub fn fetch_at(&self, index: usize) -> Option<&Tile> {
        self.tiles.get(index)
    }

    /// Regions not yet resolved, each up to about a cap (see [`Planner::unresolved`]): the
    /// plans', and remembered regions waiting for their probes that held places.
    pub fn unresolved(&self) -> usize {
        let waiting = self
            .regions
            .iter()
            .filter(|r| match r {
                Region::Waiting { places, direct, .. } => *places > 0 && !direct,
                Region::Halves { .. } => true,
                Region::Done(_) => false,
            })
            .count();
        self.plans.iter().map(|(p, _)| p.unresolved()).sum::<usize>() + waiting
    }

    /// What this run says about its area, to remember, once every region is resolved and
    /// no spot held more than the cap: a first search's plan, or the memory as this run
    /// found it (each region's places now, the regions planned afresh as their plans say).
    pub fn remembered(&self) -> Option<Remembered> {
        if !self.is_done() || self.truncated() {
            return None;
        }
        if !self.from_memory {
            return self.plans.first()?.0.remembered();
        }
        let mut out = Remembered {
            fetches: Vec::new(),
            unfetched: Vec::new(),
        };
        for region in &self.regions {
            let Region::Done(parts) = region else {
                return None;
            };
            for part in parts {
                match part {
                    Part::Listed { rect, places: 0 } => out.unfetched.push(*rect),
                    Part::Listed { rect, places } => out.fetches.push(RememberedFetch {
                        rect: *rect,
                        places: *places as u32,
                    }),
                    Part::Planned(plan) => {
                        let part = self.plans[*plan].0.remembered()?;
                        out.fetches.extend(part.fetches);
                        out.unfetched.extend(part.unfetched);
                    }
                }
            }
        }
        Some(out)
    }
}

impl ProbeQueue for Plans {
    /// Remembered regions first, then the plans' probes, first plan first.
    fn next_probe(&mut self) -> Option<(ProbeId, Rect)> {
        if let Some((region, half)) = self.queue.pop_front() {
            let rect = match (&self.regions[region], half) {
                (Region::Waiting { rect, .. }, None) => *rect,
                (Region::Halves { rect, .. }, Some(k)) => halves(*rect)[k],
                _ => return self.next_probe(),
            };
            self.targets.push(Target::Region(region, half));
            return Some((self.targets.len() - 1, rect));
        }
        for (index, (plan, _)) in self.plans.iter_mut().enumerate() {
            if let Some((id, rect)) = plan.next_probe() {
                self.targets.push(Target::Plan(index, id));
                return Some((self.targets.len() - 1, rect));
            }
        }
        None
    }

    fn may_skip(&self, id: ProbeId) -> bool {
        match self.targets[id] {
            Target::Plan(plan, id) => self.plans[plan].0.may_skip(id),
            Target::Region(..) => true,
        }
    }

    fn record_outside(&mut self, id: ProbeId) {
        match self.targets[id] {
            Target::Plan(plan, id) => {
                self.plans[plan].0.record_outside(id);
                self.pull(plan);
            }
            Target::Region(..) => self.record(id, Probe::default()),
        }
    }
}
