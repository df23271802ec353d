//! After an estimate answers, its free IDs-only probes go on while the user reads it
//! (issue #30: 4,000 leads a minute on a first search). The web app shows the estimate
//! before the user presses Search; the seconds between are the key's, unused. Each round
//! of answers joins the ones the estimate left (see [`PlanMemory::add_probes`]), so the
//! search that follows asks Google again for none of them and starts fetching sooner.
//!
//! It stops at whichever comes first: every region probed, its time bound
//! (`LEADGEN_PROBE_AFTER_ESTIMATE_SECS`), a failed probe, or the search taking the
//! answers (the search's read removes them, so the next write finds nothing to add to).
//! Its requests go through the key's rate gate, shared with the fleet's searches, so it
//! never overruns Google's pace; a search that starts meanwhile waits at most for the
//! round already in flight.

use futures_util::future::join_all;
use tokio::time::Instant;

use super::{
    full::{Done, probe},
    plan_memory::{PlanKey, PlanMemory, ProbeAnswer, ProbeAnswers},
    query::ValidSearch,
    request::base_request,
    runner::{RateGate, Upstream},
    tiling::{Planner, Probe, Rect},
};

/// Probes asked at once: a search that starts meanwhile waits for at most these (their
/// pages, 3 at most each) at the shared gate.
const ROUND: usize = 4;

/// An estimate whose probes did not finish its area, and what they answered: where
/// [`keep_probing`] starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Unfinished {
    /// What the answers are left under.
    pub key: PlanKey,
    /// The area the probes tile.
    pub area: Rect,
    /// What the estimate's probes answered, in order.
    pub answers: ProbeAnswers,
}

/// Why the probes stopped, and how many requests they made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptProbing {
    /// IDs-only requests made after the estimate.
    pub requests: u32,
    pub ended: ProbingEnded,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbingEnded {
    /// Every region probed: the search has no probe left to make.
    Finished,
    /// The time bound passed.
    TimedOut,
    /// The search took the answers (or they were forgotten): nobody reads more.
    Taken,
    /// Google refused a probe (the key, its quota): the search will say so itself.
    Failed,
}

/// Probes on from where `left` stopped until `until` (see the module docs), adding each
/// round's answers to the ones in `memory`.
pub async fn keep_probing(
    upstream: &Upstream<'_, impl RateGate>,
    search: &ValidSearch,
    left: Unfinished,
    memory: &dyn PlanMemory,
    until: Instant,
) -> KeptProbing {
    let Unfinished { key, area, mut answers } = left;
    let base = base_request(search);
    let may_hold = |rect: Rect| search.area().is_none_or(|a| a.may_hold(rect));
    // The estimate's answers replayed: the planner asks for the same rectangles again,
    // since its plan depends only on what Google answered.
    let mut replay = answers.clone();
    let mut planner = Planner::new(area);
    let mut requests = 0u32;
    let ended = loop {
        let mut round = Vec::new();
        while round.len() < ROUND {
            let Some((id, rect)) = planner.next_probe() else { break };
            if !may_hold(rect) && planner.may_skip(id) {
                planner.record_outside(id);
                continue;
            }
            match replay.take(&rect) {
                Some(ids) => planner.record(id, Probe { ids }),
                None => round.push((id, rect)),
            }
        }
        if round.is_empty() {
            break ProbingEnded::Finished;
        }
        if Instant::now() >= until {
            break ProbingEnded::TimedOut;
        }
        let rects: Vec<Rect> = round.iter().map(|(_, rect)| *rect).collect();
        let done = join_all(round.into_iter().map(|(id, rect)| probe(upstream, &base, id, rect))).await;
        let mut failed = false;
        for (done, rect) in done.into_iter().zip(rects) {
            let Done::Probe(id, result) = done else { continue };
            match result {
                Ok((ids, pages)) => {
                    requests += pages;
                    answers.0.push(ProbeAnswer { rect, ids: ids.clone() });
                    planner.record(id, Probe { ids });
                }
                Err(error) => {
                    tracing::info!(%error, "an estimate's probes stopped: Google refused one");
                    failed = true;
                }
            }
        }
        if !memory.add_probes(&key, &answers).await {
            break ProbingEnded::Taken;
        }
        if failed {
            break ProbingEnded::Failed;
        }
    };
    KeptProbing { requests, ended }
}
