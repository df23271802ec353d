//! Background jobs: one file per job kind, each implementing [`Job`], and the registry
//! ([`registry`]) that lists every kind once. From the registry come the producers the API
//! pushes to ([`registry::Queues`]) and the consumers a worker runs
//! ([`registry::Sources`]), in-process or on Redis alike.
//!
//! A new job kind: its payload in `core/src/jobs.rs` (a versioned type implementing
//! `JobPayload`), a file here implementing [`Job`], and one line in `registry!`.

pub mod enrich;
pub mod registry;
pub mod search;

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

/// One kind of background job.
pub trait Job: Send + Sync + 'static {
    /// What its queue carries.
    type Payload: JobPayload;

    /// Runs one job. Must be idempotent: a job whose worker died runs again, on another
    /// worker (a search resumes from its checkpoint).
    fn run(payload: Self::Payload, deps: Arc<WorkerDeps>) -> impl Future<Output = Result<(), JobError>> + Send;

    /// Jobs of this kind one worker runs at once, given the worker's setting
    /// (`LEADGEN_WORKER_CONCURRENCY`, sized for searches).
    fn concurrency(setting: usize) -> usize {
        setting
    }
}
