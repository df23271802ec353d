//! Everything a request handler needs, built once at start.

use std::sync::Arc;

use anyhow::Context;
use leadgen_core::{
    bus::{EventBus, memory::MemoryBus, redis::RedisBus},
    config::Config,
    keys::KeyService,
    places::PlacesClient,
    secrets_file,
    session::SessionKeys,
    sheets::{SheetsService, google::GoogleClient},
    store::Store,
    usage::UsageService,
    vault::Vault,
};
use leadgen_worker::{JobQueue, KeyRateGate, WorkerDeps, queue};

use crate::{auth::oidc::Oidc, billing::stripe_api::StripeApi};

/// Shared application state; cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// The parts of [`AppState`].
pub struct Inner {
    /// Validated configuration.
    pub config: Config,
    /// Users, secrets, sessions.
    pub store: Store,
    /// Seals and opens secrets.
    pub vault: Arc<Vault>,
    /// Users' Places keys.
    pub keys: KeyService,
    /// Signs and verifies session tokens.
    pub sessions: SessionKeys,
    /// Google Places API (New).
    pub places: PlacesClient,
    /// OIDC sign-in; `None` in local mode.
    pub oidc: Option<Oidc>,
    /// Queue and event bus connection in distributed mode.
    pub redis: Option<redis::aio::ConnectionManager>,
    /// Search events.
    pub bus: EventBus,
    /// Search jobs.
    pub queue: JobQueue,
    /// Usage reservations and reports.
    pub usage: UsageService,
    /// Google Sheets grants and exports.
    pub sheets: SheetsService,
    /// Stripe; `None` when billing is not configured.
    pub stripe: Option<StripeApi>,
    /// Turns true when the server starts stopping: streams end, readiness fails.
    pub shutdown: tokio::sync::watch::Sender<bool>,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    /// Connects and migrates the store, loads secrets, prepares clients.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let secrets = secrets_file::resolve(&config).context("loading secrets")?;
        let store = Store::connect(&config.store_url())
            .await
            .with_context(|| format!("connecting to the store ({})", redact(&config.store_url())))?;
        store.migrate().await.context("applying migrations")?;
        let redis = match &config.redis_url {
            Some(url) => {
                let client = redis::Client::open(url.as_str()).context("REDIS_URL")?;
                Some(
                    redis::aio::ConnectionManager::new(client)
                        .await
                        .with_context(|| format!("connecting to Redis at {}", redact(url)))?,
                )
            }
            None => None,
        };
        let vault = Arc::new(secrets.vault);
        let oidc = match &config.oidc {
            Some(oidc) => Some(Oidc::new(oidc.clone(), &config.public_url)?),
            None => None,
        };
        let keys = KeyService::new(store.clone(), vault.clone());
        let places = PlacesClient::new(&config.places_base_url)?;
        let usage = UsageService::new(store.clone(), config.usage_limits);
        // Sheets access rides on Google sign-in: the same OAuth client refreshes tokens.
        let google = match &config.oidc {
            Some(oidc) => Some(GoogleClient::new(
                config.google_apis.clone(),
                oidc.client_id.clone(),
                oidc.client_secret.clone(),
            )?),
            None => None,
        };
        let sheets = SheetsService::new(store.clone(), vault.clone(), google);
        let stripe = config.billing.clone().map(StripeApi::new).transpose()?;
        let (bus, queue) = match &config.redis_url {
            Some(url) => {
                let bus = EventBus::Redis(Box::new(RedisBus::connect(url, &config.redis_prefix).await?));
                let storage = queue::redis(url, &config.redis_prefix).await?;
                (bus, JobQueue::Redis(Box::new(storage)))
            }
            None => {
                // Embedded mode: the queue, the bus and one worker live in this process.
                let bus = EventBus::Memory(MemoryBus::new());
                let (producer, source) = queue::memory();
                let deps = Arc::new(WorkerDeps {
                    store: store.clone(),
                    keys: keys.clone(),
                    places: places.clone(),
                    bus: bus.clone(),
                    usage: usage.clone(),
                    gate: KeyRateGate::local(config.places_rps),
                });
                let settings = leadgen_worker::WorkerSettings {
                    name: "embedded".into(),
                    concurrency: config.worker_concurrency,
                    drain: config.worker_drain,
                };
                tokio::spawn(async move {
                    let forever = std::future::pending::<()>();
                    if let Err(e) = leadgen_worker::run(&settings, deps, source, forever).await {
                        tracing::error!(error = %e, "in-process worker stopped");
                    }
                });
                (bus, producer)
            }
        };
        Ok(Self(Arc::new(Inner {
            keys,
            sessions: SessionKeys::new(&secrets.jwt_secret, config.session_ttl),
            places,
            store,
            vault,
            oidc,
            redis,
            bus,
            queue,
            usage,
            sheets,
            stripe,
            shutdown: tokio::sync::watch::Sender::new(false),
            config,
        })))
    }
}

impl AppState {
    /// Starts stopping: readiness fails and every open event stream ends with a clear
    /// message, so the server can exit within its grace period.
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Search jobs waiting: the in-process queue's count, or the Redis list's length.
    pub async fn queue_depth(&self) -> Option<i64> {
        if let Some(pending) = self.queue.pending_in_process() {
            return Some(pending);
        }
        let mut conn = self.redis.clone()?;
        queue::redis_depth(&mut conn, &self.config.redis_prefix).await.ok()
    }

    /// Whether [`AppState::begin_shutdown`] was called.
    pub fn is_stopping(&self) -> bool {
        *self.shutdown.borrow()
    }
}

/// A connection URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}
