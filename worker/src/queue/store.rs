//! What a queue store does, whichever it is: the one vocabulary the apalis backend
//! ([`super::backend`]), the producers and the fleet's bookkeeping speak, and the
//! conformance suite pins for both stores ([`super::conformance`]).
//!
//! A job is an id (a ULID: it tells when the job was queued) and its payload's JSON. It
//! waits in the ready line (pushed to its tail, handed back to its head) or, after a
//! failed run, among the delayed until its retry is due. A worker that claims it holds it
//! until it settles it (done, retried later, given up) or its hold is handed back: by
//! itself when it stops, by the rest of the fleet when its heartbeats stop.

use std::time::Duration;

use super::{in_process::InProcessStore, on_redis::RedisStore};

/// Claims of one job before a retryable failure gives it up (the first run included).
pub const MAX_ATTEMPTS: u64 = 25;

/// How long a failed job waits before it is due again, per claim so far: the `n`th
/// failure waits `n` times this.
pub const RETRY_STEP: Duration = Duration::from_secs(1);

/// Why a queue operation failed.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// Redis did not answer, or refused.
    #[error("job queue: {0}")]
    Redis(#[from] redis::RedisError),
    /// A payload that could not be written or read as its job kind's JSON.
    #[error("job payload: {0}")]
    Payload(#[from] serde_json::Error),
}

/// A job a worker has just claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    /// The job's id.
    pub id: String,
    /// Its payload's JSON.
    pub payload: Vec<u8>,
    /// Claims of this job so far, this one included.
    pub attempts: u64,
}

/// What became of a failed job ([`Store::retry`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retried {
    /// Due again after a pause.
    Later,
    /// It used up its attempts ([`MAX_ATTEMPTS`]) and was deleted.
    GaveUp,
    /// The worker no longer held it (the fleet handed it back meanwhile): it is already
    /// waiting again, so nothing changed.
    NotHeld,
}

/// Whose held jobs go back to the front of the queue ([`Store::hand_back`]).
#[derive(Debug, Clone, Copy)]
pub enum HandBack<'a> {
    /// One worker's (it stops, or restarted under the same name).
    Only(&'a str),
    /// Every worker's whose last heartbeat is older than this (dead).
    SilentFor(Duration),
}

/// One job kind's queue, in process or in Redis (chosen once, by the wiring).
#[derive(Clone)]
pub enum Store {
    /// Embedded mode's.
    InProcess(InProcessStore),
    /// Distributed mode's.
    Redis(RedisStore),
}

impl Store {
    /// The queue's full name (`{prefix}.{kind}` on Redis).
    pub fn name(&self) -> &str {
        match self {
            Self::InProcess(store) => store.name(),
            Self::Redis(store) => store.name(),
        }
    }

    /// Queues a job at the tail of the ready line and announces it to idle consumers.
    pub async fn push(&self, id: &str, payload: &[u8]) -> Result<(), QueueError> {
        match self {
            Self::InProcess(store) => {
                store.push(id, payload);
                Ok(())
            }
            Self::Redis(store) => store.push(id, payload).await,
        }
    }

    /// Gives `worker` the job at the head of the ready line (after moving the delayed
    /// jobs now due to its tail), and beats the worker's heart: a worker that claims is
    /// alive. `None` when nothing is waiting.
    pub async fn claim(&self, worker: &str) -> Result<Option<Claimed>, QueueError> {
        match self {
            Self::InProcess(store) => Ok(store.claim(worker)),
            Self::Redis(store) => store.claim(worker).await,
        }
    }

    /// Forgets a job `worker` finished, or one that must never run again (a permanent
    /// failure, an unreadable payload). Its payload is deleted now.
    pub async fn ack(&self, worker: &str, id: &str) -> Result<(), QueueError> {
        match self {
            Self::InProcess(store) => {
                store.ack(worker, id);
                Ok(())
            }
            Self::Redis(store) => store.ack(worker, id).await,
        }
    }

    /// A run of a job `worker` holds failed and may succeed later: it is due again after
    /// [`RETRY_STEP`] times its attempts so far, or given up after [`MAX_ATTEMPTS`].
    pub async fn retry(&self, worker: &str, id: &str) -> Result<Retried, QueueError> {
        self.retry_within(worker, id, MAX_ATTEMPTS).await
    }

    /// [`Store::retry`], giving up after `max_attempts` claims (tests use a few).
    pub(crate) async fn retry_within(&self, worker: &str, id: &str, max_attempts: u64) -> Result<Retried, QueueError> {
        match self {
            Self::InProcess(store) => Ok(store.retry(worker, id, max_attempts)),
            Self::Redis(store) => store.retry(worker, id, max_attempts).await,
        }
    }

    /// Puts the jobs held by `who` back at the head of the ready line (the earliest
    /// claimed first), removes those workers from the fleet and announces the jobs.
    /// Returns (workers removed, jobs handed back).
    pub async fn hand_back(&self, who: HandBack<'_>) -> Result<(u64, u64), QueueError> {
        match self {
            Self::InProcess(store) => Ok(store.hand_back(who)),
            Self::Redis(store) => store.hand_back(who).await,
        }
    }

    /// Beats `worker`'s heart if it is in the fleet (never re-adds one that left), and
    /// renews the expiry of what it holds.
    pub async fn beat(&self, worker: &str) -> Result<(), QueueError> {
        match self {
            Self::InProcess(store) => {
                store.beat(worker);
                Ok(())
            }
            Self::Redis(store) => store.beat(worker).await,
        }
    }

    /// The workers in the fleet now.
    pub async fn workers(&self) -> Result<Vec<String>, QueueError> {
        match self {
            Self::InProcess(store) => Ok(store.workers()),
            Self::Redis(store) => store.workers().await,
        }
    }

    /// Jobs waiting: ready, or delayed for a retry.
    pub async fn depth(&self) -> Result<i64, QueueError> {
        match self {
            Self::InProcess(store) => Ok(store.depth()),
            Self::Redis(store) => store.depth().await,
        }
    }

    /// Seconds the longest-waiting job has waited for a worker: the head of the ready line
    /// since it was queued, or a delayed job since it became due; 0 when none waits.
    pub async fn oldest_age_secs(&self) -> Result<f64, QueueError> {
        match self {
            Self::InProcess(store) => Ok(store.oldest_age_secs()),
            Self::Redis(store) => store.oldest_age_secs().await,
        }
    }

    /// Takes the queue's lease for `period` unless someone holds it; returns whether it
    /// was taken (see `JobQueue::push_once_per`).
    pub async fn take_lease(&self, period: Duration) -> Result<bool, QueueError> {
        match self {
            Self::InProcess(store) => Ok(store.take_lease(period)),
            Self::Redis(store) => store.take_lease(period).await,
        }
    }

    /// Gives the lease up early (the push it guarded failed).
    pub async fn release_lease(&self) -> Result<(), QueueError> {
        match self {
            Self::InProcess(store) => {
                store.release_lease();
                Ok(())
            }
            Self::Redis(store) => store.release_lease().await,
        }
    }
}

/// Milliseconds since the Unix epoch on this machine's clock.
pub(crate) fn unix_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or_default()
}

/// When the job with id `id` was queued (a ULID's first 48 bits), in Unix milliseconds.
pub(crate) fn queued_at_ms(id: &str) -> Option<u64> {
    ulid::Ulid::from_string(id).ok().map(|ulid| ulid.timestamp_ms())
}

/// A new job id: a ULID, which tells when the job was queued.
pub(crate) fn new_job_id() -> String {
    ulid::Ulid::generate().to_string()
}
