//! `PruneJobV1`: delete expired session records, abandoned sign-ins, invitations long
//! expired, audit events past their retention and area plans past the plan memory's
//! window (`LEADGEN_PLAN_MEMORY_DAYS`), and the schedule
//! that queues it ([`schedule`], run by every worker beside its jobs).
//!
//! Several workers run the schedule. Each tick takes the queue's lease first
//! ([`JobQueue::push_once_per`], in Redis in distributed mode), so the fleet queues one job
//! a period however many workers there are and however often they restart; a duplicate
//! that slipped through would cost one indexed `DELETE` that finds nothing. Embedded mode
//! has one worker, whose in-process lease (the same rule) never holds up its own ticks.

use std::{sync::Arc, time::Duration};

use leadgen_core::{jobs::PruneJobV1, time::now_unix};

use super::{Job, JobError};
use crate::{JobQueue, WorkerDeps, WorkerSettings};

/// The first pruning after a worker starts: soon, but not in the way of its start.
pub const FIRST_AFTER: Duration = Duration::from_secs(30);
/// Then this often.
pub const EVERY: Duration = Duration::from_secs(3600);

/// The store pruning job kind (see `registry`).
pub struct PruneJob;

impl Job for PruneJob {
    type Payload = PruneJobV1;

    async fn run(job: PruneJobV1, deps: Arc<WorkerDeps>) -> Result<(), JobError> {
        // Not retried here: the next period's job does the same work.
        let sessions = deps
            .store
            .prune_sessions()
            .await
            .map_err(|e| JobError::Permanent(format!("could not prune sessions: {e}")))?;
        let sign_ins = deps
            .store
            .prune_login_attempts()
            .await
            .map_err(|e| JobError::Permanent(format!("could not prune sign-ins: {e}")))?;
        let invitations = deps
            .store
            .prune_invitations()
            .await
            .map_err(|e| JobError::Permanent(format!("could not prune invitations: {e}")))?;
        let audit_events = deps
            .store
            .prune_audit_events(deps.prune.audit_retention_days)
            .await
            .map_err(|e| JobError::Permanent(format!("could not prune audit events: {e}")))?;
        let area_plans = deps
            .store
            .prune_area_plans(deps.prune.plan_memory_days)
            .await
            .map_err(|e| JobError::Permanent(format!("could not prune area plans: {e}")))?;
        let estimate_probes = deps
            .store
            .prune_estimate_probes(leadgen_core::search::PROBES_KEPT)
            .await
            .map_err(|e| JobError::Permanent(format!("could not prune estimate probes: {e}")))?;
        tracing::info!(
            sessions,
            sign_ins,
            invitations,
            audit_events,
            area_plans,
            estimate_probes,
            queued_at = job.queued_at,
            "pruned expired sessions, sign-ins, invitations, old audit events, area plans and estimate probes"
        );
        Ok(())
    }

    fn concurrency(_settings: &WorkerSettings) -> usize {
        1
    }
}

/// When the fleet prunes the store.
#[derive(Clone)]
pub struct PruneSchedule {
    /// Where the job is queued.
    pub queue: JobQueue<PruneJobV1>,
    /// The first tick after the worker starts.
    pub first_after: Duration,
    /// The period between ticks.
    pub every: Duration,
    /// Audit events older than this many days are pruned (`LEADGEN_AUDIT_RETENTION_DAYS`).
    pub audit_retention_days: u32,
    /// Area plans older than this many days are pruned (`LEADGEN_PLAN_MEMORY_DAYS`; 0:
    /// all, the memory is off).
    pub plan_memory_days: u32,
}

impl PruneSchedule {
    /// The production schedule ([`FIRST_AFTER`], [`EVERY`]) on `queue`.
    pub fn new(queue: JobQueue<PruneJobV1>) -> Self {
        Self {
            queue,
            first_after: FIRST_AFTER,
            every: EVERY,
            audit_retention_days: leadgen_core::audit::DEFAULT_RETENTION_DAYS,
            plan_memory_days: leadgen_core::config::DEFAULT_PLAN_MEMORY_DAYS,
        }
    }

    /// This schedule, keeping area plans `days` days (0: none).
    pub fn keeping_area_plans(mut self, days: u32) -> Self {
        self.plan_memory_days = days;
        self
    }

    /// This schedule, keeping audit events `days` days.
    pub fn keeping_audit_events(mut self, days: u32) -> Self {
        self.audit_retention_days = days;
        self
    }

    /// How long one tick's lease holds off the other workers: a tenth less than the
    /// period, so that the worker which queued last time finds its own lease gone at its
    /// next tick (timers drift), and the fleet prunes about once a period, never twice.
    fn lease(&self) -> Duration {
        self.every.saturating_sub(self.every / 10).max(Duration::from_millis(1))
    }
}

/// Queues [`PruneJobV1`] after [`PruneSchedule::first_after`], then every
/// [`PruneSchedule::every`], unless another worker did within the lease. Never returns.
pub async fn schedule(schedule: PruneSchedule) {
    tokio::time::sleep(schedule.first_after).await;
    let mut ticks = tokio::time::interval(schedule.every.max(Duration::from_millis(1)));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let job = PruneJobV1 { queued_at: now_unix() };
        match schedule.queue.push_once_per(job, schedule.lease()).await {
            Ok(true) => tracing::debug!("queued the store's pruning"),
            Ok(false) => tracing::debug!("another worker queued the store's pruning"),
            Err(error) => tracing::warn!(%error, "could not queue the store's pruning; trying next period"),
        }
    }
}
