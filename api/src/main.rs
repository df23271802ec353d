//! `leadgen-api`: the HTTP API (and, in embedded mode, everything else).

use std::time::Duration;

use anyhow::Context;
use clap::{Parser, Subcommand};
use leadgen_api::{app, commands, server, state::AppState, telemetry};
use leadgen_core::config::Config;

/// Command line.
#[derive(Parser)]
#[command(version, about = "Leadgen API server")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API and the web app (default).
    Serve,
    /// Print the OpenAPI document.
    Openapi,
    /// Apply database migrations and exit.
    Migrate,
    /// Re-encrypt every stored secret under a new master key.
    RotateKey {
        /// Embedded mode: remove previous keys from the secrets file once unused.
        #[arg(long)]
        retire_previous: bool,
    },
    /// GET each URL once; exit 0 when all answer 2xx, 1 otherwise (`helm test`: the image
    /// has no shell or curl). Reads no configuration.
    Probe {
        /// Addresses to ask, e.g. `http://leadgen-api/api/ready`.
        #[arg(required = true)]
        urls: Vec<String>,
    },
    /// Queue a search through the API at API_URL as an account of its own and wait until a
    /// worker has run it; exit 0 then, 1 otherwise (`helm test`). Needs `DATABASE_URL` and
    /// `LEADGEN_JWT_SECRET`, as `migrate` does; uses a key Google refuses, so costs nothing.
    QueueCheck {
        /// The API's address, e.g. `http://leadgen-api:8080`.
        api_url: String,
        /// Seconds to wait for a worker (KEDA may be waking one from zero).
        #[arg(long, default_value_t = 120)]
        timeout: u64,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    leadgen_core::install_crypto_provider();
    let cli = Cli::parse();
    if let Some(Command::Openapi) = cli.command {
        println!("{}", app::openapi_json());
        return Ok(());
    }
    if let Some(Command::Probe { urls }) = &cli.command {
        std::process::exit(if commands::probe(urls).await? { 0 } else { 1 });
    }
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(e) => {
            eprintln!("configuration error: {e}");
            std::process::exit(2);
        }
    };
    let _telemetry = leadgen_core::telemetry::init("api", &config.telemetry);
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config).await,
        Command::Migrate => {
            commands::migrate(&config).await?;
            println!("migrations applied");
            Ok(())
        }
        Command::RotateKey { retire_previous } => {
            println!("{}", commands::rotate_key(&config, retire_previous).await?);
            Ok(())
        }
        Command::QueueCheck { api_url, timeout } => {
            match commands::queue_check(&config, &api_url, Duration::from_secs(timeout)).await {
                Ok(summary) => {
                    println!("{summary}");
                    Ok(())
                }
                Err(e) => {
                    println!("queue check failed: {e:#}");
                    std::process::exit(1);
                }
            }
        }
        Command::Openapi | Command::Probe { .. } => Ok(()),
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    let listen = config.server.listen;
    let public_url = config.server.public_url.clone();
    let mode = if config.is_embedded() {
        "embedded"
    } else {
        "distributed"
    };
    let sign_in = if config.oidc.is_some() {
        "OIDC"
    } else {
        "local operator (loopback only)"
    };
    let release = config.telemetry.release.clone();
    let state = AppState::build(config).await?;
    tracing::info!(%listen, %public_url, mode, sign_in, %release, "Leadgen is starting");
    println!("Leadgen ({mode} mode, sign-in: {sign_in}) at {public_url}  (API docs: {public_url}api/docs)");
    let stopping = state.clone();
    let signal = async move {
        shutdown_signal().await;
        tracing::info!("stopping: no new connections; ending open streams");
        // Open event streams end with a message now, so connections drain well within
        // the grace period instead of being cut when it runs out.
        stopping.begin_shutdown();
    };
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("listening on {listen}"))?;
    if let Some(metrics_listen) = state.config.server.metrics_listen {
        // Its own port, never the public one: the chart's Service exposes it to
        // Prometheus only, and no Ingress routes it.
        // A port already taken (a local Prometheus listens on 9090 by default) costs the
        // metrics, not the app: a first run must start.
        match tokio::net::TcpListener::bind(metrics_listen).await {
            Ok(metrics_listener) => {
                let metrics = telemetry::metrics_app(state.clone());
                let limits =
                    server::ServerLimits::from_config(&state.config.server.http_limits, Duration::from_secs(1));
                tokio::spawn(async move {
                    if let Err(error) = server::serve(metrics_listener, metrics, std::future::pending(), limits).await {
                        tracing::error!(%error, "the metrics listener stopped");
                    }
                });
                println!("Prometheus metrics at http://{metrics_listen}/metrics");
            }
            Err(error) => {
                tracing::error!(%error, %metrics_listen, "cannot listen for /metrics (LEADGEN_METRICS_LISTEN): metrics are off");
                eprintln!(
                    "warning: cannot listen for /metrics on {metrics_listen} ({error}); set LEADGEN_METRICS_LISTEN to a free address, or 'off'"
                );
            }
        }
    }
    let limits = server::ServerLimits::from_config(&state.config.server.http_limits, SHUTDOWN_GRACE);
    server::serve(listener, app::build(state), signal, limits)
        .await
        .with_context(|| format!("serving on {listen}"))?;
    tracing::info!("stopped");
    Ok(())
}

/// Longest the server waits for open requests after SIGTERM (Kubernetes' default grace
/// period is 30 s; the chart leaves room above this).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(term) => term,
            Err(_) => return ctrl_c.await.unwrap_or(()),
        };
        tokio::select! {
            _ = ctrl_c => {},
            _ = term.recv() => {},
        }
    }
    #[cfg(not(unix))]
    let _ = ctrl_c.await;
}
