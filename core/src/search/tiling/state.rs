//! The planner's state: every rectangle asked (a tree of nodes, by probe id), the fetches
//! planned, and the chains being repaired. The rules that change it live in `planner`
//! (probes and their answers), `split`, `grouping` and `repair`; this module depends on
//! none of them.

use std::collections::{BTreeSet, VecDeque};

use super::{
    geometry::Rect,
    probe::{Fetch, ProbeId},
};

/// The planner of one area.
#[derive(Debug, Clone)]
pub struct Planner {
    /// Every rectangle asked, by probe id.
    pub(super) nodes: Vec<Node>,
    pub(super) queue: VecDeque<ProbeId>,
    pub(super) fetches: Vec<Fetch>,
    pub(super) chains: Vec<Chain>,
    pub(super) probing: usize,
    pub(super) probes: usize,
    pub(super) truncated: bool,
}

/// What a probed (or waiting) rectangle is.
#[derive(Debug, Clone)]
pub(super) enum State {
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
pub(super) struct Node {
    pub(super) rect: Rect,
    /// Matches expected in it (its share of its parent's estimate).
    pub(super) expected: f64,
    pub(super) parent: Option<usize>,
    pub(super) state: State,
    /// Complete, small enough to group as a whole, and not grouped yet: waits to be
    /// grouped together with its neighbours.
    pub(super) pending: bool,
    /// The repair this probes a rectangle for, if any (see [`Repair`]).
    pub(super) repair: Option<usize>,
}

/// Two neighbouring groups cut straight apart whose pages could be shared (together they
/// need fewer pages than apart): the one that sheds gives up a strip along their shared
/// edge, holding just enough places that both fill their pages. The strip's depth is found
/// by probing strips (interpolating on their counts); the strip then joins the other group
/// (a union of probed rectangles) and the rest of the shedding group is probed as it is.
/// If no depth is found in a few probes, the two are fetched as they were.
#[derive(Debug, Clone)]
pub(super) struct Repair {
    pub(super) shed: Rect,
    pub(super) shed_ids: BTreeSet<String>,
    pub(super) take: Rect,
    pub(super) take_ids: BTreeSet<String>,
    /// Whether the strip's depth runs along latitude (the two lie one north of the other),
    /// and whether the strip lies at `shed`'s high end.
    pub(super) north: bool,
    pub(super) high: bool,
    /// A depth (fraction of `shed`) known to hold too few places, and their count.
    pub(super) lo: (f64, usize),
    /// A depth known to hold too many, and their count.
    pub(super) hi: (f64, usize),
    /// The depth being probed.
    pub(super) at: f64,
    pub(super) rounds: u8,
    /// Whether the chain's head sheds (else the next slab does).
    pub(super) head_shed: bool,
    /// Places in the chain's slabs past these two.
    pub(super) beyond: usize,
}

/// Slabs cut straight across a rectangle, fetched one after the other: each edge between
/// two is moved by a strip (see [`Repair`]) so that the slab before it fills its pages.
#[derive(Debug, Clone)]
pub(super) struct Chain {
    /// The slabs after the head.
    pub(super) slabs: VecDeque<(Rect, BTreeSet<String>)>,
    pub(super) north: bool,
    /// The slab whose far edge is being settled, and its places.
    pub(super) head: (Rect, BTreeSet<String>),
    /// Whether the head shed a strip (so is not a union of probed rectangles: it is
    /// probed before it is fetched), and the same of the next slab.
    pub(super) dirty: bool,
    pub(super) next_dirty: bool,
    pub(super) search: Option<Repair>,
    pub(super) verifying: bool,
    pub(super) done: bool,
}
