//! Background jobs: one file per job kind, each implementing [`Job`], and the registry
//! ([`registry`]) that lists every kind once. From the registry come the producers the API
//! pushes to ([`registry::Queues`]) and the consumers a worker runs
//! ([`registry::Sources`]), in-process or on Redis alike.
//!
//! A new job kind: its payload in `core/src/jobs.rs` (a versioned type implementing
//! `JobPayload`), a file here implementing [`Job`], and one line in `registry!`.

pub mod delivery;
pub mod enrich;
pub mod prune;
pub mod registry;
pub mod schedule;
pub mod search;
pub mod webhook;

use std::{future::Future, sync::Arc};

use leadgen_core::jobs::JobPayload;

use crate::WorkerDeps;

/// Why a job did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// Worth another try later (something it needs was briefly unavailable): the queue
    /// runs it again, with a growing delay.
    #[error("{0}")]
    Retry(String),
    /// Another try would fail the same way, or its user was already told: never retried.
    #[error("{0}")]
    Permanent(String),
}

impl JobError {
    /// The form apalis acts on: an `AbortError` is never retried.
    fn into_apalis(self) -> apalis::prelude::BoxDynError {
        match self {
            Self::Retry(message) => message.into(),
            Self::Permanent(message) => Box::new(apalis_core::error::AbortError::new(std::io::Error::other(message))),
        }
    }
}

/// How a kind's failed jobs are retried inside the worker: apalis' retry layer with
/// exponential back-off. [`JobError::Permanent`] (an `AbortError`) is never retried.
pub type RetryPolicy = apalis::layers::retry::RetryIfPolicy<
    apalis::layers::retry::BackoffRetryPolicy<apalis::layers::retry::backoff::ExponentialBackoff>,
    fn(&apalis::prelude::BoxDynError) -> bool,
>;

/// Whether a failure may be retried: anything but an `AbortError`.
fn retryable(error: &apalis::prelude::BoxDynError) -> bool {
    error.downcast_ref::<apalis_core::error::AbortError>().is_none()
}

/// `retries` more tries after the first, waiting `first`, then twice as long each time,
/// up to `max` (with a tenth of jitter).
pub fn retry_policy(retries: usize, first: std::time::Duration, max: std::time::Duration) -> RetryPolicy {
    use apalis::layers::retry::backoff::{ExponentialBackoffMaker, MakeBackoff};
    let backoff = ExponentialBackoffMaker::new(first, max.max(first), 0.1, apalis::layers::retry::HasherRng::default())
        .map(|mut maker| maker.make_backoff())
        .unwrap_or_else(|_| ExponentialBackoffMaker::default().make_backoff());
    apalis::layers::retry::RetryPolicy::retries(retries)
        .with_backoff(backoff)
        .retry_if(retryable as fn(&apalis::prelude::BoxDynError) -> bool)
}

/// One kind of background job.
pub trait Job: Send + Sync + 'static {
    /// What its queue carries.
    type Payload: JobPayload;

    /// Retries inside the worker (default none: a failed job goes back to its queue,
    /// whose own re-scheduling applies).
    fn retry(_deps: &WorkerDeps) -> RetryPolicy {
        retry_policy(0, std::time::Duration::from_secs(1), std::time::Duration::from_secs(1))
    }

    /// Jobs of this kind one worker runs at once (default the worker's concurrency,
    /// `LEADGEN_WORKER_CONCURRENCY`, sized for searches).
    fn concurrency(settings: &crate::WorkerSettings) -> usize {
        settings.concurrency
    }

    /// Runs one job. Must be idempotent: a job whose worker died runs again, on another
    /// worker (a search resumes from its checkpoint).
    fn run(payload: Self::Payload, deps: Arc<WorkerDeps>) -> impl Future<Output = Result<(), JobError>> + Send;
}
