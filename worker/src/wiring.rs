//! One wiring for both processes: every service built from the configuration, once, the
//! same way for `leadgen-api serve` (either mode) and `leadgen-worker`. Embedded versus
//! distributed is the one `match` in [`Services::build`].

use std::sync::Arc;

use anyhow::Context;
use leadgen_core::{
    bus::{EventBus, memory::MemoryBus, redis::RedisBus},
    config::Config,
    enrich::Crawler,
    keys::KeyService,
    outbound::{FetchLimits, GuardedClient},
    places::{AggregateClient, PlacesClient},
    secrets_file,
    store::{PoolSize, Store},
    usage::UsageService,
    vault::Vault,
};
use secrecy::SecretBox;

use crate::{KeyRateGate, Queues, Sources, WorkerDeps, jobs::registry};

/// The services built from a [`Config`].
pub struct Services {
    /// Validated configuration.
    pub config: Config,
    /// Users, secrets, sessions, search records (migrated).
    pub store: Store,
    /// Seals and opens secrets.
    pub vault: Arc<Vault>,
    /// The session-token secret.
    pub jwt_secret: SecretBox<Vec<u8>>,
    /// Users' Places keys.
    pub keys: KeyService,
    /// Google Places API (New).
    pub places: PlacesClient,
    /// Google's Places Aggregate API, the completeness meter's count; none when
    /// `LEADGEN_COMPLETENESS` is off.
    pub aggregate: Option<AggregateClient>,
    /// Usage reservations and reports.
    pub usage: UsageService,
    /// Distributed mode's Redis connection (the rate gate, readiness, test-event counts).
    pub redis: Option<redis::aio::ConnectionManager>,
    /// Search events.
    pub bus: EventBus,
    /// Pushes jobs, a queue per kind.
    pub queues: Queues,
    /// Reads leads' websites for enrichment, through the guarded outbound client (one per
    /// process, so its per-host politeness and global concurrency hold process-wide).
    pub crawler: Crawler,
    /// Google Sheets grants and exports (the API's exports, the workers' deliveries).
    pub sheets: leadgen_core::sheets::SheetsService,
    /// Outgoing mail; `None` when `LEADGEN_SMTP_URL` is unset.
    pub mailer: Option<leadgen_core::delivery::Mailer>,
    /// Embedded mode's in-process job sources, until a worker takes them.
    in_process_jobs: Option<Sources>,
    /// The per-key rate gate, one per process so the API's estimates and an embedded
    /// worker's searches share a key's pace.
    gate: KeyRateGate,
}

impl Services {
    /// Connects and migrates the store, loads the secrets, connects Redis in distributed
    /// mode (or builds the in-process queue and bus), and prepares the clients.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let pool = PoolSize::for_api(config.database.api_connections);
        Self::build_with_pool(config, pool).await
    }

    /// [`Services::build`] keeping `pool` connections to Postgres (a worker's, sized from
    /// its slots: [`PoolSize::for_worker`]).
    pub async fn build_with_pool(config: Config, pool: PoolSize) -> anyhow::Result<Self> {
        let secrets = secrets_file::resolve(&config).context("loading secrets")?;
        let store = Store::connect_sized(&config.store_url(), pool)
            .await
            .with_context(|| format!("connecting to the store ({})", redact(&config.store_url())))?;
        store.migrate().await.context("applying migrations")?;
        let vault = Arc::new(secrets.vault);
        let (redis, bus, queues, in_process_jobs) = match &config.redis.url {
            Some(url) => {
                let client = redis::Client::open(url.as_str()).context("REDIS_URL")?;
                let conn = redis::aio::ConnectionManager::new(client)
                    .await
                    .with_context(|| format!("connecting to Redis at {}", redact(url)))?;
                let bus = EventBus::Redis(Box::new(RedisBus::connect(url, &config.redis.prefix).await?));
                let producers = registry::redis(url, &config.redis.prefix).await?;
                (Some(conn), bus, producers, None)
            }
            None => {
                let (producers, sources) = registry::in_process();
                (None, EventBus::Memory(MemoryBus::new()), producers, Some(sources))
            }
        };
        let bus = bus.with_replay_ttl(config.redis.replay_ttl);
        let gate = match &redis {
            Some(conn) => KeyRateGate::fleet(config.places.rps, conn.clone(), &config.redis.prefix),
            None => KeyRateGate::local(config.places.rps),
        };
        let crawler = crawler(&config);
        // Sheets access rides on Google sign-in: the same OAuth client refreshes tokens.
        let google = match &config.oidc {
            Some(oidc) => Some(leadgen_core::sheets::google::GoogleClient::new(
                config.google_apis.clone(),
                oidc.client_id.clone(),
                oidc.client_secret.clone(),
            )?),
            None => None,
        };
        let sheets = leadgen_core::sheets::SheetsService::new(store.clone(), vault.clone(), google);
        let mailer = config
            .mail
            .as_ref()
            .map(leadgen_core::delivery::Mailer::new)
            .transpose()
            .context("LEADGEN_SMTP_URL")?;
        Ok(Self {
            gate,
            crawler,
            sheets,
            mailer,
            keys: KeyService::new(store.clone(), vault.clone()),
            places: PlacesClient::new(&config.places.base_url)?,
            aggregate: config
                .places
                .completeness
                .then(|| AggregateClient::new(&config.places.aggregate_base_url))
                .transpose()?,
            usage: UsageService::new(store.clone(), config.usage_limits),
            jwt_secret: secrets.jwt_secret,
            store,
            vault,
            redis,
            bus,
            queues,
            in_process_jobs,
            config,
        })
    }

    /// The per-key rate gate: in-process, or shared by the fleet through Redis.
    pub fn rate_gate(&self) -> KeyRateGate {
        self.gate.clone()
    }

    /// What a worker's jobs need.
    pub fn worker_deps(&self) -> Arc<WorkerDeps> {
        Arc::new(WorkerDeps {
            store: self.store.clone(),
            keys: self.keys.clone(),
            places: self.places.clone(),
            aggregate: self.aggregate.clone(),
            fetch_missing: self.config.places.completeness_fetch_missing,
            plan_memory_days: self.config.places.plan_memory_days,
            bus: self.bus.clone(),
            usage: self.usage.clone(),
            gate: self.rate_gate(),
            prices: self.config.places.prices,
            vault: self.vault.clone(),
            outbound: webhook_client(&self.config),
            webhooks: self.queues.webhook.clone(),
            webhook_schedule: self.config.webhooks,
            crawler: self.crawler.clone(),
            enrich_queue: self.queues.enrich.clone(),
            deliveries: self.queues.delivery.clone(),
            sheets: self.sheets.clone(),
            mailer: self.mailer.clone(),
            prune: crate::jobs::prune::PruneSchedule::new(self.queues.prune.clone())
                .keeping_audit_events(self.config.database.audit_retention_days)
                .keeping_area_plans(self.config.places.plan_memory_days),
            searches: self.queues.search.clone(),
            schedule: crate::jobs::schedule::ScheduleTimer::new(self.queues.schedule.clone())
                .every(self.config.worker.scheduler_tick),
        })
    }

    /// Embedded mode's in-process job sources, for its one worker (`None` with Redis, or
    /// once taken).
    pub fn take_in_process_jobs(&mut self) -> Option<Sources> {
        self.in_process_jobs.take()
    }

    /// Where a worker takes jobs from: the in-process queues (once: embedded mode has one
    /// worker), or new consumers of the Redis queues.
    pub async fn job_sources(&mut self) -> anyhow::Result<Sources> {
        if let Some(sources) = self.in_process_jobs.take() {
            return Ok(sources);
        }
        match &self.config.redis.url {
            Some(url) => Ok(registry::redis_sources(url, &self.config.redis.prefix).await?),
            None => anyhow::bail!("the in-process queue already has its worker"),
        }
    }
}

/// The guarded client webhook deliveries use: the configured exemptions, the
/// deliveries' time-out, no redirects.
pub fn webhook_client(config: &Config) -> GuardedClient {
    GuardedClient::new(
        config.outbound_policy(),
        FetchLimits {
            timeout: config.webhooks.timeout,
            connect_timeout: config.webhooks.timeout.min(std::time::Duration::from_secs(5)),
            // An endpoint's answer is only looked at for its status.
            max_body_bytes: 64 * 1024,
            max_redirects: 0,
            user_agent: concat!("Leadgen-Webhooks/", env!("CARGO_PKG_VERSION")).into(),
        },
    )
}

/// The crawler of enrichment jobs, through the guarded outbound client (hosts exempted
/// from its address refusal by `LEADGEN_OUTBOUND_ALLOWED_HOSTS`).
pub fn crawler(config: &Config) -> Crawler {
    Crawler::for_websites(config.outbound_policy())
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
