//! Grouping a complete region's leaves into fetches: a dynamic programme over rectangles cut
//! straight across along leaf edges (fewest pages, then fewest fetches), with pairs and
//! chains of slabs whose pages a repair could share.

use std::collections::BTreeSet;

use super::{
    geometry::Rect,
    probe::{CAP, PAGE},
};

/// A page in the grouping's units (so that a repair can cost a fraction of one).
const PAGE_UNITS: usize = 16;
/// What a repair is reckoned to cost (probes, and the chance it fails), in those units.
const REPAIR_UNITS: usize = 1;

/// A complete region on the grid of its leaves' edges, for grouping its leaves.
pub(super) struct Flat {
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
    /// The slabs' far edges of spans best fetched as a chain (see [`Chain`](super::state::Chain)).
    chains: std::cell::RefCell<std::collections::HashMap<(Span, bool), Vec<usize>>>,
}

/// A span's best (pages, fetches), and how: whole (`None`) or cut (`Some((along
/// longitude, at))`).
type Choice = ((usize, usize), Option<(bool, usize)>);

/// Cells `x0..x1` by `y0..y1`.
pub(super) type Span = ((usize, usize), (usize, usize));

/// A group's leaves, rectangle and places.
pub(super) type Part = (Vec<usize>, Rect, BTreeSet<String>);

/// A group of leaves to fetch as one rectangle, or two neighbours (south or west first;
/// `true` if they lie one north of the other) that may share their pages once repaired.
pub(super) enum Group {
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
    pub(super) fn new(nx: usize, ny: usize, owner: &[usize], count: &[usize], shut: &[bool]) -> Self {
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
    /// apart whose pages could be shared (see [`Repair`](super::state::Repair)) as a pair.
    pub(super) fn groups(&self, span: Span, out: &mut Vec<Group>) {
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
