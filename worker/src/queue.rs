//! The search job queue: apalis on Redis in distributed mode, apalis' in-memory storage
//! in embedded mode. The producer half ([`JobQueue`]) is cheap to clone; each worker gets
//! a consumer half ([`JobSource`]).

use apalis::prelude::*;
use apalis_core::{
    backend::ext::poll_strategy::{IntervalStrategy, PollWith},
    task::task_id::{RandomId, TaskId},
};
use apalis_redis::{Config, RedisStorage};
use futures_util::SinkExt;
use leadgen_core::{
    CoreError, CoreResult,
    jobs::{SEARCH_QUEUE, SearchJobV1},
};

/// Pushes search jobs.
#[derive(Clone)]
pub enum JobQueue {
    /// Embedded mode: the raw channel, not apalis' `MemorySink`, whose `start_send` does
    /// `try_lock().unwrap()` on a mutex that concurrent pushes and the worker's
    /// `poll_ready` also take, and so fails under a multi-threaded runtime.
    Memory(
        futures_channel::mpsc::UnboundedSender<Task<SearchJobV1>>,
        /// Jobs pushed and not yet taken by the worker.
        std::sync::Arc<std::sync::atomic::AtomicI64>,
    ),
    /// Distributed mode (boxed: the storage is large and the enum is cloned per push).
    Redis(Box<RedisStorage<SearchJobV1>>),
}

/// A Redis queue consumer that looks for new jobs every [`IDLE_POLL`] while idle.
///
/// apalis-redis 1.0 also offers a pub/sub wake-up (`RedisStorageFactory`), but in our
/// measurements an idle worker was not woken by it (its pattern subscription was live, yet
/// jobs waited for the next heartbeat, about 2 s): see docs/benchmarks.md. Polling an
/// empty list is one cheap Lua call, about 50 a second per idle worker.
pub type RedisSource = PollWith<RedisStorage<SearchJobV1>, IntervalStrategy>;

/// How often an idle worker asks Redis for a job.
pub const IDLE_POLL: std::time::Duration = std::time::Duration::from_millis(20);

/// Where a worker takes search jobs from.
pub enum JobSource {
    /// Embedded mode.
    Memory(MemoryStorage<SearchJobV1>),
    /// Distributed mode.
    Redis(RedisJobSource),
}

/// A worker's side of the Redis queue, with what the fleet's bookkeeping needs.
pub struct RedisJobSource {
    /// The polling consumer (boxed: large).
    pub source: Box<RedisSource>,
    /// A connection for the fleet's bookkeeping.
    pub conn: redis::aio::ConnectionManager,
    /// `LEADGEN_REDIS_PREFIX`.
    pub prefix: String,
}

/// An in-process queue: the producer and its one consumer.
pub fn memory() -> (JobQueue, JobSource) {
    let (sender, receiver) = futures_channel::mpsc::unbounded::<Task<SearchJobV1>>();
    let pending = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(0));
    let taken = pending.clone();
    let receiver = futures_util::StreamExt::inspect(receiver, move |_| {
        taken.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    });
    // The worker's storage gets a sink of its own (it only polls it for readiness), so
    // nothing it locks is shared with the producer.
    let sink: Box<dyn futures_util::Sink<Task<SearchJobV1>, Error = MemoryStorageError> + Send + Sync + Unpin> =
        Box::new(sender.clone().sink_map_err(MemoryStorageError::SendError));
    let worker_sink = MemorySink::new(std::sync::Arc::new(futures_util::lock::Mutex::new(sink)));
    let storage = MemoryStorage::new_with(worker_sink, Box::pin(receiver));
    (JobQueue::Memory(sender, pending), JobSource::Memory(storage))
}

/// Where apalis-redis keeps waiting jobs: a push lands in the sorted set
/// `{queue}:scheduled` (due now), and a worker's fetch moves due jobs to the list
/// `{queue}:active` before claiming them. Their sizes together are the queue depth that
/// metrics report and the worker autoscaler (KEDA, one trigger per key) reads.
pub fn waiting_keys(prefix: &str) -> (String, String) {
    let queue = format!("{prefix}.{SEARCH_QUEUE}");
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

/// The queue's apalis settings.
pub fn config(prefix: &str) -> Config {
    Config::default()
        .queue(format!("{prefix}.{SEARCH_QUEUE}"))
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

/// The producer side of the Redis queue named `{prefix}.search.v1`.
pub async fn redis(url: &str, prefix: &str) -> CoreResult<RedisStorage<SearchJobV1>> {
    let conn = apalis_redis::connect(url)
        .await
        .map_err(|e| CoreError::Internal(format!("connecting the job queue to Redis: {e}")))?;
    Ok(RedisStorage::new(conn).with_config(config(prefix)))
}

/// A worker's side of the Redis queue. Workers that die mid-job have their jobs handed
/// back by the rest of the fleet once their heartbeats stop (see `fleet`).
pub async fn redis_source(url: &str, prefix: &str) -> CoreResult<JobSource> {
    let mut storage = redis(url, prefix).await?;
    let conn = storage.get_connection().clone();
    Ok(JobSource::Redis(RedisJobSource {
        source: Box::new(storage.poll_with_interval(IDLE_POLL)),
        conn,
        prefix: prefix.to_owned(),
    }))
}

impl JobQueue {
    /// Jobs waiting in the in-process queue; `None` for Redis (read its list instead).
    pub fn pending_in_process(&self) -> Option<i64> {
        match self {
            Self::Memory(_, pending) => Some(pending.load(std::sync::atomic::Ordering::Relaxed).max(0)),
            Self::Redis(_) => None,
        }
    }

    /// Queues one search.
    pub async fn push(&self, job: SearchJobV1) -> CoreResult<()> {
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
            Self::Redis(storage) => RedisStorage::clone(storage)
                .push(job)
                .await
                .map_err(|e| CoreError::Internal(format!("could not queue the search: {e}"))),
        }
    }
}
