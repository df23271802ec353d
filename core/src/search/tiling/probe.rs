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
