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
    /// Rectangles waiting for their probe, in the order they are probed: by their place
    /// in the tree (depth first), so that one region is finished, grouped and fetched
    /// while the next is still being probed.
    pub(super) queue: BTreeSet<(Vec<u16>, ProbeId)>,
    pub(super) fetches: Vec<Fetch>,
    pub(super) chains: Vec<Chain>,
    pub(super) probing: usize,
    pub(super) probes: usize,
    pub(super) truncated: bool,
    /// The first page to fetch at once (see [`Planner::early_page`]), once it is known to
    /// be wanted and until it is taken.
    pub(super) early: Option<Rect>,
    /// Whether an early page was wanted (for what the search will cost).
    pub(super) early_wanted: bool,
    /// Leaves known to hold nothing wanted without a probe (outside a polygon, see
    /// [`Planner::record_outside`]): their places are unknown, so they are never grouped
    /// with a neighbour.
    pub(super) outside: BTreeSet<usize>,
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
    /// Where it sits in the tree: the cell indexes from the area down (empty for the area
    /// and for a repair's probes, which go first).
    pub(super) path: Vec<u16>,
}

/// Two neighbouring groups cut straight apart whose pages could be shared (together they
/// need fewer pages than apart): the one that sheds gives up a strip along their shared
/// edge, holding just enough places that both fill their pages. The strip's depth is found
/// by probing strips (interpolating on their counts); the strip then joins the other group
/// (a union of probed rectangles), and the rest of the shedding group holds what it held
/// less what the strip's probe listed (both lists are complete, so the counts add up
/// without probing the rest). If no depth is found in a few probes, the two are fetched
/// as they were.
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
    /// The chain's leaves and how many places each holds: where its places lie, to the
    /// leaf, for guessing a strip's depth (`repair::expected_in`). They do not change as
    /// edges move (the slabs stay within the chain's rectangle).
    pub(super) leaves: Vec<(Rect, usize)>,
    pub(super) search: Option<Repair>,
    pub(super) done: bool,
}
