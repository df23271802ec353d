//! After an estimate answers, its free IDs-only probes go on while the user reads it
//! (issue #30: 4,000 leads a minute on a first search). The web app shows the estimate
//! before the user presses Search; the seconds between are the key's, unused. The
//! answers join the ones the estimate left (see [`PlanMemory::add_probes`]), so the
//! search that follows asks Google again for none of them and starts fetching sooner.
//!
//! It stops at whichever comes first: every region probed, its time bound
//! (`LEADGEN_PROBE_AFTER_ESTIMATE_SECS`), a failed probe, or the search taking the
//! answers (the search's read removes them, so the next write finds nothing to add to).
//! Its requests go through the key's rate gate, shared with the fleet's searches, so it
//! never overruns Google's pace; a search that starts meanwhile waits at most for the
//! probes already in flight. The first probe waits a moment ([`FIRST_PROBE_AFTER`]): a
//! client that searches as soon as the estimate answers takes the answers before any
//! probe of it reaches the gate.

use std::time::Duration;

use futures_util::{FutureExt, StreamExt, stream::FuturesUnordered};
use tokio::time::Instant;

use super::{
    full::{Done, probe},
    plan_memory::{PlanKey, PlanMemory, ProbeAnswer, ProbeAnswers},
    query::ValidSearch,
    request::base_request,
    runner::{RateGate, Upstream},
    tiling::{Planner, Probe, ProbeQueue, Rect},
};

/// How long after the estimate answered the first probe starts: a person reads an
/// estimate for longer; a program that searches at once has taken the answers by then.
pub const FIRST_PROBE_AFTER: Duration = Duration::from_secs(1);

/// Probes in flight at once: at 300 ms a request, 4 keep 10 requests a second going; a
/// search that starts meanwhile waits for at most these (their pages, 3 at most each) at
/// the shared gate.
const IN_FLIGHT: usize = 4;

/// How often the answers are written while probes are in flight (each write is the whole
/// set): the answers of a moment are lost when the search takes the rest meanwhile.
const WRITE_EVERY: Duration = Duration::from_millis(300);

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
    /// Nobody reads more: the search took the answers, a newer estimate of the workspace
    /// left its own (on any API process), or they were forgotten.
    Taken,
    /// Google refused a probe (the key, its quota): the search will say so itself.
    Failed,
}

/// Probes on from where `left` stopped until `until` (see the module docs), adding the
/// answers to the ones in `memory` as they come.
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
    tokio::time::sleep_until((Instant::now() + FIRST_PROBE_AFTER).min(until)).await;
    // Still there? (Rewriting them as they are changes nothing.)
    if !memory.add_probes(&key, &answers).await {
        return KeptProbing {
            requests,
            ended: ProbingEnded::Taken,
        };
    }
    let mut inflight = FuturesUnordered::new();
    let mut written = (answers.0.len(), Instant::now());
    let ended = loop {
        // As many probes in flight as keep the key's pace busy: the planner's next ones,
        // those the estimate answered recorded without asking.
        while inflight.len() < IN_FLIGHT && Instant::now() < until {
            let Some((id, rect)) = planner.next_probe_within(may_hold) else {
                break;
            };
            match replay.take(&rect) {
                Some(ids) => planner.record(id, Probe { ids }),
                None => inflight.push(probe(upstream, &base, id, rect).map(move |done| (rect, done))),
            }
        }
        let Some((rect, done)) = inflight.next().await else {
            break if Instant::now() >= until {
                ProbingEnded::TimedOut
            } else {
                ProbingEnded::Finished
            };
        };
        let Done::Probe(id, result) = done else { continue };
        let failed = match result {
            Ok((ids, pages)) => {
                requests += pages;
                answers.0.push(ProbeAnswer { rect, ids: ids.clone() });
                planner.record(id, Probe { ids });
                false
            }
            Err(error) => {
                tracing::info!(%error, "an estimate's probes stopped: Google refused one");
                true
            }
        };
        let due = failed || inflight.is_empty() || written.1.elapsed() >= WRITE_EVERY;
        if due && written.0 < answers.0.len() {
            if !memory.add_probes(&key, &answers).await {
                break ProbingEnded::Taken;
            }
            written = (answers.0.len(), Instant::now());
        }
        if failed {
            break ProbingEnded::Failed;
        }
    };
    KeptProbing { requests, ended }
}
