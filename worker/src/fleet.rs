//! The worker fleet's bookkeeping, on our queue store ([`crate::queue::store`]): the same
//! code in both modes (in process, the fleet is one worker). Every worker, for every job
//! kind:
//!
//! - **Heartbeats.** Each claim beats the worker's heart, and so does every housekeeping
//!   tick ([`TICK`]): a draining worker (after SIGTERM) stops claiming while its searches
//!   finish, and without the tick's beat the others would take them over and run them
//!   twice. The tick runs inside the worker's run future, so a worker that is killed or
//!   aborted stops beating at once.
//! - **Takeover at the front.** Each tick hands the jobs of workers silent for
//!   [`DEAD_AFTER`] back to the *head* of the queue, so a crashed worker's searches resume
//!   (from their checkpoints) within seconds however long the queue is.
//! - **Clean stop.** [`Fleet::leave`] hands back what the worker still holds and removes
//!   it from the fleet.
//! - **One name per pod.** A restarted container keeps its pod's name; its predecessor's
//!   jobs go back first ([`Fleet::reclaim_own_name`]).
//!
//! The tests in `api/tests/it/ops/pods.rs` run real worker processes against real Redis.

use std::time::Duration;

use crate::queue::{HandBack, QueueError, Store};

/// A worker whose last heartbeat is older than this is dead: its jobs are handed back.
/// Heartbeats come every [`TICK`] (and with every claim), so this allows four missed beats.
pub const DEAD_AFTER: Duration = Duration::from_secs(5);
/// How often each worker does the fleet's housekeeping.
pub const TICK: Duration = Duration::from_secs(1);

/// This worker's name in the fleet: the configured one (the chart passes the pod name),
/// or `{hostname}-{pid}-{random}`. The random part matters: in containers every worker is
/// PID 1, and two with one name would fight over one registration.
pub fn worker_name(configured: Option<&str>) -> String {
    if let Some(name) = configured.map(str::trim).filter(|n| !n.is_empty()) {
        return name.to_owned();
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "worker".to_owned());
    let suffix: String = uuid::Uuid::new_v4().simple().to_string().chars().take(6).collect();
    format!("{host}-{}-{suffix}", std::process::id())
}

/// What one housekeeping tick did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tick {
    /// Dead workers removed.
    pub dead_workers: u64,
    /// Their jobs, handed back to the front of the queue.
    pub jobs_handed_back: u64,
}

/// One worker's view of the fleet of one job kind's queue.
#[derive(Clone)]
pub struct Fleet {
    store: Store,
    name: String,
}

impl Fleet {
    /// The fleet of the queue `store`, seen by worker `name`.
    pub fn new(store: Store, name: &str) -> Self {
        Self {
            store,
            name: name.to_owned(),
        }
    }

    /// This worker's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The queue's name.
    pub fn queue(&self) -> &str {
        self.store.name()
    }

    /// Before taking jobs: an earlier process with this name (the pod's previous
    /// container, which Kubernetes restarts under the same name) may still be registered
    /// and hold jobs. A pod's containers never overlap, so it is gone: its jobs go back to
    /// the front of the queue now. Returns how many.
    pub async fn reclaim_own_name(&self) -> Result<u64, QueueError> {
        let (_, jobs) = self.store.hand_back(HandBack::Only(&self.name)).await?;
        metrics().handed_back("restart", jobs);
        Ok(jobs)
    }

    /// One round of housekeeping: beat this worker's heart (renewing the expiry of what it
    /// holds) and take over dead workers' jobs.
    pub async fn tick(&self) -> Result<Tick, QueueError> {
        self.store.beat(&self.name).await?;
        let (dead_workers, jobs_handed_back) = self.store.hand_back(HandBack::SilentFor(DEAD_AFTER)).await?;
        if dead_workers > 0 {
            tracing::warn!(
                dead_workers,
                jobs_handed_back,
                queue = self.queue(),
                "took over the jobs of workers that stopped answering"
            );
            metrics().handed_back("dead_worker", jobs_handed_back);
        }
        Ok(Tick {
            dead_workers,
            jobs_handed_back,
        })
    }

    /// Runs [`Fleet::tick`] every [`TICK`], for as long as it is polled.
    pub async fn housekeeping(&self) {
        let mut every = tokio::time::interval(TICK);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if let Err(e) = self.tick().await {
                tracing::warn!(error = %e, "fleet housekeeping failed; retrying next tick");
            }
        }
    }

    /// Leaves the fleet: the jobs this worker still holds (searches that did not finish
    /// before the drain deadline) go back to the front of the queue, and it is removed
    /// from the fleet. Returns how many jobs were handed back.
    pub async fn leave(&self) -> Result<u64, QueueError> {
        let (_, jobs) = self.store.hand_back(HandBack::Only(&self.name)).await?;
        metrics().handed_back("shutdown", jobs);
        Ok(jobs)
    }
}

fn metrics() -> &'static leadgen_core::telemetry::metrics::Metrics {
    leadgen_core::telemetry::metrics::metrics()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configured_name_wins_and_the_default_is_unique_per_process_start() {
        assert_eq!(worker_name(Some(" leadgen-worker-7d9f-x2 ")), "leadgen-worker-7d9f-x2");
        let (a, b) = (worker_name(None), worker_name(Some("  ")));
        assert_ne!(a, b, "two starts of one process get two names");
        let pid = format!("-{}-", std::process::id());
        assert!(a.contains(&pid), "{a} holds the pid");
        let suffix = a.rsplit('-').next().expect("suffix");
        assert_eq!(suffix.len(), 6);
        assert!(!a.contains(':'), "a name must not break Redis key formats");
    }
}
