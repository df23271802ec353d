//! Leadgen's search workers: the job handler, the job queue in both modes, and the
//! per-key rate limit. `leadgen-worker` runs them as a process; the API links this crate to
//! run them in-process in embedded mode.

pub mod jobs;
pub mod ops_server;
pub mod queue;
pub mod rate_limit;

use std::{future::Future, sync::Arc};

use apalis::prelude::*;
use leadgen_core::{bus::EventBus, keys::KeyService, places::PlacesClient, store::Store, usage::UsageService};

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
    /// Where events go.
    pub bus: EventBus,
    /// Usage reports for `complete`.
    pub usage: UsageService,
    /// Per-key rate limit.
    pub gate: KeyRateGate,
}

/// Runs search jobs from `source` until `shutdown` resolves, then stops taking new jobs
/// and lets running ones finish.
pub async fn run(
    name: &str,
    deps: Arc<WorkerDeps>,
    source: JobSource,
    concurrency: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let signal = async move {
        shutdown.await;
        Ok::<(), std::io::Error>(())
    };
    match source {
        JobSource::Memory(storage) => {
            WorkerBuilder::new(name)
                .backend(storage)
                .concurrency(concurrency)
                .data(deps)
                .build(jobs::search::handle)
                .run_until(signal)
                .await?
        }
        JobSource::Redis(storage) => {
            WorkerBuilder::new(name)
                .backend(*storage)
                .concurrency(concurrency)
                .data(deps)
                .build(jobs::search::handle)
                .run_until(signal)
                .await?
        }
    }
    Ok(())
}
