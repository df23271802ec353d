//! Job queues, one per job kind, that we own: a store in process (embedded mode) or in
//! Redis (distributed mode) with the same rules ([`store`]), consumed by apalis workers
//! through our own implementation of apalis' `Backend` trait ([`backend`]). The producer
//! half ([`JobQueue`]) is cheap to clone; each worker gets a consumer half
//! ([`JobSource`]). Both are generic over the payload ([`JobPayload`]); which kinds exist
//! is `jobs::registry`'s business, and which store is the wiring's.

pub mod backend;
#[cfg(test)]
mod conformance;
pub mod gate;
mod in_process;
mod on_redis;
pub mod store;

use std::{marker::PhantomData, time::Duration};

use leadgen_core::{CoreError, CoreResult, jobs::JobPayload};

pub use gate::{Gated, IDLE_POLL, Wakeup, pushed_channel};
pub use in_process::InProcessStore;
pub use on_redis::RedisStore;
pub use store::{HandBack, QueueError, Store};

/// Tries to queue a job before the API answers 503, and the pause between them.
const PUSH_ATTEMPTS: u32 = 3;
const PUSH_RETRY_PAUSE: Duration = Duration::from_millis(200);

/// The name of job queue `queue` (a [`JobPayload::QUEUE`]) under `prefix`: the first part
/// of every Redis key of that queue.
pub fn queue_name(prefix: &str, queue: &str) -> String {
    format!("{prefix}.{queue}")
}

/// Pushes jobs of one kind.
pub struct JobQueue<P> {
    store: Store,
    payload: PhantomData<fn(P)>,
}

impl<P> Clone for JobQueue<P> {
    fn clone(&self) -> Self {
        Self {
            store: self.store.clone(),
            payload: PhantomData,
        }
    }
}

/// A consumer apalis runs: our backend, asking its store only when a job may be waiting.
pub type Consumer<P> = Gated<backend::QueueBackend<P>>;

/// Where workers take jobs of one kind from.
pub struct JobSource<P> {
    store: Store,
    /// What tells the consumers of pushes (kept when a consumer starts again).
    wakeup: Wakeup,
    payload: PhantomData<fn() -> P>,
}

impl<P: JobPayload> JobSource<P> {
    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// A consumer for worker `worker` (a new one after the last failed).
    pub fn consumer(&self, worker: &str) -> Consumer<P> {
        Gated::new(
            backend::QueueBackend::new(self.store.clone(), worker),
            self.wakeup.clone(),
        )
    }
}

/// An in-process queue: the producer and its consumers' source.
pub fn in_process<P: JobPayload>() -> (JobQueue<P>, JobSource<P>) {
    let store = InProcessStore::new(P::QUEUE);
    let wakeup = store.wakeup();
    let store = Store::InProcess(store);
    (
        JobQueue {
            store: store.clone(),
            payload: PhantomData,
        },
        JobSource {
            store,
            wakeup,
            payload: PhantomData,
        },
    )
}

/// Connects to the Redis at `url` (the connection reconnects by itself).
pub async fn connect(url: &str) -> CoreResult<redis::aio::ConnectionManager> {
    let client = redis::Client::open(url)?;
    redis::aio::ConnectionManager::new(client)
        .await
        .map_err(|e| CoreError::Internal(format!("connecting the job queue to Redis: {e}")))
}

/// The producer side of the Redis queue of `P` under `prefix`, on `conn`.
pub fn on_redis<P: JobPayload>(conn: redis::aio::ConnectionManager, prefix: &str) -> JobQueue<P> {
    JobQueue {
        store: Store::Redis(RedisStore::new(conn, &queue_name(prefix, P::QUEUE))),
        payload: PhantomData,
    }
}

/// A worker's side of the Redis queue of `P`: on `conn`, told of pushes over pub/sub by
/// the Redis at `url`. Workers that die mid-job have their jobs handed back by the rest of
/// the fleet once their heartbeats stop (see `fleet`).
pub fn redis_source<P: JobPayload>(
    url: &str,
    conn: redis::aio::ConnectionManager,
    prefix: &str,
) -> CoreResult<JobSource<P>> {
    let name = queue_name(prefix, P::QUEUE);
    let wakeup = Wakeup::subscribe(url, pushed_channel(&name))?;
    Ok(JobSource {
        store: Store::Redis(RedisStore::new(conn, &name)),
        wakeup,
        payload: PhantomData,
    })
}

impl<P: JobPayload> JobQueue<P> {
    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Queues one job.
    pub async fn push(&self, job: P) -> CoreResult<()> {
        let payload = serde_json::to_vec(&job).map_err(|e| CoreError::Internal(format!("job payload: {e}")))?;
        let id = store::new_job_id();
        // Redis' connection reconnects by itself, but the first command after Redis
        // restarted fails (broken pipe): try again, briefly, before giving up.
        let mut attempt = 1;
        loop {
            match self.store.push(&id, &payload).await {
                Ok(()) => return Ok(()),
                Err(e) if attempt < PUSH_ATTEMPTS => {
                    tracing::debug!(error = %e, attempt, "queueing failed; trying again");
                    attempt += 1;
                    tokio::time::sleep(PUSH_RETRY_PAUSE).await;
                }
                Err(e) => return Err(CoreError::Internal(format!("could not queue the job: {e}"))),
            }
        }
    }

    /// Queues `job` unless this queue got one through here within `period`, whichever
    /// process pushed it; returns whether it queued. A lease (`SET NX PX` on `{queue}:once`
    /// in Redis) decides, so a fleet of workers running the same schedule queues one job a
    /// period.
    pub async fn push_once_per(&self, job: P, period: Duration) -> CoreResult<bool> {
        let taken = self
            .store
            .take_lease(period)
            .await
            .map_err(|e| CoreError::Internal(format!("could not take the queue's lease: {e}")))?;
        if !taken {
            return Ok(false);
        }
        if let Err(error) = self.push(job).await {
            // Let the next tick (of any worker) try again rather than wait a period.
            let _ = self.store.release_lease().await;
            return Err(error);
        }
        Ok(true)
    }

    /// Jobs waiting (ready, or delayed for a retry).
    pub async fn depth(&self) -> CoreResult<i64> {
        Ok(self.store.depth().await?)
    }

    /// Seconds the longest-waiting job has waited for a worker; 0 when none waits.
    pub async fn oldest_age_secs(&self) -> CoreResult<f64> {
        Ok(self.store.oldest_age_secs().await?)
    }
}

impl From<QueueError> for CoreError {
    fn from(error: QueueError) -> Self {
        match error {
            QueueError::Redis(error) => Self::Redis(error),
            QueueError::Payload(error) => Self::Internal(format!("job payload: {error}")),
        }
    }
}
