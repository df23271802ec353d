//! What a free probe answers and what a billable fetch is.

use std::collections::BTreeSet;

use super::geometry::Rect;

/// Google's cap on one query's results.
pub const CAP: usize = 60;
/// Results per page.
pub const PAGE: usize = 20;

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

/// Which probe of the plan (an index).
pub type ProbeId = usize;

/// Where a runner takes the rectangles to probe: one [`super::Planner`], or a search's
/// [`super::Plans`] (remembered regions, then its plans).
pub trait ProbeQueue {
    /// The next rectangle to probe, if one is waiting. Several may be probed at once.
    fn next_probe(&mut self) -> Option<(ProbeId, Rect)>;

    /// Whether `id` may be recorded with [`Self::record_outside`]: a repair's probe counts
    /// what a strip between two fetches really holds, wherever it lies, so it is always
    /// asked.
    fn may_skip(&self, id: ProbeId) -> bool;

    /// Records, without a probe, that `id`'s rectangle holds nothing the search wants (it
    /// lies wholly outside the search's polygon). Only for a rectangle that
    /// [`Self::may_skip`].
    fn record_outside(&mut self, id: ProbeId);

    /// The next rectangle that must be asked of Google. Those wholly outside the search's
    /// area (`may_hold` says no) are recorded empty on the way: no place of them counts, so
    /// they are known without asking (recall is kept: one partly inside is probed). The
    /// search, its estimate and the probing after the estimate all take their probes here,
    /// so all three ask for the same rectangles.
    fn next_probe_within(&mut self, may_hold: impl Fn(Rect) -> bool) -> Option<(ProbeId, Rect)> {
        loop {
            let (id, rect) = self.next_probe()?;
            if may_hold(rect) || !self.may_skip(id) {
                return Some((id, rect));
            }
            self.record_outside(id);
        }
    }
}
