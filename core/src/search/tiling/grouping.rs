//! The planner's grouping: once a region is fully probed, its leaves are planned into
//! fetches, as a whole if it is small enough, else part by part.

use std::collections::BTreeSet;

use super::{
    flat::{Flat, Group},
    geometry::{LatLng, Rect, cells_rect},
    probe::Fetch,
    state::{Planner, State},
};

/// Most distinct leaf edges (each way) of a region grouped as a whole; a larger region
/// groups its parts and its own cells separately.
const FLAT_LIMIT: usize = 40;

impl Planner {
    /// `id` is complete (a leaf, or a region whose every cell is): a region is grouped now
    /// if it is too large to group as a whole or its parent is sure to be (see
    /// [`Self::apart`]), else it waits to be grouped with its neighbours once its parent is
    /// complete; then the parent is told.
    pub(super) fn completed(&mut self, id: usize) {
        let Some(parent) = self.nodes[id].parent else {
            self.group(id);
            return;
        };
        if matches!(self.nodes[id].state, State::Split { .. }) {
            if !self.apart(id) {
                self.nodes[id].pending = true;
            } else {
                self.group(id);
            }
        }
        if self.apart(parent) {
            // Waiting gains nothing: its complete parts are fetched while the rest of it
            // is still being probed.
            if let State::Split { children, .. } = &self.nodes[parent].state {
                for child in children.clone() {
                    if self.nodes[child].pending {
                        self.group(child);
                    }
                }
            }
        }
        if let State::Split { open, .. } = &mut self.nodes[parent].state {
            *open -= 1;
            if *open > 0 {
                return;
            }
        }
        self.completed(parent);
    }

    /// Whether region `id` (complete or not) is sure not to be grouped as a whole, so that
    /// its complete parts may be grouped now: a leaf of it is planned, or the edges of its
    /// cells so far (probed or not) are too many. Those edges only grow as cells split
    /// (a cell's parts keep its outer edges), so the answer never turns back and the plan
    /// is the one grouping at the end would make: only the order of fetches changes.
    fn apart(&self, id: usize) -> bool {
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            match &self.nodes[n].state {
                State::Split { children, .. } => stack.extend(children.iter().copied()),
                State::Leaf { planned: true, .. } => return true,
                _ => {
                    let r = self.nodes[n].rect;
                    xs.extend([r.low.lng, r.high.lng]);
                    ys.extend([r.low.lat, r.high.lat]);
                }
            }
        }
        for v in [&mut xs, &mut ys] {
            v.sort_by(f64::total_cmp);
            v.dedup();
        }
        xs.len().max(ys.len()) > FLAT_LIMIT + 1
    }

    /// Plans the fetches of complete region `id`: as a whole if it may be (see
    /// [`Self::apart`]), else its pending parts each as a whole and its leaf cells together.
    pub(super) fn group(&mut self, id: usize) {
        match self.nodes[id].state.clone() {
            State::Leaf { ids, planned: false } => {
                self.plan_leaves(&[id], vec![(self.nodes[id].rect, ids)]);
            }
            State::Split { nx, ny, children, .. } => {
                if !self.apart(id) {
                    let (xs, ys) = self.edges(id);
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
                    .map(|&c| !matches!(self.nodes[c].state, State::Leaf { .. }) || self.outside.contains(&c))
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

    /// How many places leaf `id` holds (0 for a region that is not a leaf).
    pub(super) fn leaf_count(&self, id: usize) -> usize {
        match &self.nodes[id].state {
            State::Leaf { ids, .. } => ids.len(),
            _ => 0,
        }
    }

    /// Marks `leaves` planned and plans `fetches` (those holding a match).
    pub(super) fn plan_leaves(&mut self, leaves: &[usize], fetches: Vec<(Rect, BTreeSet<String>)>) {
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
        let mut shut = vec![false; nx * ny];
        let mut spans = Vec::with_capacity(leaves.len());
        for (k, &leaf) in leaves.iter().enumerate() {
            let r = self.nodes[leaf].rect;
            let (x0, x1) = (at(xs, r.low.lng), at(xs, r.high.lng));
            let (y0, y1) = (at(ys, r.low.lat), at(ys, r.high.lat));
            for y in y0..y1 {
                for x in x0..x1 {
                    owner[y * nx + x] = k;
                    shut[y * nx + x] = self.outside.contains(&leaf);
                }
            }
            if x1 > x0 && y1 > y0 {
                count[y0 * nx + x0] = self.leaf_ids(leaf).len();
            }
            spans.push(((x0, x1), (y0, y1)));
        }
        let flat = Flat::new(nx, ny, &owner, &count, &shut);
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
}
