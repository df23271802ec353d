//! The planner's face: where it starts, which rectangle to probe next, the bookkeeping of
//! probes and their answers, and what it has found and planned so far.

use std::collections::{BTreeSet, VecDeque};

use super::{
    geometry::Rect,
    probe::{CAP, Fetch, Probe, ProbeId},
    split::UNKNOWN_SATURATED,
    state::{Node, Planner, State},
};

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

    pub(super) fn ask(&mut self, rect: Rect, expected: f64, parent: Option<usize>) -> usize {
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
