//! Leadgen's search workers: the job handler, the job queue in both modes, the per-key
//! rate limit and the fleet's bookkeeping. `leadgen-worker` runs them as a process; the
//! API links this crate to run them in-process in embedded mode.

pub mod enrichment;
pub mod fleet;
pub mod jobs;
pub mod ops_server;
pub mod queue;
pub mod rate_limit;
pub mod wiring;

use std::{
    future::Future,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use leadgen_core::{bus::EventBus, keys::KeyService, places::PlacesClient, store::Store, usage::UsageService};

pub use jobs::registry::{Queues, Sources};
pub use queue::{JobQueue, JobSource};
pub use rate_limit::KeyRateGate;

/// What a search job needs.
pub struct WorkerDeps {
    /// Users and search records.
    pub store: Store,
    /// Opens users' Places keys.
    pub keys: KeyService,
    /// Google Places.
    pub places: PlacesClient,
    /// The completeness meter's count (Places Aggregate API); none when it is off.
    pub aggregate: Option<leadgen_core::places::AggregateClient>,
    /// Whether a full search fetches by id the places Google counts that its pages
    /// missed (`LEADGEN_COMPLETENESS_FETCH_MISSING`; only with the meter on).
    pub fetch_missing: bool,
    /// Days a full search's area plan is remembered (`LEADGEN_PLAN_MEMORY_DAYS`; 0: off).
    pub plan_memory_days: u32,
    /// Where events go.
    pub bus: EventBus,
    /// Usage reports for `complete`.
    pub usage: UsageService,
    /// Per-key rate limit.
    pub gate: KeyRateGate,
    /// Prices of Google's SKUs, for what searches cost.
    pub prices: leadgen_core::search::PriceTable,
    /// Opens webhook signing secrets.
    pub vault: Arc<leadgen_core::vault::Vault>,
    /// The guarded client webhook deliveries go through (and nothing else).
    pub outbound: leadgen_core::outbound::GuardedClient,
    /// Where a finished search's webhook messages are queued.
    pub webhooks: JobQueue<leadgen_core::jobs::WebhookJobV1>,
    /// How deliveries are timed and retried.
    pub webhook_schedule: leadgen_core::webhooks::DeliverySchedule,
    /// Reads leads' websites (enrichment jobs), through the guarded outbound client.
    pub crawler: leadgen_core::enrich::Crawler,
    /// Where an enriched search queues its leads' websites.
    pub enrich_queue: JobQueue<leadgen_core::jobs::EnrichJobV1>,
    /// Where a finished search's automatic delivery is queued.
    pub deliveries: JobQueue<leadgen_core::jobs::DeliveryJobV1>,
    /// Google Sheets, for deliveries to a spreadsheet.
    pub sheets: leadgen_core::sheets::SheetsService,
    /// Outgoing mail, for deliveries by email; `None` when not configured.
    pub mailer: Option<leadgen_core::delivery::Mailer>,
    /// When [`run`] queues the store's pruning (expired sessions and sign-ins).
    pub prune: jobs::prune::PruneSchedule,
    /// Where a saved search's run is queued (the scheduler's runs).
    pub searches: JobQueue<leadgen_core::jobs::SearchJobV1>,
    /// When [`run`] queues the scheduler's ticks (saved searches that are due).
    pub schedule: jobs::schedule::ScheduleTimer,
}

/// How one worker runs.
#[derive(Debug, Clone)]
pub struct WorkerSettings {
    /// Its name in the fleet (see [`fleet::worker_name`]).
    pub name: String,
    /// Searches it runs at once.
    pub concurrency: usize,
    /// After the shutdown signal, how long running searches get to finish before they
    /// are handed back to the queue for another worker to resume.
    pub drain: Duration,
}

/// Jobs one worker is running now (the process-wide gauge counts every worker of a
/// process; tests run several in one).
#[derive(Clone, Default)]
pub struct RunningJobs(Arc<AtomicUsize>);

impl RunningJobs {
    /// Counts a job until the returned guard is dropped.
    pub fn enter(&self) -> RunningJob {
        self.0.fetch_add(1, Ordering::SeqCst);
        RunningJob(self.0.clone())
    }

    /// How many run now.
    pub fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }
}

/// One running job (see [`RunningJobs::enter`]).
pub struct RunningJob(Arc<AtomicUsize>);

impl Drop for RunningJob {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How a worker's run ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stopped {
    /// Searches still running at the drain deadline, handed back to the queue.
    pub handed_back: u64,
}

/// Runs every job kind's worker from `sources` until `shutdown` resolves; then stops
/// taking jobs, lets running ones finish for up to `settings.drain`, and leaves the
/// fleet, handing back at the front of each queue whatever did not finish, to resume
/// elsewhere (a search from its checkpoint).
///
/// The fleet's housekeeping ([`fleet::Fleet::tick`]) runs inside this future: a worker
/// that is dropped or aborted (a crash, as tests make one) stops beating at once, and the
/// other workers take over its jobs. So do the schedule that queues the store's pruning
/// ([`jobs::prune::schedule`]) and the saved searches' scheduler's timer
/// ([`jobs::schedule::timer`]).
pub async fn run(
    settings: &WorkerSettings,
    deps: Arc<WorkerDeps>,
    sources: Sources,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<Stopped> {
    let running = RunningJobs::default();
    let prune = deps.prune.clone();
    let schedule = deps.schedule.clone();
    let (stopping_tx, stopping) = tokio::sync::watch::channel(false);
    let kinds = sources.into_workers(&jobs::registry::KindRun {
        settings: settings.clone(),
        deps,
        running: running.clone(),
        stopping,
    });
    let fleets: Vec<fleet::Fleet> = kinds.iter().map(|k| k.fleet.clone()).collect();
    for fleet in &fleets {
        let reclaimed = fleet.reclaim_own_name().await?;
        if reclaimed > 0 {
            tracing::warn!(
                reclaimed,
                queue = fleet.queue(),
                "an earlier process with this name left jobs behind; they go back to the queue"
            );
        }
    }
    // Stop taking jobs on the signal; then wait for the running ones, at most `drain`.
    // (apalis' run does not always return once stopped, so the wait does not rely on it.)
    let drained = {
        let running = running.clone();
        let drain = settings.drain;
        async move {
            shutdown.await;
            let _ = stopping_tx.send(true);
            let deadline = tokio::time::Instant::now() + drain;
            while running.count() > 0 && tokio::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    let workers = futures_util::future::try_join_all(kinds.into_iter().map(|k| k.run));
    // Never ends while polled.
    let housekeeping = async {
        futures_util::future::join3(
            futures_util::future::join_all(fleets.iter().map(|f| f.housekeeping())),
            jobs::prune::schedule(prune),
            jobs::schedule::timer(schedule),
        )
        .await;
        std::future::pending::<()>().await;
    };
    tokio::select! {
        result = workers => { result?; }
        () = drained => {}
        () = housekeeping => {}
    }
    let still_running = running.count();
    let mut handed_back = 0;
    for fleet in &fleets {
        handed_back += fleet.leave().await?;
    }
    if handed_back > 0 || still_running > 0 {
        tracing::warn!(
            still_running,
            handed_back,
            "stopped with jobs unfinished; they resume on another worker"
        );
    }
    Ok(Stopped { handed_back })
}
