//! Job queues, one per job kind: apalis on Redis in distributed mode, apalis' in-memory
//! storage in embedded mode. The producer half ([`JobQueue`]) is cheap to clone; each
//! worker gets a consumer half ([`JobSource`]). Both are generic over the payload
//! ([`JobPayload`]); which kinds exist is `jobs::registry`'s business.

use apalis::prelude::*;
use apalis_core::{
    backend::ext::poll_strategy::{IntervalStrategy, PollWith},
    task::task_id::{RandomId, TaskId},
};
use apalis_redis::{Config, RedisStorage};
use futures_util::SinkExt;
use leadgen_core::{
    CoreError, CoreResult,
    jobs::{JobPayload, SEARCH_QUEUE},
};

/// Pushes jobs of one kind.
pub enum JobQueue<P: JobPayload> {
    /// Embedded mode: the raw channel, not apalis' `MemorySink`, whose `start_send` does
    /// `try_lock().unwrap()` on a mutex that concurrent pushes and the worker's
    /// `poll_ready` also take, and so fails under a multi-threaded runtime.
    Memory(
        futures_channel::mpsc::UnboundedSender<Task<P>>,
        /// Jobs pushed and not yet taken by the worker.
        std::sync::Arc<std::sync::atomic::AtomicI64>,
    ),
    /// Distributed mode (boxed: the storage is large and the enum is cloned per push).
    Redis(Box<RedisStorage<P>>),
}

impl<P: JobPayload> Clone for JobQueue<P> {
    fn clone(&self) -> Self {
        match self {
            Self::Memory(sender, pending) => Self::Memory(sender.clone(), pending.clone()),
            Self::Redis(storage) => Self::Redis(storage.clone()),
        }
    }
}

/// A Redis queue consumer that looks for new jobs every [`IDLE_POLL`] while idle.
///
/// apalis-redis 1.0 also offers a pub/sub wake-up (`RedisStorageFactory`), but in our
/// measurements an idle worker was not woken by it (its pattern subscription was live, yet
/// jobs waited for the next heartbeat, about 2 s): see docs/benchmarks.md. Polling an
/// empty list is one cheap Lua call, about 50 a second per idle worker.
pub type RedisSource<P> = PollWith<RedisStorage<P>, IntervalStrategy>;

/// Tries to queue a job before the API answers 503, and the pause between them.
const PUSH_ATTEMPTS: u32 = 3;
const PUSH_RETRY_PAUSE: std::time::Duration = std::time::Duration::from_millis(200);

/// How often an idle worker asks Redis for a job.
pub const IDLE_POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// Where a worker takes jobs of one kind from.
pub enum JobSource<P: JobPayload> {
    /// Embedded mode.
    Memory(MemoryStorage<P>),
    /// Distributed mode.
    Redis(RedisJobSource<P>),
}

/// A worker's side of a Redis queue, with what the fleet's bookkeeping needs.
pub struct RedisJobSource<P: JobPayload> {
    /// The polling consumer (boxed: large).
    pub source: Box<RedisSource<P>>,
    /// A connection for the fleet's bookkeeping.
    pub conn: redis::aio::ConnectionManager,
    /// `LEADGEN_REDIS_PREFIX`.
    pub prefix: String,
}

/// An in-process queue: the producer and its one consumer.
pub fn memory<P: JobPayload>() -> (JobQueue<P>, JobSource<P>) {
    let (sender, receiver) = futures_channel::mpsc::unbounded::<Task<P>>();
    let pending = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(0));
    let taken = pending.clone();
    let receiver = futures_util::StreamExt::inspect(receiver, move |_| {
        taken.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    });
    // The worker's storage gets a sink of its own (it only polls it for readiness), so
    // nothing it locks is shared with the producer.
    let sink: Box<dyn futures_util::Sink<Task<P>, Error = MemoryStorageError> + Send + Sync + Unpin> =
        Box::new(sender.clone().sink_map_err(MemoryStorageError::SendError));
    let worker_sink = MemorySink::new(std::sync::Arc::new(futures_util::lock::Mutex::new(sink)));
    let storage = MemoryStorage::new_with(worker_sink, Box::pin(receiver));
    (JobQueue::Memory(sender, pending), JobSource::Memory(storage))
}

/// The Redis name of job queue `queue` (a [`JobPayload::QUEUE`]) under `prefix`.
pub fn queue_name(prefix: &str, queue: &str) -> String {
    format!("{prefix}.{queue}")
}

/// Where apalis-redis keeps waiting jobs: a push lands in the sorted set
/// `{queue}:scheduled` (due now), and a worker's fetch moves due jobs to the list
/// `{queue}:active` before claiming them. Their sizes together are the queue depth that
/// metrics report and the worker autoscaler (KEDA, one trigger per key) reads.
pub fn waiting_keys(prefix: &str) -> (String, String) {
    let queue = queue_name(prefix, SEARCH_QUEUE);
    (format!("{queue}:scheduled"), format!("{queue}:active"))
}

/// Search jobs waiting in Redis (see [`waiting_keys`]).
pub async fn redis_depth(conn: &mut redis::aio::ConnectionManager, prefix: &str) -> redis::RedisResult<i64> {
    let (scheduled, active) = waiting_keys(prefix);
    let (due, ready): (i64, i64) = redis::pipe()
        .cmd("ZCARD")
        .arg(&scheduled)
        .cmd("LLEN")
        .arg(&active)
        .query_async(conn)
        .await?;
    Ok(due + ready)
}

/// How often apalis beats a worker's heart (the fleet's housekeeping beats too, see
/// `fleet::Fleet::tick`).
pub const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(1);

/// The apalis settings of queue `queue` under `prefix`.
pub fn config(prefix: &str, queue: &str) -> Config {
    Config::default()
        .queue(queue_name(prefix, queue))
        // One job per fetch: a worker claims only what it is about to run, so idle
        // workers (and new ones the autoscaler adds) share the queue, and a stopping worker
        // holds no claimed-but-unstarted jobs.
        .batch_size(1)
        .heartbeat_interval(HEARTBEAT)
        // apalis' own re-queue of silent workers' jobs (to the back of the queue) comes
        // after the fleet's (to the front, after `fleet::DEAD_AFTER`), so it finds none.
        .missed_heartbeats(10)
        // Its pub/sub notices go to channels outside our prefix, and nobody reads them.
        .emit_events(false)
}

/// The producer side of the Redis queue of `P`, named `{prefix}.{P::QUEUE}`.
pub async fn redis<P: JobPayload>(url: &str, prefix: &str) -> CoreResult<RedisStorage<P>> {
    let conn = apalis_redis::connect(url)
        .await
        .map_err(|e| CoreError::Internal(format!("connecting the job queue to Redis: {e}")))?;
    Ok(RedisStorage::new(conn).with_config(config(prefix, P::QUEUE)))
}

/// A worker's side of the Redis queue of `P`. Workers that die mid-job have their jobs
/// handed back by the rest of the fleet once their heartbeats stop (see `fleet`).
pub async fn redis_source<P: JobPayload>(url: &str, prefix: &str) -> CoreResult<JobSource<P>> {
    let mut storage = redis::<P>(url, prefix).await?;
    let conn = storage.get_connection().clone();
    Ok(JobSource::Redis(redis_source_on(conn, prefix)))
}

/// A consumer of the Redis queue of `P` on an existing connection (it reconnects by
/// itself): what a worker starts again with after its consumer died of a Redis failure.
pub fn redis_source_on<P: JobPayload>(conn: redis::aio::ConnectionManager, prefix: &str) -> RedisJobSource<P> {
    let storage = RedisStorage::new(conn.clone()).with_config(config(prefix, P::QUEUE));
    RedisJobSource {
        source: Box::new(storage.poll_with_interval(IDLE_POLL)),
        conn,
        prefix: prefix.to_owned(),
    }
}

impl<P: JobPayload> JobQueue<P> {
    /// Jobs waiting in the in-process queue; `None` for Redis (read its list instead).
    pub fn pending_in_process(&self) -> Option<i64> {
        match self {
            Self::Memory(_, pending) => Some(pending.load(std::sync::atomic::Ordering::Relaxed).max(0)),
            Self::Redis(_) => None,
        }
    }

    /// Queues one job.
    pub async fn push(&self, job: P) -> CoreResult<()> {
        match self {
            Self::Memory(sender, pending) => {
                pending.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                // The id MemorySink would have given it.
                let task = TaskBuilder::new(job)
                    .task_id(TaskId::from_string(RandomId::default()))
                    .build();
                sender
                    .unbounded_send(task)
                    .map_err(|e| CoreError::Internal(format!("in-process queue closed: {e}")))
            }
            Self::Redis(storage) => {
                // The connection reconnects by itself, but the first command after Redis
                // restarted fails (broken pipe): try again, briefly, before giving up.
                let mut attempt = 1;
                loop {
                    match RedisStorage::clone(storage).push(job.clone()).await {
                        Ok(_) => return Ok(()),
                        Err(e) if attempt < PUSH_ATTEMPTS => {
                            tracing::debug!(error = %e, attempt, "queueing failed; trying again");
                            attempt += 1;
                            tokio::time::sleep(PUSH_RETRY_PAUSE).await;
                        }
                        Err(e) => return Err(CoreError::Internal(format!("could not queue the job: {e}"))),
                    }
                }
            }
        }
    }
}
