//! Where a full search finds and leaves its area's plan (issue #30 item 2): a later full
//! search of the same workspace, query and area, within `LEADGEN_PLAN_MEMORY_DAYS`, runs
//! from it (see [`tiling::Plans::from_memory`](super::tiling::Plans::from_memory)).
//!
//! The key is what decides Google's answer: the Text Search body the search sends, less
//! its location restriction (and the field mask, which is not in the body), and the area
//! exactly as asked (a polygon's ring, a circle, or the located rectangle). Two searches
//! with the same key get the same answers from Google for the same rectangles.
//!
//! An estimate leaves what its probes answered under the same key, for a few minutes: the
//! search that follows it (the web app estimates a full search before it runs) asks
//! Google again only for the rectangles the estimate did not probe. The estimate's
//! probes may go on after it answers, adding to them (see `keep_probing`), until the
//! search takes them.

use std::time::Duration;

use futures_util::{FutureExt, future::BoxFuture};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{
    query::ValidSearch,
    request::base_request,
    tiling::{Rect, Remembered},
};

/// What a remembered plan is found by, within a workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanKey {
    /// SHA-256 (hex) of the Text Search body without its location restriction.
    pub query: String,
    /// SHA-256 (hex) of the area as asked.
    pub area: String,
}

impl PlanKey {
    /// The key of full search `search` of `area` (the located rectangle, used when the
    /// search has no explicit area).
    pub fn of(search: &ValidSearch, area: Rect) -> Self {
        let digest = |text: String| hex::encode(Sha256::digest(text.as_bytes()));
        // Plain structs of strings and numbers always serialise.
        let body = serde_json::to_string(&base_request(search)).unwrap_or_default();
        let area = match search.area() {
            Some(explicit) => serde_json::to_string(explicit),
            None => serde_json::to_string(&area),
        }
        .unwrap_or_default();
        Self {
            query: digest(body),
            area: digest(area),
        }
    }
}

/// How long an estimate's probe answers wait for its search: long enough to read the
/// estimate and press Search, short enough that Google's listing has not moved.
pub const PROBES_KEPT: Duration = Duration::from_secs(15 * 60);

/// One rectangle an estimate probed (IDs only) and the place ids Google listed there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeAnswer {
    pub rect: Rect,
    pub ids: Vec<String>,
}

/// What an estimate's probes answered, in the order they were asked.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProbeAnswers(pub Vec<ProbeAnswer>);

impl ProbeAnswers {
    /// The ids listed for `rect`, if it was probed; each answer is given once (a planner
    /// probes a rectangle once).
    pub fn take(&mut self, rect: &Rect) -> Option<Vec<String>> {
        let at = self.0.iter().position(|answer| answer.rect.same_as(rect))?;
        Some(self.0.swap_remove(at).ids)
    }
}

/// A workspace's remembered plans, as a search reads and writes them. Never fails a
/// search: a plan that cannot be read is none (the search plans afresh), one that cannot
/// be written is lost (the next search plans afresh); both are logged by the
/// implementation.
pub trait PlanMemory: Send + Sync {
    /// The plan remembered under `key`, if one is fresh.
    fn recall<'a>(&'a self, key: &'a PlanKey) -> BoxFuture<'a, Option<Remembered>>;
    /// Remembers `plan` under `key` (replacing any older one).
    fn remember<'a>(&'a self, key: &'a PlanKey, plan: &'a Remembered) -> BoxFuture<'a, ()>;
    /// Takes the probe answers an estimate left under `key` within [`PROBES_KEPT`], if
    /// any: they are no longer there afterwards, so the estimate's probes that go on
    /// meanwhile (see [`add_probes`](Self::add_probes)) stop. By default none: a memory
    /// that keeps only plans.
    fn take_probes<'a>(&'a self, _key: &'a PlanKey) -> BoxFuture<'a, Option<ProbeAnswers>> {
        async { None }.boxed()
    }
    /// Leaves an estimate's probe answers under `key` (replacing any older ones) for the
    /// search that may follow. By default nothing is kept.
    fn leave_probes<'a>(&'a self, _key: &'a PlanKey, _answers: &'a ProbeAnswers) -> BoxFuture<'a, ()> {
        async {}.boxed()
    }
    /// Replaces the answers left under `key` with `answers` (the ones left and more), only
    /// while they are still there: false once a search took them, they aged out, a newer
    /// estimate of the workspace left its own, or nothing is kept (the default), and the
    /// probes need not go on.
    fn add_probes<'a>(&'a self, _key: &'a PlanKey, _answers: &'a ProbeAnswers) -> BoxFuture<'a, bool> {
        async { false }.boxed()
    }
}
