//! `ScheduleJobV1`: start the saved searches that are due (issue #29 item 4), and the
//! timer that queues it ([`timer`], run by every worker beside its jobs). Also
//! [`start_run`], the one way a saved search's run starts, used by the API's
//! `run_saved_search` too.
//!
//! Exactly once: each due saved search is claimed with a conditional update
//! ([`leadgen_core::store::Store::claim_saved_run`]: `next_run_at` moves on only while it
//! still holds the value read), so however many workers tick at once each due run starts
//! once. The next run is computed from now, not from the missed one: runs missed while no
//! worker was up start once when the fleet is back. A run is a queued search like any
//! other: a worker that dies mid-run hands it back and another resumes it.
//!
//! Pacing: one tick starts at most [`Pacing::per_workspace`] runs of one workspace (one
//! Google key); the rest stay due and start on the next ticks, the longest overdue first
//! (a thousand saved searches due at 09:00 Monday on one key start over about 50 minutes,
//! on top of the key's own rate limit). See docs/decisions.md.

use std::{collections::HashMap, future::Future, sync::Arc, time::Duration};

use leadgen_core::{
    CoreError,
    audit::{self, Action},
    ids::{SearchId, UserId},
    jobs::{ScheduleJobV1, SearchJobV1},
    keys::KeyService,
    saved_search::{Schedule, run_options},
    search::ValidSearch,
    spend::{ClientLabel, SpendCap},
    store::{SavedSearchRecord, Store},
    time::now_unix,
    usage::UsageService,
};

use super::{Job, JobError};
use crate::{JobQueue, WorkerDeps, WorkerSettings};

/// How often each worker queues a scheduling tick by default (the fleet about this often:
/// a lease); `LEADGEN_SCHEDULER_TICK_SECS` sets it.
pub const EVERY: Duration = Duration::from_secs(30);
/// A run started later than this after it was due counts as `late`.
pub const LATE_AFTER_SECS: i64 = 120;

/// How many due runs one tick starts.
#[derive(Debug, Clone, Copy)]
pub struct Pacing {
    /// At most this many runs of one workspace (one Google key) a tick.
    pub per_workspace: usize,
    /// Due saved searches one tick reads (the longest overdue first).
    pub scan: i64,
}

impl Default for Pacing {
    fn default() -> Self {
        Self {
            per_workspace: 10,
            scan: 500,
        }
    }
}

/// What one tick did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TickOutcome {
    /// Runs started, with their searches.
    pub started: Vec<SearchId>,
    /// Runs claimed but refused (no key, allowance, spend cap, a saved search that no
    /// longer validates); the schedule moved on.
    pub refused: usize,
    /// Due runs left to the next tick by pacing.
    pub deferred: usize,
    /// Due runs another worker claimed first.
    pub lost: usize,
}

/// The scheduling job kind (see `registry`).
pub struct ScheduleJob;

impl Job for ScheduleJob {
    type Payload = ScheduleJobV1;

    async fn run(job: ScheduleJobV1, deps: Arc<WorkerDeps>) -> Result<(), JobError> {
        let runner = RunDeps {
            store: &deps.store,
            keys: &deps.keys,
            usage: &deps.usage,
            searches: &deps.searches,
        };
        let outcome = tick(&deps.store, now_unix(), Pacing::default(), |saved| async move {
            start_run(&runner, &saved, None).await
        })
        .await
        // Not retried: the next tick does the same.
        .map_err(|e| JobError::Permanent(format!("could not read due saved searches: {e}")))?;
        if !outcome.started.is_empty() || outcome.deferred > 0 || outcome.refused > 0 {
            tracing::info!(
                started = outcome.started.len(),
                refused = outcome.refused,
                deferred = outcome.deferred,
                lost = outcome.lost,
                queued_at = job.queued_at,
                "started due saved searches"
            );
        }
        Ok(())
    }

    fn concurrency(_settings: &WorkerSettings) -> usize {
        1
    }
}

/// One scheduling pass at `now`: reads what is due, claims each (at most
/// [`Pacing::per_workspace`] a workspace), and calls `start` for each claimed run. Never
/// starts a run another concurrent tick claimed.
pub async fn tick<F, Fut>(store: &Store, now: i64, pacing: Pacing, start: F) -> Result<TickOutcome, CoreError>
where
    F: Fn(SavedSearchRecord) -> Fut,
    Fut: Future<Output = Result<SearchId, RunRefused>>,
{
    let metrics = leadgen_core::telemetry::metrics::metrics();
    let due = store.due_saved_searches(now, pacing.scan).await?;
    let mut outcome = TickOutcome::default();
    let mut per_workspace: HashMap<String, usize> = HashMap::new();
    for saved in due {
        let Some(due_at) = saved.next_run_at else { continue };
        let taken = per_workspace.entry(saved.workspace_id.as_str().to_owned()).or_default();
        if *taken >= pacing.per_workspace {
            outcome.deferred += 1;
            metrics.saved_search_run("deferred");
            continue;
        }
        // From now: a window missed while nothing was up runs once, not once per miss.
        let next = stored_schedule(&saved).and_then(|s| s.next_after(now));
        if !store.claim_saved_run(&saved.id, due_at, next).await? {
            outcome.lost += 1;
            continue;
        }
        *taken += 1;
        match start(saved.clone()).await {
            Ok(search_id) => {
                metrics.saved_search_run(if now - due_at > LATE_AFTER_SECS {
                    "late"
                } else {
                    "on_time"
                });
                outcome.started.push(search_id);
            }
            Err(refused) => {
                metrics.saved_search_run("refused");
                tracing::warn!(saved_search = %saved.id.as_str(), reason = %refused, "a scheduled run could not start");
                outcome.refused += 1;
            }
        }
    }
    Ok(outcome)
}

/// The saved search's schedule, if it has one that still parses.
fn stored_schedule(saved: &SavedSearchRecord) -> Option<Schedule> {
    let (cron, zone) = (saved.cron.as_deref()?, saved.time_zone.as_deref()?);
    Schedule::parse(cron, zone, 0).ok()
}

/// What starting a run needs (the API's state and a worker's deps both have it).
#[derive(Clone, Copy)]
pub struct RunDeps<'a> {
    /// The store.
    pub store: &'a Store,
    /// Whether the workspace has a key.
    pub keys: &'a KeyService,
    /// The allowance.
    pub usage: &'a UsageService,
    /// Where the run's search is queued.
    pub searches: &'a JobQueue<SearchJobV1>,
}

/// Why a run did not start.
#[derive(Debug, thiserror::Error)]
pub enum RunRefused {
    /// The workspace has no Google key.
    #[error("this workspace has no Google Places key")]
    NoKey,
    /// The workspace's monthly spend cap is reached.
    #[error("this workspace's monthly spend cap is reached")]
    SpendCap(SpendCap),
    /// The allowance is used up (the message says which and until when).
    #[error("{0}")]
    Usage(String),
    /// Nobody to run it as: its creator's account is gone.
    #[error("the saved search's creator no longer has an account")]
    NoCreator,
    /// The store failed, or the stored search no longer reads.
    #[error(transparent)]
    Core(#[from] CoreError),
}

/// Starts a run of `saved` as `as_user` (its creator when `None`: a scheduled run): the
/// same steps as a queued search (key, spend cap, allowance, history row, queue), with the
/// history row linked to the saved search and recorded as its last run; audited as
/// `saved_search_run`. Answers the run's search id: its events stream on the usual
/// `GET /api/leads/searches/{id}/events`, and what it found is that search's.
pub async fn start_run(
    deps: &RunDeps<'_>,
    saved: &SavedSearchRecord,
    as_user: Option<&UserId>,
) -> Result<SearchId, RunRefused> {
    let workspace = &saved.workspace_id;
    let user = as_user
        .or(saved.created_by.as_ref())
        .ok_or(RunRefused::NoCreator)?
        .clone();
    let search: ValidSearch = serde_json::from_str(&saved.search)
        .map_err(|e| CoreError::Internal(format!("saved search {} does not read: {e}", saved.id.as_str())))?;
    let search = run_options(search, saved.only_new == 1);
    let client = saved.client.as_deref().map(ClientLabel::parse).transpose()?;
    if !deps.keys.status(workspace).await?.has_key {
        return Err(RunRefused::NoKey);
    }
    if let Some(cap_cents) = deps.store.spend_cap_cents(workspace).await? {
        let month = leadgen_core::usage::periods(chrono::Utc::now()).month;
        let cap = SpendCap::new(cap_cents, deps.store.month_spend_usd(workspace, &month, None).await?);
        if cap.reached() {
            return Err(RunRefused::SpendCap(cap));
        }
    }
    let reservation = deps
        .usage
        .reserve(
            workspace,
            &user,
            deps.store.tier(workspace).await?,
            search.business().value,
        )
        .await?
        .map_err(|denied| RunRefused::Usage(denied.to_string()))?;
    let search_id = reservation.search_id;
    // A run always keeps going without a screen: it is watched, if at all, by reconnecting.
    deps.store
        .describe_search(workspace, &search_id, &search, true, client.as_ref())
        .await?;
    deps.store.record_saved_run(workspace, &saved.id, &search_id).await?;
    deps.searches
        .push(SearchJobV1 {
            search_id: search_id.clone(),
            user_id: user.clone(),
            workspace_id: Some(workspace.clone()),
            search,
            lead_budget: reservation.lead_budget,
            saved_run: Some(true),
        })
        .await?;
    tracing::info!(%search_id, saved_search = %saved.id.as_str(), "saved search run queued");
    audit::record(
        deps.store,
        workspace,
        as_user,
        Action::SavedSearchRun,
        saved.id.as_str(),
        serde_json::json!({"searchId": search_id, "name": saved.name, "scheduled": as_user.is_none()}),
    )
    .await;
    Ok(search_id)
}

/// When the fleet ticks.
#[derive(Clone)]
pub struct ScheduleTimer {
    /// Where ticks are queued.
    pub queue: JobQueue<ScheduleJobV1>,
    /// The period between ticks.
    pub every: Duration,
}

impl ScheduleTimer {
    /// The production timer ([`EVERY`]) on `queue`.
    pub fn new(queue: JobQueue<ScheduleJobV1>) -> Self {
        Self { queue, every: EVERY }
    }

    /// The same timer ticking every `every` (`LEADGEN_SCHEDULER_TICK_SECS`).
    pub fn every(self, every: Duration) -> Self {
        Self { every, ..self }
    }

    /// A tenth less than the period, as the pruning's lease (see `prune.rs`).
    fn lease(&self) -> Duration {
        self.every.saturating_sub(self.every / 10).max(Duration::from_millis(1))
    }
}

/// Queues [`ScheduleJobV1`] every [`ScheduleTimer::every`], unless another worker did
/// within the lease. Never returns.
pub async fn timer(timer: ScheduleTimer) {
    let mut ticks = tokio::time::interval(timer.every.max(Duration::from_millis(1)));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        queue_tick(&timer).await;
    }
}

/// What the API runs beside the fleet (distributed mode): every period, when a saved
/// search is due, queues a scheduling tick within the same lease as the workers' timer.
/// With workers up, their timer has taken the lease and this queues nothing more; with
/// the fleet scaled to zero (KEDA's `minReplicas: 0`), nothing else would ever queue a
/// tick, and the waiting tick is what makes KEDA start a worker to run it. Nothing due,
/// nothing queued, so an idle fleet stays at zero. Never returns.
pub async fn wake_when_due(store: Store, timer: ScheduleTimer) {
    let mut ticks = tokio::time::interval(timer.every.max(Duration::from_millis(1)));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match store.saved_search_due(now_unix()).await {
            Ok(true) => queue_tick(&timer).await,
            Ok(false) => {}
            Err(error) => tracing::warn!(%error, "could not read whether a saved search is due; trying next period"),
        }
    }
}

/// Queues one scheduling tick unless another process did within the lease.
async fn queue_tick(timer: &ScheduleTimer) {
    let job = ScheduleJobV1 { queued_at: now_unix() };
    match timer.queue.push_once_per(job, timer.lease()).await {
        Ok(true) => tracing::trace!("queued a scheduling tick"),
        Ok(false) => tracing::trace!("another process queued this scheduling tick"),
        Err(error) => tracing::warn!(%error, "could not queue a scheduling tick; trying next period"),
    }
}
