//! The planner's face: where it starts, which rectangle to probe next, the bookkeeping of
//! probes and their answers, and what it has found and planned so far.

use std::collections::BTreeSet;

use super::{
    geometry::Rect,
    probe::{CAP, Fetch, Probe, ProbeId, ProbeQueue},
    split::UNKNOWN_SATURATED,
    state::{Node, Planner, State},
};

impl Planner {
    /// Plans `area`; its first probe is the whole area.
    pub fn new(area: Rect) -> Self {
        let mut planner = Self {
            nodes: Vec::new(),
            queue: BTreeSet::new(),
            fetches: Vec::new(),
            chains: Vec::new(),
            probing: 0,
            probes: 0,
            truncated: false,
            early: None,
            early_wanted: false,
            outside: BTreeSet::new(),
        };
        planner.ask(area, UNKNOWN_SATURATED, None, Vec::new());
        planner
    }

    /// Asks for `rect`'s probe; `path` is where it sits in the tree (see `Node::path`).
    pub(super) fn ask(&mut self, rect: Rect, expected: f64, parent: Option<usize>, path: Vec<u16>) -> usize {
        let id = self.nodes.len();
        self.queue.insert((path.clone(), id));
        self.nodes.push(Node {
            rect,
            expected,
            parent,
            state: State::Asked,
            pending: false,
            repair: None,
            path,
        });
        id
    }

    /// The area's first page, to fetch at once with the lead mask (one billable request),
    /// once the area's probe shows it holds more than the cap: the planner's own fetches
    /// wait for whole regions to be probed, which on a metro takes seconds, and this page
    /// shows the first leads meanwhile. Its places are fetched again with their region
    /// (the runner delivers each once), so it costs one request more than the plan.
    /// `None` until then, and after it is taken.
    pub fn early_page(&mut self) -> Option<Rect> {
        self.early.take()
    }

    /// Billable requests the search makes beyond its fetch plan: the early page, if the
    /// area's probe wanted one (see [`Self::early_page`]).
    pub fn extra_requests(&self) -> usize {
        usize::from(self.early_wanted)
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
                    self.early = Some(self.nodes[id].rect);
                    self.early_wanted = true;
                    let expected = self.nodes[id].expected;
                    self.split(id, expected);
                }
            },
        }
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

impl ProbeQueue for Planner {
    /// Repairs' probes come first (fetches wait on them), then the tree depth first.
    fn next_probe(&mut self) -> Option<(ProbeId, Rect)> {
        let (_, id) = self.queue.pop_first()?;
        self.probing += 1;
        Some((id, self.nodes[id].rect))
    }

    /// A rectangle of the tree, not a repair's probe.
    fn may_skip(&self, id: ProbeId) -> bool {
        self.nodes[id].repair.is_none()
    }

    /// It becomes an empty leaf that is never grouped with a neighbour: the places it
    /// really holds are unknown, and a fetch spanning it could pass Google's cap.
    fn record_outside(&mut self, id: ProbeId) {
        debug_assert!(self.may_skip(id), "a repair's probe is always asked");
        self.outside.insert(id);
        self.record(id, Probe::default());
    }
}
