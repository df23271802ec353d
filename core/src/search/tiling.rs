//! Full coverage of an area: the pure planner (no I/O) that decides which rectangles to
//! probe and which to fetch, so that every match is found for close to the least Google
//! bills.
//!
//! Google's Text Search answers at most 60 places a query (3 pages of 20). The planner
//! probes rectangles with the free IDs-only field mask; a rectangle whose probe fills the
//! cap may hold more, so it is split and its parts probed. A rectangle under the
//! cap is a leaf: the probe listed every match in it. Leads are then fetched with the
//! billable lead mask, and the planner groups neighbouring leaves into one rectangle where
//! their matches fit in the cap, because each fetch costs `ceil(n / 20)` requests and many
//! small leaves round up badly. The floor is `ceil(N / 20)` for N matches.
//!
//! How: a saturated region is split into a grid of near-square cells sized so each is
//! expected to hold about `CELL_TARGET` places (one page to probe). Its expected count comes
//! from its 60 listed places used as a sample: Google ranks places the same way whatever the
//! rectangle, so the cells under the cap say how many places each sampled one stands for,
//! and a saturated cell holding `k` of the sample is sized for `k` times that. Once a region
//! is fully probed, its leaves are grouped into fetches by a dynamic programme over
//! rectangles cut straight across along leaf edges (fewest pages, then fewest fetches);
//! regions with more than `FLAT_LIMIT` distinct leaf edges group their parts separately.
//! Split sizes are decided only when every sibling has answered, so the plan does not
//! depend on the order answers are recorded in (only the order of the ids and fetches
//! does).
//!
//! Repairs: the grouping may also plan a *chain*, slabs cut straight across a rectangle
//! (two or more, each under the cap), reckoned at the pages of their total plus a small
//! price each. The chain is then settled edge by edge: each edge is moved by a strip,
//! whose depth is found by probing strips (interpolating on their counts, a page each),
//! so that the slab before it fills its pages; a slab that shed a strip is probed again
//! before it is fetched, so every fetch is probed or a union of probed rectangles.
//! Measured on the synthetic worlds of the tests: 1.03-1.125x the floor (the product's
//! ceiling is 1.143x: $2.00 per 1,000 leads), for 0.11-0.15 probe requests a place (the
//! earlier strip-carving planner: 1.05-1.08x, but 0.45-0.85 probe requests a place, which
//! at a key's 10 requests a second made it three times slower).
//!
//! The runner drives it: `next_probe` → probe (concurrently, under the key's rate gate) →
//! `record`; `fetch_plan` grows as regions are grouped. Fetching starts once a region is
//! fully probed, so the first leads of a large metro come later than with strip carving
//! (25 s against 10 s for 1,500 places at 10 requests a second) and the last much sooner.
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

fn probe_saturated(ids: &BTreeSet<String>) -> bool {
    ids.len() >= CAP
}

/// Which probe of the plan (an index).
pub type ProbeId = usize;

/// Places a grid cell is sized for: a saturated region is split into about
/// `expected / CELL_TARGET` cells, so that most cells answer in two pages and neighbours
/// can be grouped into fetches that fill their pages. Measured on the tests' worlds: 16
/// gives 0.14-0.19 probe requests a place, 28 gives 0.11-0.15 for the same 1.03-1.125x the
/// floor; past 32 fetches round up worse (up to 1.175x).
const CELL_TARGET: f64 = 28.0;
/// Most cells one saturated region is split into at once.
const MAX_CELLS: usize = 36;
/// What a saturated region is expected to hold when nothing else is known.
const UNKNOWN_SATURATED: f64 = 4.0 * CAP as f64;
/// How much more a region is expected to hold when all its cells were saturated too.
const ALL_SATURATED_GROWTH: f64 = 2.0;
/// Weight (in sampled places) of a region's prior when its cells' answers estimate it.
const PRIOR_WEIGHT: f64 = 2.0;

/// What a probed (or waiting) rectangle is.
#[derive(Debug, Clone)]
enum State {
    /// Asked, not answered.
    Asked,
    /// A repair's probe, answered (see [`Repair`]).
    Extra,
    /// Under the cap (or at the smallest size): every match it holds, listed. `planned`
    /// once its places are in a fetch.
    Leaf { ids: BTreeSet<String>, planned: bool },
    /// Saturated: the (up to) 60 places it listed; split once its siblings answered.
    Saturated { sample: BTreeSet<String> },
    /// Saturated and split into a grid of `nx` by `ny` cells (row by row, south first).
    Split {
        sample: BTreeSet<String>,
        nx: usize,
        ny: usize,
        children: Vec<usize>,
        /// Cells not yet answered.
        waiting: usize,
        /// Cells not yet complete (answered, and if saturated, every cell of theirs too).
        open: usize,
    },
}

#[derive(Debug, Clone)]
struct Node {
    rect: Rect,
    /// Matches expected in it (its share of its parent's estimate).
    expected: f64,
    parent: Option<usize>,
    state: State,
    /// Complete, small enough to group as a whole, and not grouped yet: waits to be
    /// grouped together with its neighbours.
    pending: bool,
    /// The repair this probes a rectangle for, if any (see [`Repair`]).
    repair: Option<usize>,
}

/// Two neighbouring groups cut straight apart whose pages could be shared (together they
/// need fewer pages than apart): the one that sheds gives up a strip along their shared
/// edge, holding just enough places that both fill their pages. The strip's depth is found
/// by probing strips (interpolating on their counts); the strip then joins the other group
/// (a union of probed rectangles) and the rest of the shedding group is probed as it is.
/// If no depth is found in a few probes, the two are fetched as they were.
#[derive(Debug, Clone)]
struct Repair {
    shed: Rect,
    shed_ids: BTreeSet<String>,
    take: Rect,
    take_ids: BTreeSet<String>,
    /// Whether the strip's depth runs along latitude (the two lie one north of the other),
    /// and whether the strip lies at `shed`'s high end.
    north: bool,
    high: bool,
    /// A depth (fraction of `shed`) known to hold too few places, and their count.
    lo: (f64, usize),
    /// A depth known to hold too many, and their count.
    hi: (f64, usize),
    /// The depth being probed.
    at: f64,
    rounds: u8,
    /// Whether the chain's head sheds (else the next slab does).
    head_shed: bool,
    /// Places in the chain's slabs past these two.
    beyond: usize,
}

/// Slabs cut straight across a rectangle, fetched one after the other: each edge between
/// two is moved by a strip (see [`Repair`]) so that the slab before it fills its pages.
#[derive(Debug, Clone)]
struct Chain {
    /// The slabs after the head.
    slabs: VecDeque<(Rect, BTreeSet<String>)>,
    north: bool,
    /// The slab whose far edge is being settled, and its places.
    head: (Rect, BTreeSet<String>),
    /// Whether the head shed a strip (so is not a union of probed rectangles: it is
    /// probed before it is fetched), and the same of the next slab.
    dirty: bool,
    next_dirty: bool,
    search: Option<Repair>,
    verifying: bool,
    done: bool,
}

/// Strip probes a repair makes before giving up.
const REPAIR_ROUNDS: u8 = 4;

impl Repair {
    /// The strip of `shed` `d` deep, and the rest of `shed`.
    fn strip(&self, d: f64) -> (Rect, Rect) {
        let (mut strip, mut rest) = (self.shed, self.shed);
        let (r, n) = (self.shed, self.north);
        let (low, high) = if n {
            (r.low.lat, r.high.lat)
        } else {
            (r.low.lng, r.high.lng)
        };
        let cut = if self.high {
            high - (high - low) * d
        } else {
            low + (high - low) * d
        };
        let (strip_side, rest_side) = if self.high {
            (&mut strip.low, &mut rest.high)
        } else {
            (&mut strip.high, &mut rest.low)
        };
        if n {
            strip_side.lat = cut;
            rest_side.lat = cut;
        } else {
            strip_side.lng = cut;
            rest_side.lng = cut;
        }
        (strip, rest)
    }

    /// Whether a strip of `s` places makes both groups fill their pages (as well as the
    /// two would fetched together).
    fn fits(&self, s: usize) -> bool {
        let (a, b) = (self.shed_ids.len(), self.take_ids.len());
        if s > a || b + s > CAP {
            return false;
        }
        let (head, next) = if self.head_shed { (a - s, b + s) } else { (b + s, a - s) };
        head.div_ceil(PAGE) + (next + self.beyond).div_ceil(PAGE) <= (a + b + self.beyond).div_ceil(PAGE)
    }

    /// The first run of strip counts that fit, strictly between the known ones.
    fn window(&self) -> Option<(usize, usize)> {
        let first = (self.lo.1 + 1..self.hi.1).find(|&s| self.fits(s))?;
        let last = (first..self.hi.1).take_while(|&s| self.fits(s)).last()?;
        Some((first, last))
    }
}

/// The rectangle of cells `x0..x1` by `y0..y1` of `rect`'s `nx` by `ny` grid (the same
/// arithmetic for a cell and for a group of cells, so that they share their edges exactly).
fn cells_rect(rect: Rect, nx: usize, ny: usize, (x0, x1): (usize, usize), (y0, y1): (usize, usize)) -> Rect {
    let edge = |low: f64, high: f64, i: usize, n: usize| {
        if i == 0 {
            low
        } else if i == n {
            high
        } else {
            low + (high - low) * i as f64 / n as f64
        }
    };
    Rect {
        low: LatLng {
            lat: edge(rect.low.lat, rect.high.lat, y0, ny),
            lng: edge(rect.low.lng, rect.high.lng, x0, nx),
        },
        high: LatLng {
            lat: edge(rect.low.lat, rect.high.lat, y1, ny),
            lng: edge(rect.low.lng, rect.high.lng, x1, nx),
        },
    }
}

/// A grid of about `cells` near-square cells over `rect` (at least two cells).
fn grid(rect: Rect, cells: usize) -> (usize, usize) {
    let (w, h) = (rect.high.lng - rect.low.lng, rect.high.lat - rect.low.lat);
    let cells = cells.clamp(2, MAX_CELLS);
    let nx = ((cells as f64 * w / h).sqrt().round() as usize).clamp(1, cells);
    let ny = cells.div_ceil(nx).max(1);
    let (mut nx, mut ny) = (nx, ny);
    while nx * ny > MAX_CELLS {
        if nx >= ny {
            nx -= 1;
        } else {
            ny -= 1;
        }
    }
    if nx * ny < 2 {
        if w >= h {
            nx = 2;
        } else {
            ny = 2;
        }
    }
    (nx, ny)
}

/// A page in the grouping's units (so that a repair can cost a fraction of one).
const PAGE_UNITS: usize = 16;
/// What a repair is reckoned to cost (probes, and the chance it fails), in those units.
const REPAIR_UNITS: usize = 1;

/// Most distinct leaf edges (each way) of a region grouped as a whole; a larger region
/// groups its parts and its own cells separately.
const FLAT_LIMIT: usize = 40;

/// A complete region on the grid of its leaves' edges, for grouping its leaves.
struct Flat {
    nx: usize,
    ny: usize,
    /// Prefix sums of counts: `sum[y][x]` over cells below `y` and left of `x`.
    sum: Vec<usize>,
    /// The same of cells grouped on their own.
    shut: Vec<usize>,
    /// Prefix sums (along latitude) of whether a cut at longitude line `x` would split a
    /// leaf in row `y`: `vbad[x * (ny + 1) + y]`.
    vbad: Vec<usize>,
    /// The same for a cut at latitude line `y` in column `x`: `hbad[y * (nx + 1) + x]`.
    hbad: Vec<usize>,
    memo: std::cell::RefCell<std::collections::HashMap<Span, Choice>>,
    /// The slabs' far edges of spans best fetched as a chain (see [`Chain`]).
    chains: std::cell::RefCell<std::collections::HashMap<(Span, bool), Vec<usize>>>,
}

/// A span's best (pages, fetches), and how: whole (`None`) or cut (`Some((along
/// longitude, at))`).
type Choice = ((usize, usize), Option<(bool, usize)>);

/// Cells `x0..x1` by `y0..y1`.
type Span = ((usize, usize), (usize, usize));

/// A group's leaves, rectangle and places.
type Part = (Vec<usize>, Rect, BTreeSet<String>);

/// A group of leaves to fetch as one rectangle, or two neighbours (south or west first;
/// `true` if they lie one north of the other) that may share their pages once repaired.
enum Group {
    One(Span),
    Two(Span, Span, bool),
    /// Slabs cut across, south or west first (`true` if stacked north).
    Chain(Vec<Span>, bool),
}

/// Most places a chain of slabs is planned for.
const CHAIN_MAX: usize = 240;

impl Flat {
    /// `owner[y * nx + x]` is which leaf holds a fine cell, `count` a leaf's count at its
    /// south-west fine cell, `shut` whether a cell is grouped on its own (never with others).
    fn new(nx: usize, ny: usize, owner: &[usize], count: &[usize], shut: &[bool]) -> Self {
        let prefix = |value: &dyn Fn(usize) -> usize| {
            let mut sum = vec![0; (nx + 1) * (ny + 1)];
            for y in 0..ny {
                for x in 0..nx {
                    sum[(y + 1) * (nx + 1) + x + 1] =
                        value(y * nx + x) + sum[y * (nx + 1) + x + 1] + sum[(y + 1) * (nx + 1) + x]
                            - sum[y * (nx + 1) + x];
                }
            }
            sum
        };
        let sum = prefix(&|i| count[i]);
        let shut = prefix(&|i| usize::from(shut[i]));
        let mut vbad = vec![0; (nx + 1) * (ny + 1)];
        for x in 1..nx {
            for y in 0..ny {
                let bad = usize::from(owner[y * nx + x - 1] == owner[y * nx + x]);
                vbad[x * (ny + 1) + y + 1] = vbad[x * (ny + 1) + y] + bad;
            }
        }
        let mut hbad = vec![0; (nx + 1) * (ny + 1)];
        for y in 1..ny {
            for x in 0..nx {
                let bad = usize::from(owner[(y - 1) * nx + x] == owner[y * nx + x]);
                hbad[y * (nx + 1) + x + 1] = hbad[y * (nx + 1) + x] + bad;
            }
        }
        Self {
            nx,
            ny,
            sum,
            shut,
            vbad,
            hbad,
            memo: Default::default(),
            chains: Default::default(),
        }
    }

    /// Whether `span` holds a cell grouped on its own (a saturated cell of a large region).
    fn blocked(&self, ((x0, x1), (y0, y1)): Span) -> bool {
        let w = self.nx + 1;
        self.shut[y1 * w + x1] + self.shut[y0 * w + x0] != self.shut[y0 * w + x1] + self.shut[y1 * w + x0]
    }

    fn count(&self, ((x0, x1), (y0, y1)): Span) -> usize {
        let w = self.nx + 1;
        self.sum[y1 * w + x1] + self.sum[y0 * w + x0] - self.sum[y0 * w + x1] - self.sum[y1 * w + x0]
    }

    /// The fewest (pages, fetches) for `span` (a union of whole leaves).
    fn best(&self, span: Span) -> (usize, usize) {
        if let Some((cost, _)) = self.memo.borrow().get(&span) {
            return *cost;
        }
        let ((x0, x1), (y0, y1)) = span;
        let n = self.count(span);
        let blocked = self.blocked(span);
        let mut choice = match n {
            0 => ((0, 0), None),
            n if n <= CAP && !blocked => ((n.div_ceil(PAGE) * PAGE_UNITS, 1), None),
            _ => ((usize::MAX, usize::MAX), None),
        };
        // Two whole groups cut apart whose pages could be shared: as many pages as
        // together, and the repair's price.
        let pair = |a: Span, b: Span| {
            let (a, b) = ((self.count(a), self.blocked(a)), (self.count(b), self.blocked(b)));
            let whole = |(n, blocked): (usize, bool)| n > 0 && n <= CAP && !blocked;
            (whole(a) && whole(b) && a.0.div_ceil(PAGE) + b.0.div_ceil(PAGE) > (a.0 + b.0).div_ceil(PAGE))
                .then(|| ((a.0 + b.0).div_ceil(PAGE) * PAGE_UNITS + REPAIR_UNITS, 2))
        };
        if choice.0.0 == usize::MAX {
            for x in x0 + 1..x1 {
                if self.vbad[x * (self.ny + 1) + y1] != self.vbad[x * (self.ny + 1) + y0] {
                    continue;
                }
                let (a, b) = (self.best(((x0, x), (y0, y1))), self.best(((x, x1), (y0, y1))));
                let mut cost = (a.0.saturating_add(b.0), a.1.saturating_add(b.1));
                if let Some(paired) = pair(((x0, x), (y0, y1)), ((x, x1), (y0, y1))) {
                    cost = cost.min(paired);
                }
                if cost < choice.0 {
                    choice = (cost, Some((true, x)));
                }
            }
            for y in y0 + 1..y1 {
                if self.hbad[y * (self.nx + 1) + x1] != self.hbad[y * (self.nx + 1) + x0] {
                    continue;
                }
                let (a, b) = (self.best(((x0, x1), (y0, y))), self.best(((x0, x1), (y, y1))));
                let mut cost = (a.0.saturating_add(b.0), a.1.saturating_add(b.1));
                if let Some(paired) = pair(((x0, x1), (y0, y)), ((x0, x1), (y, y1))) {
                    cost = cost.min(paired);
                }
                if cost < choice.0 {
                    choice = (cost, Some((false, y)));
                }
            }
            if n <= CHAIN_MAX && !blocked {
                for along_x in [true, false] {
                    if let Some(cuts) = self.chain(span, along_x) {
                        let cost = (
                            n.div_ceil(PAGE) * PAGE_UNITS + (cuts.len() - 1) * REPAIR_UNITS,
                            cuts.len(),
                        );
                        if cost < choice.0 {
                            choice = (cost, Some((along_x, usize::MAX)));
                            self.chains.borrow_mut().insert((span, along_x), cuts);
                        }
                    }
                }
            }
        }
        self.memo.borrow_mut().insert(span, choice);
        choice.0
    }

    /// The fewest slabs cut straight across `span` (along longitude if `along_x`), each
    /// whole (under the cap): their far edges, if two or more.
    fn chain(&self, span: Span, along_x: bool) -> Option<Vec<usize>> {
        let ((x0, x1), (y0, y1)) = span;
        let (start, end) = if along_x { (x0, x1) } else { (y0, y1) };
        let valid = |at: usize| {
            at == start
                || at == end
                || if along_x {
                    self.vbad[at * (self.ny + 1) + y1] == self.vbad[at * (self.ny + 1) + y0]
                } else {
                    self.hbad[at * (self.nx + 1) + x1] == self.hbad[at * (self.nx + 1) + x0]
                }
        };
        let slab = |a: usize, b: usize| {
            if along_x {
                ((a, b), (y0, y1))
            } else {
                ((x0, x1), (a, b))
            }
        };
        let mut best: Vec<Option<(usize, usize)>> = vec![None; end - start + 1];
        best[0] = Some((0, start));
        for j in start + 1..=end {
            if !valid(j) {
                continue;
            }
            for i in (start..j).rev() {
                if self.count(slab(i, j)) > CAP {
                    break;
                }
                if let Some((k, _)) = best[i - start].filter(|_| valid(i))
                    && best[j - start].is_none_or(|(b, _)| k + 1 < b)
                {
                    best[j - start] = Some((k + 1, i));
                }
            }
        }
        let (k, _) = best[end - start]?;
        if k < 2 {
            return None;
        }
        let mut cuts = vec![end];
        let mut at = end;
        while at > start {
            at = best[at - start]?.1;
            if at > start {
                cuts.push(at);
            }
        }
        cuts.reverse();
        Some(cuts)
    }

    /// The groups of the best plan of `span`, south-west first; two groups cut straight
    /// apart whose pages could be shared (see [`Repair`]) as a pair.
    fn groups(&self, span: Span, out: &mut Vec<Group>) {
        let cost = self.best(span);
        let how = self.memo.borrow().get(&span).and_then(|c| c.1);
        let ((x0, x1), (y0, y1)) = span;
        if let Some((along_x, usize::MAX)) = how {
            let cuts = self.chains.borrow().get(&(span, along_x)).cloned().unwrap_or_default();
            let mut slabs = Vec::new();
            let mut from = if along_x { x0 } else { y0 };
            for to in cuts {
                slabs.push(if along_x {
                    ((from, to), (y0, y1))
                } else {
                    ((x0, x1), (from, to))
                });
                from = to;
            }
            return out.push(Group::Chain(slabs, !along_x));
        }
        let halves = match how {
            Some((true, x)) => (((x0, x), (y0, y1)), ((x, x1), (y0, y1))),
            Some((false, y)) => (((x0, x1), (y0, y)), ((x0, x1), (y, y1))),
            None if cost.1 == 1 => return out.push(Group::One(span)),
            None => return,
        };
        let (a, b) = (self.count(halves.0), self.count(halves.1));
        let whole = |s: Span| {
            let n = self.count(s);
            n > 0 && n <= CAP && !self.blocked(s)
        };
        if whole(halves.0) && whole(halves.1) && a.div_ceil(PAGE) + b.div_ceil(PAGE) > (a + b).div_ceil(PAGE) {
            out.push(Group::Two(halves.0, halves.1, how.is_some_and(|h| !h.0)));
            return;
        }
        self.groups(halves.0, out);
        self.groups(halves.1, out);
    }
}

/// The planner of one area.
#[derive(Debug, Clone)]
pub struct Planner {
    /// Every rectangle asked, by probe id.
    nodes: Vec<Node>,
    queue: VecDeque<ProbeId>,
    fetches: Vec<Fetch>,
    chains: Vec<Chain>,
    probing: usize,
    probes: usize,
    truncated: bool,
}

impl Planner {
    /// Plans `area`; its first probe is the whole area.
    pub fn new(area: Rect) -> Self {
        let mut planner = Self {
            nodes: Vec::new(),
            queue: VecDeque::new(),
            fetches: Vec::new(),
            chains: Vec::new(),
            probing: 0,
            probes: 0,
            truncated: false,
        };
        planner.ask(area, UNKNOWN_SATURATED, None);
        planner
    }

    fn ask(&mut self, rect: Rect, expected: f64, parent: Option<usize>) -> usize {
        self.nodes.push(Node {
            rect,
            expected,
            parent,
            state: State::Asked,
            pending: false,
            repair: None,
        });
        self.queue.push_back(self.nodes.len() - 1);
        self.nodes.len() - 1
    }

    /// The next rectangle to probe, if one is waiting. Several may be probed at once.
    pub fn next_probe(&mut self) -> Option<(ProbeId, Rect)> {
        let id = self.queue.pop_front()?;
        self.probing += 1;
        Some((id, self.nodes[id].rect))
    }

    /// Records a probe's answer.
    pub fn record(&mut self, id: ProbeId, probe: Probe) {
        if !matches!(self.nodes[id].state, State::Asked) {
            return;
        }
        self.probing -= 1;
        self.probes += 1;
        if let Some(repair) = self.nodes[id].repair {
            self.nodes[id].state = State::Extra;
            self.repaired(repair, probe);
            return;
        }
        let saturated = probe.saturated();
        let ids: BTreeSet<String> = probe.ids.into_iter().collect();
        let node = &mut self.nodes[id];
        node.state = if !saturated {
            State::Leaf { ids, planned: false }
        } else if node.rect.small() {
            // More than the cap at one spot: keep what the probe listed.
            self.truncated = true;
            State::Leaf { ids, planned: false }
        } else {
            State::Saturated { sample: ids }
        };
        let leaf = matches!(node.state, State::Leaf { .. });
        match node.parent {
            Some(parent) => {
                if let State::Split { waiting, .. } = &mut self.nodes[parent].state {
                    *waiting -= 1;
                    if *waiting == 0 {
                        self.settle(parent);
                    }
                }
                if leaf {
                    self.completed(id);
                }
            }
            None => match &self.nodes[id].state {
                State::Leaf { .. } => self.group(id),
                _ => {
                    let expected = self.nodes[id].expected;
                    self.split(id, expected);
                }
            },
        }
    }

    /// Splits saturated `id`, expected to hold `expected`, into a grid and asks its cells.
    fn split(&mut self, id: usize, expected: f64) {
        let State::Saturated { sample } = std::mem::replace(&mut self.nodes[id].state, State::Asked) else {
            return;
        };
        let rect = self.nodes[id].rect;
        let expected = expected.max(CAP as f64);
        let (nx, ny) = grid(rect, (expected / CELL_TARGET).ceil() as usize);
        let share = expected / (nx * ny) as f64;
        let mut children = Vec::with_capacity(nx * ny);
        for y in 0..ny {
            for x in 0..nx {
                children.push(self.ask(cells_rect(rect, nx, ny, (x, x + 1), (y, y + 1)), share, Some(id)));
            }
        }
        self.nodes[id].expected = expected;
        self.nodes[id].state = State::Split {
            sample,
            nx,
            ny,
            waiting: children.len(),
            open: children.len(),
            children,
        };
    }

    /// Every cell of `id` answered: split its saturated cells, sized by what the answers
    /// say about how many they hold (decided only once all siblings answered, so the plan
    /// does not depend on the order answers are recorded in).
    fn settle(&mut self, id: usize) {
        let State::Split { sample, children, .. } = self.nodes[id].state.clone() else {
            return;
        };
        // The region's 60 are a sample of it (Google ranks places the same way whatever
        // the rectangle). The cells under the cap hold `listed` places, `seen` of them in
        // the sample: each sampled place stands for about `listed / seen` places, so a
        // saturated cell holding `k` sampled places holds about `k * listed / seen`.
        let (mut listed, mut seen, mut saturated) = (0.0, 0.0, 0usize);
        let mut cells = Vec::with_capacity(children.len());
        for &child in &children {
            match &self.nodes[child].state {
                State::Leaf { ids, .. } => {
                    listed += ids.len() as f64;
                    seen += ids.intersection(&sample).count() as f64;
                    cells.push(Some(ids.len()));
                }
                _ => {
                    saturated += 1;
                    cells.push(None);
                }
            }
        }
        let prior = self.nodes[id].expected / sample.len().max(1) as f64;
        let per_sample = if saturated == children.len() {
            // Nothing under the cap: the region holds more than expected.
            prior.max((saturated * CAP) as f64 / sample.len().max(1) as f64) * ALL_SATURATED_GROWTH
        } else {
            (listed + PRIOR_WEIGHT * prior) / (seen + PRIOR_WEIGHT)
        };
        for &child in &children {
            if let State::Saturated { sample: mine } = &self.nodes[child].state {
                let k = mine.intersection(&sample).count() as f64;
                let expected = (k * per_sample).max(CAP as f64 * 1.5);
                self.split(child, expected);
            }
        }
    }

    /// `id`'s rectangle is fully probed: group it with its neighbours once its region is,
    /// if the region is small enough to group as a whole; else group its parts now.
    fn completed(&mut self, id: usize) {
        let Some(parent) = self.nodes[id].parent else {
            self.group(id);
            return;
        };
        if let State::Split { open, .. } = &mut self.nodes[parent].state {
            *open -= 1;
            if *open > 0 {
                return;
            }
        }
        // The parent is complete.
        let (xs, ys) = self.edges(parent);
        if xs.len().max(ys.len()) <= FLAT_LIMIT + 1 {
            self.nodes[parent].pending = true;
            self.completed(parent);
        } else {
            self.group(parent);
        }
    }

    /// Plans the fetches of complete region `id`: as a whole if it is small enough (see
    /// [`FLAT_LIMIT`]), else its pending parts each as a whole and its leaf cells together.
    fn group(&mut self, id: usize) {
        match self.nodes[id].state.clone() {
            State::Leaf { ids, planned: false } => {
                self.plan_leaves(&[id], vec![(self.nodes[id].rect, ids)]);
            }
            State::Split { nx, ny, children, .. } => {
                let (xs, ys) = self.edges(id);
                if xs.len().max(ys.len()) <= FLAT_LIMIT + 1 {
                    self.group_flat(id, &xs, &ys);
                    return;
                }
                for &child in &children {
                    if self.nodes[child].pending {
                        self.group(child);
                    }
                }
                let shut: Vec<bool> = children
                    .iter()
                    .map(|&c| !matches!(self.nodes[c].state, State::Leaf { .. }))
                    .collect();
                let count: Vec<usize> = children.iter().map(|&c| self.leaf_ids(c).len()).collect();
                let owner: Vec<usize> = (0..children.len()).collect();
                let flat = Flat::new(nx, ny, &owner, &count, &shut);
                let mut groups = Vec::new();
                flat.groups(((0, nx), (0, ny)), &mut groups);
                let rect = self.nodes[id].rect;
                let part = |gx: (usize, usize), gy: (usize, usize)| {
                    let members: Vec<usize> = (gy.0..gy.1)
                        .flat_map(|y| (gx.0..gx.1).map(move |x| y * nx + x))
                        .map(|i| children[i])
                        .collect();
                    let ids: BTreeSet<String> = members.iter().flat_map(|&m| self.leaf_ids(m)).collect();
                    (members, cells_rect(rect, nx, ny, gx, gy), ids)
                };
                let parts: Vec<_> = groups
                    .into_iter()
                    .map(|g| match g {
                        Group::One((gx, gy)) => (vec![part(gx, gy)], false),
                        Group::Two((ax, ay), (bx, by), north) => (vec![part(ax, ay), part(bx, by)], north),
                        Group::Chain(slabs, north) => (slabs.into_iter().map(|(x, y)| part(x, y)).collect(), north),
                    })
                    .collect();
                self.plan_groups(parts);
                for &child in &children {
                    self.plan_leaves(&[child], Vec::new());
                }
            }
            _ => {}
        }
    }

    fn leaf_ids(&self, id: usize) -> BTreeSet<String> {
        match &self.nodes[id].state {
            State::Leaf { ids, .. } => ids.clone(),
            _ => BTreeSet::new(),
        }
    }

    /// Marks `leaves` planned and plans `fetches` (those holding a match).
    fn plan_leaves(&mut self, leaves: &[usize], fetches: Vec<(Rect, BTreeSet<String>)>) {
        for &leaf in leaves {
            if let State::Leaf { planned, .. } = &mut self.nodes[leaf].state {
                *planned = true;
            }
            self.nodes[leaf].pending = false;
        }
        for (rect, ids) in fetches {
            if !ids.is_empty() {
                self.fetches.push(Fetch { rect, ids });
            }
        }
    }

    /// The leaves of `id`'s subtree.
    fn leaves_under(&self, id: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            match &self.nodes[n].state {
                State::Leaf { .. } => out.push(n),
                State::Split { children, .. } => stack.extend(children.iter().rev()),
                _ => {}
            }
        }
        out
    }

    /// The distinct longitudes and latitudes of the edges of `id`'s leaves, sorted.
    fn edges(&self, id: usize) -> (Vec<f64>, Vec<f64>) {
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for leaf in self.leaves_under(id) {
            let r = self.nodes[leaf].rect;
            xs.extend([r.low.lng, r.high.lng]);
            ys.extend([r.low.lat, r.high.lat]);
        }
        for v in [&mut xs, &mut ys] {
            v.sort_by(f64::total_cmp);
            v.dedup();
        }
        (xs, ys)
    }

    /// Groups every leaf of complete region `id` at once: rectangles made of whole leaves,
    /// cut straight across again and again along leaf edges, for the fewest pages.
    fn group_flat(&mut self, id: usize, xs: &[f64], ys: &[f64]) {
        let leaves = self.leaves_under(id);
        let (nx, ny) = (xs.len() - 1, ys.len() - 1);
        let at = |v: &[f64], x: f64| v.binary_search_by(|p| p.total_cmp(&x)).unwrap_or_else(|i| i);
        // Each fine cell's leaf, and each leaf's count at its south-west fine cell.
        let mut owner = vec![usize::MAX; nx * ny];
        let mut count = vec![0usize; nx * ny];
        let mut spans = Vec::with_capacity(leaves.len());
        for (k, &leaf) in leaves.iter().enumerate() {
            let r = self.nodes[leaf].rect;
            let (x0, x1) = (at(xs, r.low.lng), at(xs, r.high.lng));
            let (y0, y1) = (at(ys, r.low.lat), at(ys, r.high.lat));
            for y in y0..y1 {
                for x in x0..x1 {
                    owner[y * nx + x] = k;
                }
            }
            if x1 > x0 && y1 > y0 {
                count[y0 * nx + x0] = self.leaf_ids(leaf).len();
            }
            spans.push(((x0, x1), (y0, y1)));
        }
        let flat = Flat::new(nx, ny, &owner, &count, &vec![false; nx * ny]);
        let mut groups = Vec::new();
        flat.groups(((0, nx), (0, ny)), &mut groups);
        let part = |(gx0, gx1): (usize, usize), (gy0, gy1): (usize, usize)| {
            let members: Vec<usize> = leaves
                .iter()
                .zip(&spans)
                .filter(|(_, ((x0, x1), (y0, y1)))| *x0 >= gx0 && *x1 <= gx1 && *y0 >= gy0 && *y1 <= gy1)
                .map(|(&leaf, _)| leaf)
                .collect();
            let ids: BTreeSet<String> = members.iter().flat_map(|&m| self.leaf_ids(m)).collect();
            let rect = Rect {
                low: LatLng {
                    lat: ys[gy0],
                    lng: xs[gx0],
                },
                high: LatLng {
                    lat: ys[gy1],
                    lng: xs[gx1],
                },
            };
            (members, rect, ids)
        };
        let parts: Vec<_> = groups
            .into_iter()
            .map(|g| match g {
                Group::One((gx, gy)) => (vec![part(gx, gy)], false),
                Group::Two((ax, ay), (bx, by), north) => (vec![part(ax, ay), part(bx, by)], north),
                Group::Chain(slabs, north) => (slabs.into_iter().map(|(x, y)| part(x, y)).collect(), north),
            })
            .collect();
        self.plan_groups(parts);
        self.plan_leaves(&leaves, Vec::new());
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            self.nodes[n].pending = false;
            if let State::Split { children, .. } = &self.nodes[n].state {
                stack.extend(children.iter().copied());
            }
        }
    }

    /// Plans groups of leaves: each as one fetch, or slabs to repair as a chain.
    fn plan_groups(&mut self, parts: Vec<(Vec<Part>, bool)>) {
        for (slabs, north) in parts {
            for (members, ..) in &slabs {
                self.plan_leaves(members, Vec::new());
            }
            let mut slabs: VecDeque<(Rect, BTreeSet<String>)> =
                slabs.into_iter().map(|(_, rect, ids)| (rect, ids)).collect();
            let Some(head) = slabs.pop_front() else { continue };
            if slabs.is_empty() {
                self.plan_leaves(&[], vec![head]);
                continue;
            }
            self.chains.push(Chain {
                slabs,
                north,
                head,
                dirty: false,
                next_dirty: false,
                search: None,
                verifying: false,
                done: false,
            });
            self.boundary(self.chains.len() - 1);
        }
    }

    /// Starts on the edge between `chain`'s head and the next slab: moves it by a strip if
    /// that fills the head's pages, shedding from the side that needs the smaller strip.
    fn boundary(&mut self, chain: usize) {
        let c = &self.chains[chain];
        let Some(next) = c.slabs.front() else {
            self.finish_head(chain);
            return;
        };
        let beyond: usize = c.slabs.iter().skip(1).map(|s| s.1.len()).sum();
        let make = |shed: &(Rect, BTreeSet<String>), take: &(Rect, BTreeSet<String>), head_shed| Repair {
            shed: shed.0,
            shed_ids: shed.1.clone(),
            take: take.0,
            take_ids: take.1.clone(),
            north: c.north,
            high: head_shed,
            head_shed,
            beyond,
            lo: (0.0, 0),
            hi: (1.0, shed.1.len() + 1),
            at: 0.0,
            rounds: 0,
        };
        let options = [make(&c.head, next, true), make(next, &c.head, false)];
        if options[0].fits(0) {
            self.finish_head(chain);
            return;
        }
        let best = options
            .into_iter()
            .filter_map(|r| r.window().map(|w| ((w.0, r.shed_ids.len()), r)))
            .min_by_key(|(key, _)| *key);
        match best {
            Some((_, repair)) => {
                self.chains[chain].search = Some(repair);
                self.next_cut(chain);
            }
            None => self.finish_head(chain),
        }
    }

    /// The head is settled: fetch it (probing it first if it shed a strip), then go on.
    fn finish_head(&mut self, chain: usize) {
        let c = &mut self.chains[chain];
        c.search = None;
        if c.dirty {
            c.verifying = true;
            let rect = c.head.0;
            let id = self.ask(rect, 0.0, None);
            self.nodes[id].repair = Some(chain);
            return;
        }
        let head = c.head.clone();
        self.plan_leaves(&[], vec![head]);
        self.advance(chain);
    }

    /// Moves on to `chain`'s next slab, if any.
    fn advance(&mut self, chain: usize) {
        let c = &mut self.chains[chain];
        match c.slabs.pop_front() {
            Some(next) => {
                c.head = next;
                c.dirty = c.next_dirty;
                c.next_dirty = false;
                self.boundary(chain);
            }
            None => c.done = true,
        }
    }

    /// Probes the next strip depth of `chain`'s edge, or leaves the edge where it is.
    fn next_cut(&mut self, chain: usize) {
        let Some(r) = &self.chains[chain].search else { return };
        let len = if r.north {
            r.shed.high.lat - r.shed.low.lat
        } else {
            r.shed.high.lng - r.shed.low.lng
        };
        let window = r
            .window()
            .filter(|_| r.rounds < REPAIR_ROUNDS && (r.hi.0 - r.lo.0) * len > MIN_SIDE);
        let Some((first, last)) = window else {
            self.finish_head(chain);
            return;
        };
        let goal = (first + last) as f64 / 2.0;
        let t = (goal - r.lo.1 as f64) / (r.hi.1 - r.lo.1) as f64;
        let d = r.lo.0 + (r.hi.0 - r.lo.0) * t.clamp(0.05, 0.95);
        let rect = r.strip(d).0;
        if let Some(r) = &mut self.chains[chain].search {
            r.at = d;
            r.rounds += 1;
        }
        let id = self.ask(rect, 0.0, None);
        self.nodes[id].repair = Some(chain);
    }

    /// A chain's probe answered: the head's own (fetch it) or a strip's (move the edge,
    /// narrow, or give up).
    fn repaired(&mut self, chain: usize, probe: Probe) {
        let ids: BTreeSet<String> = probe.ids.into_iter().collect();
        let c = &mut self.chains[chain];
        if c.verifying {
            c.verifying = false;
            let head = (c.head.0, ids);
            self.plan_leaves(&[], vec![head]);
            self.advance(chain);
            return;
        }
        let Some(r) = c.search.as_mut() else { return };
        let s = if probe_saturated(&ids) { usize::MAX } else { ids.len() };
        if s != usize::MAX && r.fits(s) {
            let (strip, rest) = r.strip(r.at);
            let shed_rest: BTreeSet<String> = r.shed_ids.difference(&ids).cloned().collect();
            let take = (r.take.union(&strip), r.take_ids.union(&ids).cloned().collect());
            let head_shed = r.head_shed;
            if head_shed {
                c.head = (rest, shed_rest);
                c.dirty = true;
                if let Some(next) = c.slabs.front_mut() {
                    *next = take;
                }
            } else {
                c.head = take;
                if let Some(next) = c.slabs.front_mut() {
                    *next = (rest, shed_rest);
                }
                c.next_dirty = true;
            }
            self.finish_head(chain);
            return;
        }
        let first = r.window().map_or(0, |w| w.0);
        if s < first {
            r.lo = (r.at, s);
        } else {
            r.hi = (r.at, s.min(r.shed_ids.len() + 1));
        }
        self.next_cut(chain);
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

    /// Every match found by the probes (planned into fetches or not yet).
    pub fn found(&self) -> BTreeSet<String> {
        self.nodes
            .iter()
            .filter_map(|n| match &n.state {
                State::Leaf { ids, .. } => Some(ids.iter().cloned()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// Regions not yet resolved, each holding an unknown number of matches up to about a
    /// cap (estimates count them as a cap each): rectangles awaiting their probe, saturated
    /// ones awaiting their split, and, a cap's worth at a time, places listed but not yet
    /// grouped into fetches (their neighbours are still being probed).
    pub fn unresolved(&self) -> usize {
        let (mut regions, mut waiting_places) = (0, 0);
        for node in &self.nodes {
            match &node.state {
                State::Asked | State::Saturated { .. } => regions += 1,
                State::Leaf { ids, planned: false } => waiting_places += ids.len(),
                _ => {}
            }
        }
        regions + waiting_places.div_ceil(CAP)
    }

    /// Matches expected outside the fetches planned so far (see [`Self::unresolved`]), for
    /// an estimate stopped early: places listed but not yet grouped count exactly; a
    /// rectangle awaiting its probe counts its share of its region's estimate; a saturated
    /// one awaiting its split, that share or the cap, whichever is more. A region's
    /// estimate comes from its sample: the cells under the cap say how many places each of
    /// its 60 listed stands for.
    pub fn estimated_unresolved(&self) -> f64 {
        self.nodes
            .iter()
            .map(|node| match &node.state {
                State::Asked => node.expected,
                State::Saturated { .. } => node.expected.max(CAP as f64),
                State::Leaf { ids, planned: false } => ids.len() as f64,
                _ => 0.0,
            })
            .sum()
    }

    /// Matches in the fetches planned so far.
    pub fn found_count(&self) -> usize {
        self.fetches.iter().map(|f| f.ids.len()).sum()
    }

    /// How many fetches are planned so far; they only ever grow, in order.
    pub fn fetch_count(&self) -> usize {
        self.fetches.len()
    }

    /// The `index`-th fetch planned.
    pub fn fetch_at(&self, index: usize) -> Option<&Fetch> {
        self.fetches.get(index)
    }

    /// The fetches planned so far (all of them once done): each a rectangle under the cap.
    /// A runner may start fetching one as soon as it appears.
    pub fn fetch_plan(&self) -> Vec<Fetch> {
        self.fetches.clone()
    }
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn a_plan_stopped_early_estimates_what_is_left() {
        for (n, seed) in [(1_500, 7), (3_000, 11)] {
            let world = metro(n, seed);
            let mut planner = Planner::new(area());
            // What `estimate.rs` does: rounds of up to 8 probes, up to 80 requests.
            let mut used = 0;
            loop {
                let mut round = Vec::new();
                while round.len() < 8 && used + (round.len() + 1) * 3 <= 80 {
                    let Some(next) = planner.next_probe() else { break };
                    round.push(next);
                }
                if round.is_empty() {
                    break;
                }
                for (id, rect) in round {
                    let answer = probe(&world, rect);
                    used += answer.ids.len().div_ceil(PAGE).max(1);
                    planner.record(id, answer);
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
