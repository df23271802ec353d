//! Everything a request handler needs, built once at start.

use std::sync::Arc;

use leadgen_core::{
    bus::EventBus,
    config::Config,
    keys::KeyService,
    places::{AggregateClient, PlacesClient},
    session::SessionKeys,
    sheets::SheetsService,
    store::Store,
    usage::UsageService,
    vault::Vault,
    webhooks::TestEventLimit,
};
use leadgen_worker::{Queues, wiring::Services};

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
    /// Google's Places Aggregate API (the completeness meter); none when it is off.
    pub aggregate: Option<AggregateClient>,
    /// OIDC sign-in; `None` in local mode.
    pub oidc: Option<Oidc>,
    /// Queue and event bus connection in distributed mode.
    pub redis: Option<redis::aio::ConnectionManager>,
    /// Search events.
    pub bus: EventBus,
    /// The per-key rate gate Google calls made here (estimates) share with workers.
    pub gate: leadgen_worker::KeyRateGate,
    /// Job queues, one per kind (`queues.search`).
    pub queues: Queues,
    /// Usage reservations and reports.
    pub usage: UsageService,
    /// Google Sheets grants and exports.
    pub sheets: SheetsService,
    /// Outgoing mail (invitations); `None` when SMTP is not configured.
    pub mailer: Option<leadgen_core::delivery::Mailer>,
    /// Stripe; `None` when billing is not configured.
    pub stripe: Option<StripeApi>,
    /// Request limits per address, user and token (their buckets live here).
    pub rate_limits: crate::rate_limits::RateLimits,
    /// Live search streams open per user on this process.
    pub streams: crate::stream_slots::StreamSlots,
    /// Estimates whose probes go on after they answered, on this process.
    pub probing: crate::probing_after_estimates::ProbingAfterEstimates,
    /// Users' "send a test event" counts (in Redis when distributed, so every replica
    /// shares them).
    pub test_events: TestEventLimit,
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
    /// Builds the services (one wiring with `leadgen-worker`: [`Services::build`]) and
    /// the API's own clients; in embedded mode, starts the in-process worker.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let mut services = Services::build(config).await?;
        let in_process_jobs = services.take_in_process_jobs();
        let config = &services.config;
        let oidc = match &config.oidc {
            Some(oidc) => Some(Oidc::new(oidc.clone(), &config.server.public_url)?),
            None => None,
        };
        let sheets = services.sheets.clone();
        let stripe = config.billing.clone().map(StripeApi::new).transpose()?;
        if let Some(sources) = in_process_jobs {
            // Embedded mode: the queue, the bus and one worker live in this process.
            let settings = leadgen_worker::WorkerSettings {
                name: "embedded".into(),
                concurrency: config.worker.concurrency,
                drain: config.worker.drain,
            };
            let deps = services.worker_deps();
            tokio::spawn(async move {
                let forever = std::future::pending::<()>();
                if let Err(e) = leadgen_worker::run(&settings, deps, sources, forever).await {
                    tracing::error!(error = %e, "in-process worker stopped");
                }
            });
        }
        if services.redis.is_some() {
            // Distributed mode: a fleet scaled to zero is woken for a due saved search.
            let timer = leadgen_worker::jobs::schedule::ScheduleTimer::new(services.queues.schedule.clone())
                .every(config.worker.scheduler_tick);
            tokio::spawn(leadgen_worker::jobs::schedule::wake_when_due(
                services.store.clone(),
                timer,
            ));
        }
        let gate = services.rate_gate();
        let test_events = match &services.redis {
            Some(conn) => TestEventLimit::redis(conn.clone(), &services.config.redis.prefix),
            None => TestEventLimit::local(),
        };
        let Services {
            config,
            store,
            vault,
            jwt_secret,
            keys,
            places,
            aggregate,
            usage,
            redis,
            bus,
            queues,
            mailer,
            ..
        } = services;
        Ok(Self(Arc::new(Inner {
            gate,
            keys,
            sessions: SessionKeys::new(&jwt_secret, config.server.session_ttl),
            places,
            aggregate,
            store,
            vault,
            oidc,
            redis,
            bus,
            queues,
            usage,
            sheets,
            stripe,
            mailer,
            test_events,
            shutdown: tokio::sync::watch::Sender::new(false),
            rate_limits: crate::rate_limits::RateLimits::new(
                config.server.rate_limit_per_user,
                config.server.rate_limit_per_ip,
                config.server.rate_limit_per_token,
                config.server.trusted_proxies.clone(),
            ),
            probing: crate::probing_after_estimates::ProbingAfterEstimates::default(),
            streams: crate::stream_slots::StreamSlots::new(config.server.http_limits.max_streams_per_user),
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

    /// Whether [`AppState::begin_shutdown`] was called.
    pub fn is_stopping(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// What a search stream does when this process stops: with an in-process bus the
    /// searches run in this process and stop with it; with Redis the workers carry them
    /// on and clients reconnect to another API process.
    pub fn on_stop(&self) -> crate::relay::OnStop {
        match self.bus {
            leadgen_core::bus::EventBus::Memory(_) => crate::relay::OnStop::EndSearch,
            leadgen_core::bus::EventBus::Redis(_) => crate::relay::OnStop::HandOver {
                grace: self.config.server.reconnect_grace,
            },
        }
    }
}

pub use leadgen_worker::wiring::redact;
