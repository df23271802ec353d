//! The search job queue: apalis on Redis in distributed mode, apalis' in-memory storage
//! in embedded mode. The producer half ([`JobQueue`]) is cheap to clone; each worker gets
//! a consumer half ([`JobSource`]).

use apalis::prelude::*;
use apalis_redis::{Config, RedisStorage};
use futures_util::SinkExt;
use leadgen_core::{
    CoreError, CoreResult,
    jobs::{SEARCH_QUEUE, SearchJobV1},
};

/// Pushes search jobs.
#[derive(Clone)]
pub enum JobQueue {
    /// Embedded mode.
    Memory(MemorySink<SearchJobV1>),
    /// Distributed mode (boxed: the storage is large and the enum is cloned per push).
    Redis(Box<RedisStorage<SearchJobV1>>),
}

/// Where a worker takes search jobs from.
pub enum JobSource {
    /// Embedded mode.
    Memory(MemoryStorage<SearchJobV1>),
    /// Distributed mode.
    Redis(Box<RedisStorage<SearchJobV1>>),
}

/// An in-process queue: the producer and its one consumer.
pub fn memory() -> (JobQueue, JobSource) {
    let (sender, receiver) = futures_channel::mpsc::unbounded::<Task<SearchJobV1>>();
    let sink: Box<dyn futures_util::Sink<Task<SearchJobV1>, Error = MemoryStorageError> + Send + Sync + Unpin> =
        Box::new(sender.sink_map_err(MemoryStorageError::SendError));
    let producer = MemorySink::new(std::sync::Arc::new(futures_util::lock::Mutex::new(sink)));
    let storage = MemoryStorage::new_with(producer.clone(), Box::pin(receiver));
    (JobQueue::Memory(producer), JobSource::Memory(storage))
}

/// The Redis queue named `{prefix}.search.v1`. Workers that die mid-job have their jobs
/// re-queued once their heartbeats stop.
pub async fn redis(url: &str, prefix: &str) -> CoreResult<RedisStorage<SearchJobV1>> {
    let conn = apalis_redis::connect(url)
        .await
        .map_err(|e| CoreError::Internal(format!("connecting the job queue to Redis: {e}")))?;
    let config = Config::default()
        .queue(format!("{prefix}.{SEARCH_QUEUE}"))
        .heartbeat_interval(std::time::Duration::from_secs(2))
        .missed_heartbeats(3);
    Ok(RedisStorage::new(conn).with_config(config))
}

impl JobQueue {
    /// Queues one search.
    pub async fn push(&self, job: SearchJobV1) -> CoreResult<()> {
        match self {
            Self::Memory(sink) => sink
                .clone()
                .send(Task::new(job))
                .await
                .map_err(|e| CoreError::Internal(format!("in-process queue closed: {e}"))),
            Self::Redis(storage) => RedisStorage::clone(storage)
                .push(job)
                .await
                .map_err(|e| CoreError::Internal(format!("could not queue the search: {e}"))),
        }
    }
}
