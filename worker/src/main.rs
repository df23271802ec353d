//! `leadgen-worker`: runs search jobs from Redis. Takes no arguments; reads the same
//! configuration variables as the API (`DATABASE_URL`, `REDIS_URL`, ...). On SIGTERM or
//! Ctrl-C it stops taking jobs and lets running ones finish.

use anyhow::Context;
use leadgen_core::config::Config;
use leadgen_worker::{WorkerSettings, fleet, ops_server, wiring::Services};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    leadgen_core::install_crypto_provider();
    // Listen for SIGTERM before anything slow: a worker stopped while it starts (a
    // rollout, a scale-down) must still exit cleanly, not die of the default action.
    let shutdown = shutdown_signal()?;
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(e) => {
            eprintln!("configuration error: {e}");
            std::process::exit(2);
        }
    };
    let _telemetry = leadgen_core::telemetry::init("worker", &config.telemetry);
    let (Some(_), Some(_)) = (&config.redis.url, &config.database.url) else {
        eprintln!(
            "configuration error: leadgen-worker needs DATABASE_URL and REDIS_URL (embedded mode runs its worker inside leadgen-api)"
        );
        std::process::exit(2);
    };
    let ops_listen = config.worker.metrics_listen;
    let pool = leadgen_core::store::PoolSize::for_worker(config.worker.concurrency);
    let mut services = Services::build_with_pool(config, pool).await?;
    let config = services.config.clone();
    if let Some(addr) = ops_listen {
        let bound = ops_server::spawn(addr, services.queues.clone()).await?;
        // Scripts and tests wait for this line to find the port.
        println!("leadgen-worker metrics on http://{bound}/metrics");
    }
    let deps = services.worker_deps();
    let sources = services.job_sources().await?;
    let settings = WorkerSettings {
        name: fleet::worker_name(config.worker.name.as_deref()),
        concurrency: config.worker.concurrency,
        drain: config.worker.drain,
    };
    let metrics = leadgen_core::telemetry::metrics::metrics();
    metrics
        .worker_info
        .get_or_create(&leadgen_core::telemetry::metrics::WorkerLabels {
            worker: settings.name.clone(),
        })
        .set(1);
    metrics
        .worker_slots
        .set(i64::try_from(settings.concurrency).unwrap_or(i64::MAX));
    tracing::info!(
        name = %settings.name,
        concurrency = settings.concurrency,
        release = %config.telemetry.release,
        "leadgen-worker is taking jobs"
    );
    // Scripts and tests wait for this line before they count the worker as up.
    println!("leadgen-worker {} is taking jobs", settings.name);
    // The signal stops it taking jobs; running searches get `drain` to finish, then the
    // rest go back to the queue and the worker deregisters (see leadgen_worker::run).
    let stopped = leadgen_worker::run(&settings, deps, sources, shutdown).await?;
    tracing::info!(handed_back = stopped.handed_back, "leadgen-worker stopped");
    // Exit now rather than wait for the runtime to wind down tasks it no longer needs
    // (everything this worker held is back in the queue and it is deregistered).
    std::process::exit(0)
}

/// Resolves on SIGTERM or Ctrl-C. The handlers are installed when this is called.
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .context("installing the SIGTERM handler")?;
    let mut interrupt = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
        .context("installing the SIGINT handler")?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {},
            _ = interrupt.recv() => {},
        }
    })
}
