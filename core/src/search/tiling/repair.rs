//! Repairs: slabs cut straight across a rectangle (a chain) are settled edge by edge, each
//! edge moved by a strip whose depth is found by probing, so that each slab fills its pages.

use std::collections::{BTreeSet, VecDeque};

use super::{
    flat::Part,
    geometry::{MIN_SIDE, Rect},
    probe::{CAP, PAGE, Probe},
    state::{Chain, Planner, Repair},
};

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

fn probe_saturated(ids: &BTreeSet<String>) -> bool {
    ids.len() >= CAP
}

/// The area of `a` that `b` covers (square degrees; 0 if they only touch).
fn overlap_area(a: Rect, b: Rect) -> f64 {
    let w = a.high.lng.min(b.high.lng) - a.low.lng.max(b.low.lng);
    let h = a.high.lat.min(b.high.lat) - a.low.lat.max(b.low.lat);
    w.max(0.0) * h.max(0.0)
}

/// Places expected in `strip` from `leaves` (rectangles and their counts), each leaf's
/// places taken as evenly spread over it: a strip's count follows the leaves it crosses,
/// where one rate over the whole slab would miss a dense or empty leaf along the edge.
fn expected_in(leaves: &[(Rect, usize)], strip: Rect) -> f64 {
    leaves
        .iter()
        .filter_map(|&(leaf, n)| {
            let area = overlap_area(leaf, leaf);
            (area > 0.0).then(|| n as f64 * overlap_area(leaf, strip) / area)
        })
        .sum()
}

/// The depth between `lo` and `hi` whose strip is expected to hold `goal` places by
/// `expected` (which grows with depth), found by halving.
fn depth_for(expected: impl Fn(f64) -> f64, goal: f64, (mut lo, mut hi): (f64, f64)) -> f64 {
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if expected(mid) < goal {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

impl Planner {
    /// Plans groups of leaves: each as one fetch, or slabs to repair as a chain.
    pub(super) fn plan_groups(&mut self, parts: Vec<(Vec<Part>, bool)>) {
        for (slabs, north) in parts {
            let leaves: Vec<(Rect, usize)> = slabs
                .iter()
                .flat_map(|(members, ..)| members.iter())
                .map(|&m| (self.nodes[m].rect, self.leaf_count(m)))
                .collect();
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
                leaves,
                search: None,
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

    /// The head is settled: fetch it, then go on. A head that shed a strip is not probed
    /// again: it holds what it held less what the strip's probe listed.
    fn finish_head(&mut self, chain: usize) {
        let c = &mut self.chains[chain];
        c.search = None;
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
        let t = ((goal - r.lo.1 as f64) / (r.hi.1 - r.lo.1) as f64).clamp(0.05, 0.95);
        // Interpolate between the depths known so far in expected places rather than in
        // depth: the leaves say where along the slab its places lie.
        let leaves = &self.chains[chain].leaves;
        let expected = |d: f64| expected_in(leaves, r.strip(d).0);
        let (at_lo, at_hi) = (expected(r.lo.0), expected(r.hi.0));
        let d = if at_hi - at_lo > f64::EPSILON {
            depth_for(expected, at_lo + (at_hi - at_lo) * t, (r.lo.0, r.hi.0))
        } else {
            r.lo.0 + (r.hi.0 - r.lo.0) * t
        };
        let rect = r.strip(d).0;
        if let Some(r) = &mut self.chains[chain].search {
            r.at = d;
            r.rounds += 1;
        }
        let id = self.ask(rect, 0.0, None, Vec::new());
        self.nodes[id].repair = Some(chain);
    }

    /// A strip's probe answered: move the edge, narrow, or give up.
    pub(super) fn repaired(&mut self, chain: usize, probe: Probe) {
        let ids: BTreeSet<String> = probe.ids.into_iter().collect();
        let c = &mut self.chains[chain];
        let Some(r) = c.search.as_mut() else { return };
        let s = if probe_saturated(&ids) { usize::MAX } else { ids.len() };
        if s != usize::MAX && r.fits(s) {
            let (strip, rest) = r.strip(r.at);
            let shed_rest: BTreeSet<String> = r.shed_ids.difference(&ids).cloned().collect();
            let take = (r.take.union(&strip), r.take_ids.union(&ids).cloned().collect());
            let head_shed = r.head_shed;
            if head_shed {
                c.head = (rest, shed_rest);
                if let Some(next) = c.slabs.front_mut() {
                    *next = take;
                }
            } else {
                c.head = take;
                if let Some(next) = c.slabs.front_mut() {
                    *next = (rest, shed_rest);
                }
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tiling::LatLng;

    fn rect(lng: (f64, f64), lat: (f64, f64)) -> Rect {
        Rect {
            low: LatLng { lat: lat.0, lng: lng.0 },
            high: LatLng { lat: lat.1, lng: lng.1 },
        }
    }

    #[test]
    fn a_strip_is_expected_to_hold_the_share_of_each_leaf_it_covers() {
        // A dense leaf west, an empty one east.
        let leaves = [(rect((0.0, 1.0), (0.0, 1.0)), 10), (rect((1.0, 2.0), (0.0, 1.0)), 0)];
        let west_half_of_dense = rect((0.0, 0.5), (0.0, 1.0));
        assert!((expected_in(&leaves, west_half_of_dense) - 5.0).abs() < 1e-9);
        assert_eq!(expected_in(&leaves, rect((1.0, 2.0), (0.0, 1.0))), 0.0);
        // Touching along an edge covers nothing.
        assert_eq!(expected_in(&leaves, rect((2.0, 3.0), (0.0, 1.0))), 0.0);
        // A degenerate leaf (no area) counts for nothing rather than dividing by zero.
        let flat = [(rect((0.0, 0.0), (0.0, 1.0)), 7)];
        assert_eq!(expected_in(&flat, rect((-1.0, 1.0), (0.0, 1.0))), 0.0);
    }

    #[test]
    fn a_strip_s_depth_follows_where_the_places_are() {
        // A slab 0..2 wide, its places all in its far half: a strip from the near end
        // expected to hold a quarter of them lies past the empty half (at 1.25), where one
        // rate over the slab would have put it at 0.5.
        let leaves = [(rect((0.0, 1.0), (0.0, 1.0)), 0), (rect((1.0, 2.0), (0.0, 1.0)), 20)];
        let expected = |d: f64| expected_in(&leaves, rect((0.0, 2.0 * d), (0.0, 1.0)));
        let d = depth_for(expected, 5.0, (0.0, 1.0));
        assert!((2.0 * d - 1.25).abs() < 1e-6, "{d}");
        // Evenly spread places give the plain interpolation.
        let even = |d: f64| 10.0 * d;
        assert!((depth_for(even, 3.0, (0.0, 1.0)) - 0.3).abs() < 1e-9);
    }
}
