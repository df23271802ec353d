//! Every job kind, listed once in `registry!` below. From that list come:
//!
//! - [`Queues`]: a producer per kind (the API pushes searches onto `queues.search`), and
//!   what every kind's queue holds ([`Queues::waiting`], for metrics);
//! - [`Sources`]: a consumer per kind, in-process ([`in_process`]) or on Redis
//!   ([`redis_sources`]), which [`crate::run`] turns into one apalis worker per kind;
//! - [`QUEUES`]: the queue names, which the Helm chart's KEDA triggers must list (a test
//!   below reads the chart).

use std::sync::Arc;

use apalis::prelude::*;
use futures_util::{FutureExt, future::BoxFuture};
use leadgen_core::{CoreResult, jobs::JobPayload};

use apalis::layers::WorkerBuilderExt;
use apalis_core::worker::ext::parallelize::ParallelizeExt;
use tokio_util::task::AbortOnDropHandle;

use super::{
    Job, delivery::DeliveryJob, enrich::EnrichJob, prune::PruneJob, schedule::ScheduleJob, search::SearchJob,
    webhook::WebhookJob,
};
use crate::{
    JobQueue, JobSource, RunningJobs, WorkerDeps, WorkerSettings,
    fleet::Fleet,
    queue::{self},
};

macro_rules! registry {
    ($($kind:ident: $job:ty),+ $(,)?) => {
        /// Producers, one per job kind.
        #[derive(Clone)]
        pub struct Queues {
            $(
                #[doc = concat!("Pushes `", stringify!($kind), "` jobs.")]
                pub $kind: JobQueue<<$job as Job>::Payload>,
            )+
        }

        /// One worker's consumers, one per job kind.
        pub struct Sources {
            $(
                #[doc = concat!("Takes `", stringify!($kind), "` jobs.")]
                pub $kind: JobSource<<$job as Job>::Payload>,
            )+
        }

        /// Every kind's queue name (after `LEADGEN_REDIS_PREFIX.`).
        pub const QUEUES: &[&str] = &[$(<<$job as Job>::Payload as JobPayload>::QUEUE),+];

        /// In-process queues: the producers and their consumers' sources (embedded mode).
        pub fn in_process() -> (Queues, Sources) {
            $(let $kind = queue::in_process::<<$job as Job>::Payload>();)+
            (Queues { $($kind: $kind.0,)+ }, Sources { $($kind: $kind.1,)+ })
        }

        /// Producers on the Redis at `url` (one connection, shared).
        pub async fn redis(url: &str, prefix: &str) -> CoreResult<Queues> {
            let conn = queue::connect(url).await?;
            Ok(Queues { $($kind: queue::on_redis(conn.clone(), prefix),)+ })
        }

        /// A worker's consumers on the Redis at `url` (one connection, shared, and a
        /// subscription per kind for its push notices).
        pub async fn redis_sources(url: &str, prefix: &str) -> CoreResult<Sources> {
            let conn = queue::connect(url).await?;
            Ok(Sources { $($kind: queue::redis_source(url, conn.clone(), prefix)?,)+ })
        }

        impl Queues {
            /// What waits in every kind's queue, for metrics; a kind whose store does not
            /// answer is left out.
            pub async fn waiting(&self) -> Vec<Waiting> {
                let mut all = Vec::new();
                $(
                    if let (Ok(depth), Ok(oldest_age_secs)) = (self.$kind.depth().await, self.$kind.oldest_age_secs().await) {
                        all.push(Waiting {
                            queue: <<$job as Job>::Payload as JobPayload>::QUEUE,
                            depth,
                            oldest_age_secs,
                        });
                    }
                )+
                all
            }
        }

        impl Sources {
            /// One apalis worker per kind.
            pub(crate) fn into_workers(self, run: &KindRun) -> Vec<KindWorker> {
                vec![$(run.worker::<$job>(self.$kind),)+]
            }
        }
    };
}

registry! {
    search: SearchJob,
    webhook: WebhookJob,
    enrich: EnrichJob,
    prune: PruneJob,
    delivery: DeliveryJob,
    schedule: ScheduleJob,
}

/// What waits in one kind's queue ([`Queues::waiting`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Waiting {
    /// The kind's queue name (`search.v1`).
    pub queue: &'static str,
    /// Jobs waiting, ready or delayed for a retry.
    pub depth: i64,
    /// Seconds the longest-waiting one has waited for a worker; 0 when none waits.
    pub oldest_age_secs: f64,
}

impl Queues {
    /// Sets the queue gauges (`leadgen_queue_depth{queue}`,
    /// `leadgen_queue_oldest_age_seconds{queue}`) from every kind's queue, as a scrape
    /// reads them.
    pub async fn report_metrics(&self) {
        let metrics = leadgen_core::telemetry::metrics::metrics();
        for waiting in self.waiting().await {
            metrics.queue_waiting(waiting.queue, waiting.depth, waiting.oldest_age_secs);
        }
    }
}

/// One apalis worker taking `J` jobs from `consumer` until the run stops taking jobs.
fn consume<J: Job>(
    consumer: queue::Consumer<J::Payload>,
    name: &str,
    concurrency: usize,
    deps: Arc<WorkerDeps>,
    running: RunningJobs,
    mut stopping: tokio::sync::watch::Receiver<bool>,
) -> BoxFuture<'static, anyhow::Result<()>> {
    let handler = |payload: J::Payload, deps: Data<Arc<WorkerDeps>>, running: Data<RunningJobs>| async move {
        let _slot = running.enter();
        J::run(payload, Arc::clone(&deps))
            .await
            .map_err(super::JobError::into_apalis)
    };
    let stop = async move {
        let _ = stopping.wait_for(|stop| *stop).await;
        Ok::<(), std::io::Error>(())
    };
    WorkerBuilder::new(name)
        .backend(consumer)
        .concurrency(concurrency)
        .retry(J::retry(&deps))
        .data(deps)
        .data(running)
        .parallelize(spawn_aborting_on_drop)
        .build(handler)
        .run_until(stop)
        .map(|r| r.map_err(anyhow::Error::from))
        .boxed()
}

/// Runs one job in a task of its own, so a worker's jobs spread over every core: apalis
/// otherwise polls them all inside its consumer's one task, where a queued search ran at a
/// quarter of the speed of the same search called directly (docs/benchmarks.md, (b)). The
/// handle aborts the job when dropped, so a consumer that is dropped (its worker gone, or
/// restarted after its store failed) still stops its jobs, as it did when they were its
/// own futures; the takeover tests rely on that.
fn spawn_aborting_on_drop<F>(job: F) -> AbortOnDropHandle<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    AbortOnDropHandle::new(tokio::spawn(job))
}

/// How long a kind's consumer waits before trying its store again after a failure.
const RESTART_PAUSE: std::time::Duration = std::time::Duration::from_millis(500);

/// What every kind's worker of one run shares.
pub(crate) struct KindRun {
    pub settings: WorkerSettings,
    pub deps: Arc<WorkerDeps>,
    pub running: RunningJobs,
    /// Turns true when the worker should stop taking jobs.
    pub stopping: tokio::sync::watch::Receiver<bool>,
}

/// One kind's apalis worker, and its fleet bookkeeping.
pub(crate) struct KindWorker {
    pub run: BoxFuture<'static, anyhow::Result<()>>,
    pub fleet: Fleet,
}

impl KindRun {
    fn worker<J: Job>(&self, source: JobSource<J::Payload>) -> KindWorker {
        let name = self.settings.name.clone();
        let fleet = Fleet::new(source.store().clone(), &name);
        let concurrency = J::concurrency(&self.settings);
        let (deps, running) = (self.deps.clone(), self.running.clone());
        let stopping = self.stopping.clone();
        let supervisor_fleet = fleet.clone();
        // apalis ends a worker whose poll fails (Redis restarted or unreachable). Rather
        // than let the process die (and Kubernetes restart it with a growing back-off),
        // start its consumer again on the same, reconnecting connection, once the store
        // answers.
        let run = async move {
            loop {
                let consumer = source.consumer(&name);
                let outcome =
                    consume::<J>(consumer, &name, concurrency, deps.clone(), running.clone(), stopping.clone()).await;
                let error = match outcome {
                    Ok(()) => return Ok(()),
                    Err(_) if *stopping.borrow() => return Ok(()),
                    Err(error) => error,
                };
                tracing::warn!(%error, queue = J::Payload::QUEUE, "the job queue failed; taking jobs again once it answers");
                loop {
                    tokio::time::sleep(RESTART_PAUSE).await;
                    if *stopping.borrow() {
                        return Ok(());
                    }
                    // What this consumer held goes back to the queue (it resumes from its
                    // checkpoint).
                    match supervisor_fleet.reclaim_own_name().await {
                        Ok(_) => break,
                        Err(error) => tracing::debug!(%error, "the job queue is still away"),
                    }
                }
            }
        }
        .boxed();
        KindWorker { run, fleet }
    }
}

#[cfg(test)]
mod tests {
    use std::{
        sync::atomic::{AtomicUsize, Ordering},
        time::Duration,
    };

    use serde::{Deserialize, Serialize};

    use super::*;
    use crate::jobs::JobError;

    /// A job that fails as told, counting its attempts.
    #[derive(Debug, Clone, Serialize, Deserialize)]
    struct Probe {
        permanent: bool,
    }

    impl JobPayload for Probe {
        const QUEUE: &'static str = "probe.v1";
    }

    static PERMANENT_RUNS: AtomicUsize = AtomicUsize::new(0);
    static RETRY_RUNS: AtomicUsize = AtomicUsize::new(0);

    struct ProbeJob;

    impl Job for ProbeJob {
        type Payload = Probe;

        async fn run(payload: Probe, _deps: Arc<WorkerDeps>) -> Result<(), JobError> {
            if payload.permanent {
                PERMANENT_RUNS.fetch_add(1, Ordering::SeqCst);
                return Err(JobError::Permanent("bad input: retrying cannot help".into()));
            }
            // Fails once, as a briefly unavailable dependency would, then succeeds.
            match RETRY_RUNS.fetch_add(1, Ordering::SeqCst) {
                0 => Err(JobError::Retry("the store is briefly away".into())),
                _ => Ok(()),
            }
        }
    }

    #[test]
    fn the_charts_keda_triggers_watch_every_kind_in_the_registry() {
        let helpers = include_str!("../../../helm/leadgen/templates/_helpers.tpl");
        let listed = helpers
            .split("{{- define \"leadgen.jobQueues\" -}}")
            .nth(1)
            .and_then(|rest| rest.lines().nth(1))
            .expect("leadgen.jobQueues in _helpers.tpl");
        assert_eq!(
            listed.split_whitespace().collect::<Vec<_>>(),
            QUEUES,
            "helm/leadgen/templates/_helpers.tpl lists the registry's queues"
        );
        // The keys KEDA reads are the ones our store keeps waiting jobs in.
        for key in ["ready", "delayed"] {
            assert!(
                helpers.contains(&format!("(printf \"%s.%s:{key}\" $prefix $kind)")),
                "{key}"
            );
        }
        assert_eq!(
            queue::queue_name("p", "k"),
            "p.k",
            "the chart's names are `{{prefix}}.{{kind}}`"
        );
    }

    fn redis_url() -> String {
        std::env::var("LEADGEN_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn permanent_failures_run_once_and_retryable_ones_run_again() {
        leadgen_core::install_crypto_provider();
        let data = std::env::temp_dir().join(format!("leadgen-registry-{}", uuid::Uuid::new_v4().simple()));
        let dir = data.display().to_string();
        let config =
            leadgen_core::config::Config::from_lookup(|name| (name == "LEADGEN_DATA_DIR").then(|| dir.clone()))
                .expect("config");
        let services = crate::wiring::Services::build(config).await.expect("services");
        let prefix = format!("leadgen-test-{}", uuid::Uuid::new_v4().simple());
        let conn = queue::connect(&redis_url()).await.expect("redis");
        let producer = queue::on_redis::<Probe>(conn.clone(), &prefix);
        producer.push(Probe { permanent: true }).await.expect("push");
        producer.push(Probe { permanent: false }).await.expect("push");

        let (stop, stopping) = tokio::sync::watch::channel(false);
        let run = KindRun {
            settings: WorkerSettings {
                name: "registry-test".into(),
                concurrency: 2,
                drain: Duration::from_secs(1),
            },
            deps: services.worker_deps(),
            running: RunningJobs::default(),
            stopping,
        };
        let source = queue::redis_source::<Probe>(&redis_url(), conn, &prefix).expect("source");
        let worker = tokio::spawn(run.worker::<ProbeJob>(source).run);
        for _ in 0..100 {
            if RETRY_RUNS.load(Ordering::SeqCst) >= 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Time for a wrongly retried permanent failure to show up too.
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let _ = stop.send(true);
        worker.abort();
        assert_eq!(
            RETRY_RUNS.load(Ordering::SeqCst),
            2,
            "a retryable failure runs again, once it succeeds no more"
        );
        assert_eq!(
            PERMANENT_RUNS.load(Ordering::SeqCst),
            1,
            "a permanent failure is never retried"
        );
        let _ = std::fs::remove_dir_all(&data);
    }
}
