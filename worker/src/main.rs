//! `leadgen-worker`: runs search jobs from Redis. Takes no arguments; reads the same
//! configuration variables as the API (`DATABASE_URL`, `REDIS_URL`, ...). On SIGTERM or
//! Ctrl-C it stops taking jobs and lets running ones finish.

use std::sync::Arc;

use anyhow::Context;
use leadgen_core::{
    bus::{EventBus, redis::RedisBus},
    config::Config,
    keys::KeyService,
    places::PlacesClient,
    secrets_file,
    store::Store,
    usage::UsageService,
};
use leadgen_worker::{KeyRateGate, WorkerDeps, ops_server, queue};

/// Longest a stopping worker waits for its running searches (Kubernetes' grace period is
/// 30 s by default; the chart gives workers 60).
const DRAIN_LIMIT: std::time::Duration = std::time::Duration::from_secs(25);

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    leadgen_core::install_crypto_provider();
    // Listen for SIGTERM before anything slow: a worker stopped while it starts (a
    // rollout, a scale-down) must still exit cleanly, not die of the default action.
    let shutdown = shutdown_signal()?;
    let _telemetry = leadgen_core::telemetry::init("worker");
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(e) => {
            eprintln!("configuration error: {e}");
            std::process::exit(2);
        }
    };
    let (Some(redis_url), Some(_)) = (&config.redis_url, &config.database_url) else {
        eprintln!(
            "configuration error: leadgen-worker needs DATABASE_URL and REDIS_URL (embedded mode runs its worker inside leadgen-api)"
        );
        std::process::exit(2);
    };
    let secrets = secrets_file::resolve(&config).context("loading secrets")?;
    let store = Store::connect(&config.store_url())
        .await
        .context("connecting to the store")?;
    store.migrate().await.context("applying migrations")?;
    let conn = redis::aio::ConnectionManager::new(redis::Client::open(redis_url.as_str())?)
        .await
        .context("connecting to Redis")?;
    let ops_listen = match ops_server::listen_address(std::env::var("LEADGEN_WORKER_METRICS_LISTEN").ok().as_deref()) {
        Ok(listen) => listen,
        Err(e) => {
            eprintln!("configuration error: {e}");
            std::process::exit(2);
        }
    };
    if let Some(addr) = ops_listen {
        let bound = ops_server::spawn(addr, conn.clone(), &config.redis_prefix).await?;
        // Scripts and tests wait for this line to find the port.
        println!("leadgen-worker metrics on http://{bound}/metrics");
    }
    let deps = Arc::new(WorkerDeps {
        keys: KeyService::new(store.clone(), Arc::new(secrets.vault)),
        places: PlacesClient::new(&config.places_base_url)?,
        bus: EventBus::Redis(Box::new(RedisBus::connect(redis_url, &config.redis_prefix).await?)),
        usage: UsageService::new(store.clone(), config.usage_limits),
        gate: KeyRateGate::fleet(config.places_rps, conn, &config.redis_prefix),
        store,
    });
    let source = queue::redis_source(redis_url, &config.redis_prefix).await?;
    let name = format!("worker-{}", std::process::id());
    tracing::info!(%name, concurrency = config.worker_concurrency, release = %leadgen_core::telemetry::release(), "leadgen-worker is taking jobs");
    // Scripts and tests wait for this line before they count the worker as up.
    println!("leadgen-worker {name} is taking jobs");
    // The signal stops apalis from taking jobs; searches already running get until
    // DRAIN_LIMIT to finish (their clients are waiting), then the process exits anyway.
    let (stopping_tx, stopping) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stopping_tx.send(true);
    });
    let signalled = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|stop| *stop).await;
    };
    let run = leadgen_worker::run(
        &name,
        deps,
        source,
        config.worker_concurrency,
        signalled(stopping.clone()),
    );
    // apalis' run does not always return once stopped (seen with the polling Redis
    // backend), so the process also ends when its last running search has finished.
    let drained = async {
        signalled(stopping).await;
        let deadline = tokio::time::Instant::now() + DRAIN_LIMIT;
        let running = &leadgen_core::telemetry::metrics::metrics().jobs_running;
        while running.get() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    };
    tokio::select! {
        result = run => result?,
        () = drained => {}
    }
    let running = leadgen_core::telemetry::metrics::metrics().jobs_running.get();
    if running > 0 {
        // Their queue entries are re-run by other workers once this one's heartbeats stop.
        tracing::warn!(
            running,
            "stopping with searches still running; other workers will retry them"
        );
    }
    tracing::info!("leadgen-worker stopped");
    // Exit now rather than wait for the runtime to wind down tasks it no longer needs.
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
