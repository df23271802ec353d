//! The planner's splitting rules: how many cells a saturated region is split into, sized
//! by what its 60 listed places say about how many it holds.

use super::{
    geometry::{Rect, cells_rect},
    probe::CAP,
    state::{Planner, State},
};

/// Places a grid cell is sized for: a saturated region is split into about
/// `expected / CELL_TARGET` cells, so that most cells answer in two pages and neighbours
/// can be grouped into fetches that fill their pages. Measured on the tests' worlds: 16
/// gives 0.14-0.19 probe requests a place, 28 gives 0.11-0.15 for the same 1.03-1.125x the
/// floor; past 32 fetches round up worse (up to 1.175x).
const CELL_TARGET: f64 = 28.0;
/// Most cells one saturated region is split into at once.
const MAX_CELLS: usize = 36;
/// What a saturated region is expected to hold when nothing else is known.
pub(super) const UNKNOWN_SATURATED: f64 = 4.0 * CAP as f64;
/// How much more a region is expected to hold when all its cells were saturated too.
const ALL_SATURATED_GROWTH: f64 = 2.0;
/// Weight (in sampled places) of a region's prior when its cells' answers estimate it.
const PRIOR_WEIGHT: f64 = 2.0;

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

impl Planner {
    /// Splits saturated `id`, expected to hold `expected`, into a grid and asks its cells.
    pub(super) fn split(&mut self, id: usize, expected: f64) {
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
                let mut path = self.nodes[id].path.clone();
                path.push((y * nx + x) as u16);
                let cell = cells_rect(rect, nx, ny, (x, x + 1), (y, y + 1));
                children.push(self.ask(cell, share, Some(id), path));
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
    pub(super) fn settle(&mut self, id: usize) {
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
}
