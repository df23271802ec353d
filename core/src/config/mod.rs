//! Configuration: declared once in [`settings`] (sections, defaults, the variable of
//! each), layered by figment (defaults, an optional TOML file named by
//! `LEADGEN_CONFIG_FILE`, then the environment), and checked together here at start with a
//! message that names the bad variable. Every variable is documented in `.env.example`
//! and the README (a test fails when either drifts from [`settings::VARIABLES`]).

pub mod settings;
pub mod site;

pub use settings::{Settings, TelemetrySettings, VARIABLES, Variable};

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use secrecy::SecretString;
use url::Url;

/// Google's issuer, used when an OIDC client id is set without an issuer.
pub const GOOGLE_ISSUER: &str = "https://accounts.google.com";
/// Google Places API (New) base URL.
pub const GOOGLE_PLACES_BASE_URL: &str = "https://places.googleapis.com";
/// Google's OAuth 2.0 token endpoint (refreshing Sheets access).
pub const GOOGLE_TOKEN_URL: &str = "https://oauth2.googleapis.com/token";
/// Google Sheets API base URL (paths start with `/v4/`).
pub const GOOGLE_SHEETS_BASE_URL: &str = "https://sheets.googleapis.com";
/// Google Drive API base URL (paths start with `/drive/v3/`).
pub const GOOGLE_DRIVE_BASE_URL: &str = "https://www.googleapis.com";

/// A configuration value that cannot be used; the message names the variable.
#[derive(Debug, thiserror::Error)]
#[error("{variable}: {problem}")]
pub struct ConfigError {
    /// The environment variable at fault.
    pub variable: &'static str,
    /// What is wrong with it.
    pub problem: String,
}

impl ConfigError {
    pub(crate) fn new(variable: &'static str, problem: impl Into<String>) -> Self {
        Self {
            variable,
            problem: problem.into(),
        }
    }
}

/// Sign-in through an external OpenID Connect provider.
#[derive(Debug, Clone)]
pub struct OidcConfig {
    /// `LEADGEN_OIDC_ISSUER`: issuer URL, discovered at `/.well-known/openid-configuration`.
    /// Default: Google (`https://accounts.google.com`).
    pub issuer: String,
    /// `LEADGEN_OIDC_CLIENT_ID`: the client id registered with the provider. Setting it is
    /// what turns OIDC sign-in on.
    pub client_id: String,
    /// `LEADGEN_OIDC_CLIENT_SECRET`: client secret, if the provider issued one.
    pub client_secret: Option<SecretString>,
}

/// Everything the API and the workers need to start.
#[derive(Debug, Clone)]
pub struct Config {
    /// `LEADGEN_LISTEN`: socket address to listen on. Default `127.0.0.1:8080`.
    pub listen: SocketAddr,
    /// `LEADGEN_PUBLIC_URL`: the address browsers use to reach the app, for redirects.
    /// Default `http://{LEADGEN_LISTEN}`.
    pub public_url: Url,
    /// `LEADGEN_DATA_DIR`: embedded mode's SQLite file and generated secrets. Default `./data`.
    pub data_dir: PathBuf,
    /// `DATABASE_URL`: Postgres (`postgres://...`) or SQLite (`sqlite://...`) store. Unset:
    /// SQLite at `{data dir}/leadgen.db`.
    pub database_url: Option<String>,
    /// `REDIS_URL`: queue and event bus. Unset: in-process queue and bus (one process only).
    pub redis_url: Option<String>,
    /// `LEADGEN_PLACES_BASE_URL`: Google Places API (New) base URL; tests and demos point
    /// it at the simulator. Default `https://places.googleapis.com`.
    pub places_base_url: Url,
    /// `LEADGEN_GOOGLE_TOKEN_URL`, `LEADGEN_SHEETS_BASE_URL`, `LEADGEN_DRIVE_BASE_URL`:
    /// Google's endpoints for the Sheets export; tests point them at the fake.
    pub google_apis: GoogleApis,
    /// `STRIPE_*`: billing; `None` when Stripe is not configured (plans shown, no checkout).
    pub billing: Option<BillingConfig>,
    /// OIDC sign-in; `None` means local single-operator sign-in (loopback only).
    pub oidc: Option<OidcConfig>,
    /// `LEADGEN_ENCRYPTION_KEY`: base64 of 32 random bytes, the master key for secrets at
    /// rest. Required when `DATABASE_URL` is set; generated into the data dir otherwise.
    pub encryption_key: Option<SecretString>,
    /// `LEADGEN_PREVIOUS_ENCRYPTION_KEYS`: comma-separated base64 keys still accepted for
    /// decryption during a key rotation. Default none.
    pub previous_encryption_keys: Vec<SecretString>,
    /// `LEADGEN_JWT_SECRET`: HMAC secret for session tokens, at least 32 bytes. Required
    /// when `DATABASE_URL` is set; generated into the data dir otherwise.
    pub jwt_secret: Option<SecretString>,
    /// `LEADGEN_SESSION_TTL_SECS`: lifetime of a session token in seconds. Default 3600.
    pub session_ttl: Duration,
    /// `LEADGEN_RATE_LIMIT_PER_USER`: API requests a minute per signed-in user; `None`
    /// (0) turns it off. Default 600, with bursts of a fifth of it.
    pub rate_limit_per_user: Option<u32>,
    /// `LEADGEN_RATE_LIMIT_PER_IP`: API requests a minute per client address; `None` (0)
    /// turns it off. Default 1200, with bursts of a fifth of it.
    pub rate_limit_per_ip: Option<u32>,
    /// `LEADGEN_RATE_LIMIT_PER_TOKEN`: API requests a minute per personal API token;
    /// `None` (0) turns it off. Default 120, with bursts of a fifth of it. A token's
    /// requests count here instead of in the per-user limit.
    pub rate_limit_per_token: Option<u32>,
    /// `LEADGEN_TRUSTED_PROXIES`: proxies (addresses or CIDR ranges) whose `Forwarded` or
    /// `X-Forwarded-For` header names the client, for the per-address limit. Default none:
    /// the TCP peer is the client, whatever headers it sends.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// `LEADGEN_METRICS_LISTEN`: the API's `/metrics`, on a listener of its own so the
    /// public port never serves it. Default `127.0.0.1:9090`; `off` disables it.
    pub metrics_listen: Option<SocketAddr>,
    /// `LEADGEN_HTTP_*` and `LEADGEN_MAX_STREAMS_PER_USER`: what one client may hold of
    /// the API's HTTP server.
    pub http_limits: HttpLimits,
    /// `LEADGEN_WEB_DIR`: the built front end served at `/`. Default `frontend/dist`.
    pub web_dir: PathBuf,
    /// `LEADGEN_FREE_MONTHLY_SEARCHES` (100), `LEADGEN_FREE_DAILY_LEADS` (1000),
    /// `LEADGEN_PRO_MONTHLY_SEARCHES` (10000), `LEADGEN_PRO_DAILY_LEADS` (0: no daily cap).
    pub usage_limits: crate::usage::UsageLimits,
    /// `LEADGEN_WORKER_CONCURRENCY`: searches one worker process runs at once. Default 16.
    pub worker_concurrency: usize,
    /// `LEADGEN_WORKER_NAME`: the worker's name in the fleet; the Helm chart passes the pod
    /// name. Unset: `{hostname}-{pid}-{random}`. Letters, digits, `.`, `_` and `-` only.
    pub worker_name: Option<String>,
    /// `LEADGEN_WORKER_DRAIN_SECS`: after SIGTERM, how long a worker lets running searches
    /// finish before handing them back to the queue. Default 25 (keep it below the pod's
    /// termination grace period).
    pub worker_drain: Duration,
    /// `LEADGEN_PLACES_RPS`: upstream requests per second allowed per API key, across the
    /// whole fleet. Default 10 (Google's default quota: 600 Text Search requests a minute).
    pub places_rps: u32,
    /// `LEADGEN_PRICE_TEXT_SEARCH_*`: US dollars per 1,000 Text Search requests of each
    /// SKU. Defaults: Google's list prices (IDs only $0, Pro $32, Enterprise $35).
    pub places_prices: crate::search::PriceTable,
    /// `LEADGEN_REDIS_PREFIX`: first part of every Redis key and queue name. Default `leadgen`.
    pub redis_prefix: String,
    /// `LEADGEN_RESULTS_REPLAY_MINUTES`: how long a search's events (its leads included)
    /// stay in memory after its last event, for reconnecting and re-downloading; never on
    /// disk. Default 10 minutes, from 1 to 60.
    pub replay_ttl: Duration,
    /// `LEADGEN_WORKER_METRICS_LISTEN`: the worker's `/metrics` and `/healthz`. Default
    /// `0.0.0.0:9091`; `off` disables them.
    pub worker_metrics_listen: Option<SocketAddr>,
    /// `LEADGEN_OUTBOUND_ALLOWED_HOSTS`: `host:port` pairs exempt from the guarded
    /// client's address refusal, for tests and demos whose fakes listen on loopback.
    /// Default none: every website and webhook address is checked.
    pub outbound_allowed_hosts: Vec<String>,
    /// `LEADGEN_WEBHOOK_*`: how webhook deliveries are attempted and retried.
    pub webhooks: crate::webhooks::DeliverySchedule,
    /// Logs and error reporting.
    pub telemetry: TelemetryConfig,
    /// `LEADGEN_SMTP_URL`, `LEADGEN_MAIL_FROM`: outgoing mail; `None`: no mail.
    pub mail: Option<crate::delivery::MailConfig>,
    /// `[site]`: what the public pages say of the operator.
    pub site: site::SiteInfo,
}

/// Logs and error reporting (see `telemetry::init`).
#[derive(Clone)]
pub struct TelemetryConfig {
    /// `LEADGEN_LOG_FORMAT`: JSON lines when `json`. Default `text`.
    pub json_logs: bool,
    /// `RUST_LOG`: the log filter. Default `info,sqlx=warn`.
    pub log_filter: String,
    /// `LEADGEN_RELEASE`: the release name. Default `leadgen@{version}`.
    pub release: String,
    /// `SENTRY_DSN`: where to report errors; unset: no Sentry.
    pub sentry_dsn: Option<SecretString>,
    /// `SENTRY_ENVIRONMENT`: default `production`.
    pub sentry_environment: String,
    /// `SENTRY_TRACES_SAMPLE_RATE`: 0.0 to 1.0, default 0.1.
    pub sentry_traces_sample_rate: f32,
}

impl std::fmt::Debug for TelemetryConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TelemetryConfig")
            .field("json_logs", &self.json_logs)
            .field("log_filter", &self.log_filter)
            .field("release", &self.release)
            .field("sentry", &self.sentry_dsn.is_some())
            .finish_non_exhaustive()
    }
}

impl TelemetryConfig {
    fn from_settings(t: TelemetrySettings) -> Result<Self, ConfigError> {
        use secrecy::ExposeSecret;
        let json_logs = match t.log_format.trim().to_ascii_lowercase().as_str() {
            "json" => true,
            "text" | "" => false,
            other => {
                return Err(ConfigError::new(
                    "LEADGEN_LOG_FORMAT",
                    format!("'{other}' must be json or text"),
                ));
            }
        };
        if !(0.0..=1.0).contains(&t.sentry_traces_sample_rate) {
            return Err(ConfigError::new(
                "SENTRY_TRACES_SAMPLE_RATE",
                format!("'{}' must be from 0.0 to 1.0", t.sentry_traces_sample_rate),
            ));
        }
        Ok(Self {
            json_logs,
            log_filter: t.log_filter,
            release: crate::telemetry::release_from(t.release),
            sentry_dsn: t.sentry_dsn.filter(|d| !d.expose_secret().trim().is_empty()),
            sentry_environment: t.sentry_environment,
            sentry_traces_sample_rate: t.sentry_traces_sample_rate,
        })
    }
}

/// Stripe's API base URL.
pub const STRIPE_API_BASE_URL: &str = "https://api.stripe.com/";

/// Stripe billing; configured when `STRIPE_SECRET_KEY` is set.
#[derive(Clone)]
pub struct BillingConfig {
    /// `STRIPE_SECRET_KEY`: the secret API key (`sk_live_...` / `sk_test_...`).
    pub secret_key: SecretString,
    /// `STRIPE_WEBHOOK_SECRET`: the endpoint's signing secret (`whsec_...`).
    pub webhook_secret: SecretString,
    /// `STRIPE_PRICE_MONTHLY`: price id of Pro billed monthly.
    pub price_monthly: String,
    /// `STRIPE_PRICE_YEARLY`: price id of Pro billed yearly.
    pub price_yearly: String,
    /// `STRIPE_API_BASE_URL`: Stripe's API (default `https://api.stripe.com/`); tests
    /// point it at a fake.
    pub api_base_url: Url,
}

impl std::fmt::Debug for BillingConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BillingConfig")
            .field("price_monthly", &self.price_monthly)
            .field("price_yearly", &self.price_yearly)
            .field("api_base_url", &self.api_base_url.as_str())
            .finish_non_exhaustive()
    }
}

/// Bounds on what clients may hold of one API process.
#[derive(Debug, Clone, Copy)]
pub struct HttpLimits {
    /// `LEADGEN_HTTP_HEADER_TIMEOUT_SECS`: how long a connection may take to send a
    /// request's head, counted from when the server waits for it, so it is also how long
    /// an idle keep-alive connection stays open. Default 30 s, from 1 to 3600.
    pub header_timeout: Duration,
    /// `LEADGEN_HTTP_MAX_CONNECTIONS`: open connections accepted at once; more wait in the
    /// kernel's backlog. Default 16384, from 1 to 1000000.
    pub max_connections: usize,
    /// `LEADGEN_MAX_STREAMS_PER_USER`: live search streams (`search-stream` and
    /// `.../events`) one user may hold open on one API process; one more gets 429.
    /// Default 20, from 1 to 10000.
    pub max_streams_per_user: usize,
}

/// Where the Sheets export talks to Google.
#[derive(Debug, Clone)]
pub struct GoogleApis {
    /// OAuth 2.0 token endpoint (refresh-token grant).
    pub token_url: Url,
    /// Sheets API v4 base URL.
    pub sheets_base_url: Url,
    /// Drive API v3 base URL.
    pub drive_base_url: Url,
}

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads configuration through `lookup` (tests pass a map). Empty values count as unset.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        Self::from_settings(Settings::load(&lookup)?)
    }

    /// Checks the settings together and builds the configuration; a bad value is refused
    /// with a message naming its variable.
    pub fn from_settings(s: Settings) -> Result<Self, ConfigError> {
        use secrecy::ExposeSecret;
        let blank_to_none = |v: Option<String>| v.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
        let secret = |v: Option<SecretString>| v.filter(|v| !v.expose_secret().trim().is_empty());

        let listen: SocketAddr = s.server.listen.trim().parse().map_err(|_| {
            ConfigError::new(
                "LEADGEN_LISTEN",
                format!("'{}' is not a socket address such as 127.0.0.1:8080", s.server.listen),
            )
        })?;
        let public_url = match blank_to_none(s.server.public_url) {
            Some(v) => parse_http_url("LEADGEN_PUBLIC_URL", &v)?,
            None => parse_http_url("LEADGEN_LISTEN", &format!("http://{listen}"))?,
        };
        let places_base_url = parse_http_url("LEADGEN_PLACES_BASE_URL", &s.places.base_url)?;
        let google_apis = GoogleApis {
            token_url: parse_http_url("LEADGEN_GOOGLE_TOKEN_URL", &s.google.token_url)?,
            sheets_base_url: parse_http_url("LEADGEN_SHEETS_BASE_URL", &s.google.sheets_base_url)?,
            drive_base_url: parse_http_url("LEADGEN_DRIVE_BASE_URL", &s.google.drive_base_url)?,
        };

        let billing = match secret(s.stripe.secret_key) {
            None => None,
            Some(secret_key) => {
                let required = |variable: &'static str, value: Option<String>| {
                    blank_to_none(value)
                        .ok_or_else(|| ConfigError::new(variable, "is required when STRIPE_SECRET_KEY is set"))
                };
                let webhook_secret = secret(s.stripe.webhook_secret).ok_or_else(|| {
                    ConfigError::new("STRIPE_WEBHOOK_SECRET", "is required when STRIPE_SECRET_KEY is set")
                })?;
                if !webhook_secret.expose_secret().trim().starts_with("whsec_") {
                    return Err(ConfigError::new(
                        "STRIPE_WEBHOOK_SECRET",
                        "must be the endpoint's signing secret (whsec_...)",
                    ));
                }
                Some(BillingConfig {
                    secret_key: SecretString::from(secret_key.expose_secret().trim().to_owned()),
                    webhook_secret: SecretString::from(webhook_secret.expose_secret().trim().to_owned()),
                    price_monthly: required("STRIPE_PRICE_MONTHLY", s.stripe.price_monthly)?,
                    price_yearly: required("STRIPE_PRICE_YEARLY", s.stripe.price_yearly)?,
                    api_base_url: parse_http_url("STRIPE_API_BASE_URL", &s.stripe.api_base_url)?,
                })
            }
        };

        let database_url = blank_to_none(s.database.url);
        if let Some(url) = &database_url
            && !(url.starts_with("postgres://") || url.starts_with("postgresql://") || url.starts_with("sqlite:"))
        {
            return Err(ConfigError::new(
                "DATABASE_URL",
                "must start with postgres://, postgresql:// or sqlite:",
            ));
        }
        let redis_url = blank_to_none(s.redis.url);
        if let Some(url) = &redis_url
            && !(url.starts_with("redis://") || url.starts_with("rediss://"))
        {
            return Err(ConfigError::new("REDIS_URL", "must start with redis:// or rediss://"));
        }

        let oidc = match (blank_to_none(s.oidc.client_id), blank_to_none(s.oidc.issuer)) {
            (Some(client_id), issuer) => Some(OidcConfig {
                // Kept as typed: ID tokens' `iss` must match it exactly (no added slash).
                issuer: {
                    let issuer = issuer.unwrap_or_else(|| GOOGLE_ISSUER.to_owned());
                    parse_http_url("LEADGEN_OIDC_ISSUER", &issuer)?;
                    issuer
                },
                client_id,
                client_secret: secret(s.oidc.client_secret),
            }),
            (None, Some(_)) => {
                return Err(ConfigError::new(
                    "LEADGEN_OIDC_CLIENT_ID",
                    "is required when LEADGEN_OIDC_ISSUER is set",
                ));
            }
            (None, None) => None,
        };
        if oidc.is_none() && !listen.ip().is_loopback() {
            return Err(ConfigError::new(
                "LEADGEN_LISTEN",
                format!(
                    "local sign-in (no LEADGEN_OIDC_CLIENT_ID) is only allowed on a loopback address, not {listen}; configure an identity provider or listen on 127.0.0.1"
                ),
            ));
        }

        let encryption_key = secret(s.secrets.encryption_key);
        let previous_encryption_keys = secret(s.secrets.previous_encryption_keys)
            .map(|v| {
                v.expose_secret()
                    .split(',')
                    .map(str::trim)
                    .filter(|k| !k.is_empty())
                    .map(|k| SecretString::from(k.to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        let jwt_secret = secret(s.secrets.jwt_secret);
        if database_url.is_some() {
            if encryption_key.is_none() {
                return Err(ConfigError::new(
                    "LEADGEN_ENCRYPTION_KEY",
                    "is required with DATABASE_URL (base64 of 32 random bytes: openssl rand -base64 32)",
                ));
            }
            if jwt_secret.is_none() {
                return Err(ConfigError::new(
                    "LEADGEN_JWT_SECRET",
                    "is required with DATABASE_URL (at least 32 random bytes)",
                ));
            }
        }
        if let Some(secret) = &jwt_secret
            && secret.expose_secret().len() < 32
        {
            return Err(ConfigError::new("LEADGEN_JWT_SECRET", "must be at least 32 characters"));
        }

        let session_ttl = match s.server.session_ttl_secs {
            secs @ 60..=86_400 => Duration::from_secs(secs as u64),
            other => {
                return Err(ConfigError::new(
                    "LEADGEN_SESSION_TTL_SECS",
                    format!("'{other}' must be a whole number of seconds from 60 to 86400"),
                ));
            }
        };

        let whole = |variable: &'static str, n: i64| -> Result<i64, ConfigError> {
            if n < 0 {
                return Err(ConfigError::new(
                    variable,
                    format!("'{n}' must be a whole number, 0 or more"),
                ));
            }
            Ok(n)
        };
        let cap = |n: i64| (n > 0).then_some(n);
        let usage_limits = crate::usage::UsageLimits {
            free: crate::usage::TierLimits {
                monthly_searches: whole("LEADGEN_FREE_MONTHLY_SEARCHES", s.usage.free_monthly_searches)?,
                daily_leads: cap(whole("LEADGEN_FREE_DAILY_LEADS", s.usage.free_daily_leads)?),
            },
            pro: crate::usage::TierLimits {
                monthly_searches: whole("LEADGEN_PRO_MONTHLY_SEARCHES", s.usage.pro_monthly_searches)?,
                daily_leads: cap(whole("LEADGEN_PRO_DAILY_LEADS", s.usage.pro_daily_leads)?),
            },
        };
        let per_minute = |variable: &'static str, n: i64| -> Result<Option<u32>, ConfigError> {
            match n {
                0 => Ok(None),
                1..=1_000_000 => Ok(Some(n as u32)),
                other => Err(ConfigError::new(
                    variable,
                    format!("'{other}' must be requests a minute from 1 to 1000000, or 0 for no limit"),
                )),
            }
        };
        let rate_limit_per_user = per_minute("LEADGEN_RATE_LIMIT_PER_USER", s.server.rate_limit_per_user)?;
        let rate_limit_per_ip = per_minute("LEADGEN_RATE_LIMIT_PER_IP", s.server.rate_limit_per_ip)?;
        let rate_limit_per_token = per_minute("LEADGEN_RATE_LIMIT_PER_TOKEN", s.server.rate_limit_per_token)?;
        let trusted_proxies = parse_trusted_proxies(&s.server.trusted_proxies)
            .map_err(|problem| ConfigError::new("LEADGEN_TRUSTED_PROXIES", problem))?;
        let metrics_listen = optional_listen("LEADGEN_METRICS_LISTEN", &s.server.metrics_listen, "127.0.0.1:9090")?;
        let bounded = |variable: &'static str, n: i64, max: i64, unit: &str| -> Result<u64, ConfigError> {
            u64::try_from(n)
                .ok()
                .filter(|n| (1..=max as u64).contains(n))
                .ok_or_else(|| ConfigError::new(variable, format!("'{n}' must be {unit} from 1 to {max}")))
        };
        let http_limits = HttpLimits {
            header_timeout: Duration::from_secs(bounded(
                "LEADGEN_HTTP_HEADER_TIMEOUT_SECS",
                s.server.http_header_timeout_secs,
                3600,
                "whole seconds",
            )?),
            max_connections: bounded(
                "LEADGEN_HTTP_MAX_CONNECTIONS",
                s.server.http_max_connections,
                1_000_000,
                "connections",
            )? as usize,
            max_streams_per_user: bounded(
                "LEADGEN_MAX_STREAMS_PER_USER",
                s.server.max_streams_per_user,
                10_000,
                "streams",
            )? as usize,
        };
        let worker_concurrency =
            usize::try_from(whole("LEADGEN_WORKER_CONCURRENCY", s.worker.concurrency)?.clamp(1, 1024)).unwrap_or(16);
        let places_rps = u32::try_from(whole("LEADGEN_PLACES_RPS", s.places.rps)?.clamp(1, 10_000)).unwrap_or(10);
        let price = |var: &'static str, value: f64| {
            if value.is_finite() && (0.0..=10_000.0).contains(&value) {
                Ok(value)
            } else {
                Err(ConfigError::new(
                    var,
                    format!("'{value}' must be US dollars per 1,000 requests, from 0 to 10000"),
                ))
            }
        };
        let places_prices = crate::search::PriceTable {
            ids_only: price("LEADGEN_PRICE_TEXT_SEARCH_IDS_ONLY", s.places.price_ids_only)?,
            pro: price("LEADGEN_PRICE_TEXT_SEARCH_PRO", s.places.price_pro)?,
            enterprise: price("LEADGEN_PRICE_TEXT_SEARCH_ENTERPRISE", s.places.price_enterprise)?,
        };
        let worker_name = blank_to_none(s.worker.name);
        if let Some(name) = &worker_name
            && (name.len() > 253
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')))
        {
            return Err(ConfigError::new(
                "LEADGEN_WORKER_NAME",
                format!("'{name}' may hold only letters, digits, '.', '_' and '-' (at most 253), like a pod name"),
            ));
        }
        let worker_drain = match s.worker.drain_secs {
            secs @ 1..=3600 => Duration::from_secs(secs as u64),
            other => {
                return Err(ConfigError::new(
                    "LEADGEN_WORKER_DRAIN_SECS",
                    format!("'{other}' must be a whole number of seconds from 1 to 3600"),
                ));
            }
        };
        let replay_ttl = match s.redis.replay_minutes {
            minutes @ 1..=60 => Duration::from_secs(minutes as u64 * 60),
            other => {
                return Err(ConfigError::new(
                    "LEADGEN_RESULTS_REPLAY_MINUTES",
                    format!("'{other}' must be a whole number of minutes from 1 to 60"),
                ));
            }
        };
        let worker_metrics_listen = optional_listen(
            "LEADGEN_WORKER_METRICS_LISTEN",
            &s.worker.metrics_listen,
            "0.0.0.0:9091",
        )?;
        let outbound_allowed_hosts = crate::outbound::parse_allowed_hosts(&s.outbound.allowed_hosts)
            .map_err(|problem| ConfigError::new("LEADGEN_OUTBOUND_ALLOWED_HOSTS", problem))?;
        let webhooks = crate::webhooks::DeliverySchedule {
            timeout: Duration::from_secs(
                u64::try_from(whole("LEADGEN_WEBHOOK_TIMEOUT_SECS", s.webhooks.timeout_secs)?)
                    .ok()
                    .filter(|t| (1..=60).contains(t))
                    .ok_or_else(|| ConfigError::new("LEADGEN_WEBHOOK_TIMEOUT_SECS", "must be 1 to 60 seconds"))?,
            ),
            first_retry: Duration::from_millis(
                u64::try_from(whole("LEADGEN_WEBHOOK_FIRST_RETRY_MS", s.webhooks.first_retry_ms)?)
                    .ok()
                    .filter(|t| (1..=3_600_000).contains(t))
                    .ok_or_else(|| {
                        ConfigError::new("LEADGEN_WEBHOOK_FIRST_RETRY_MS", "must be 1 to 3600000 milliseconds")
                    })?,
            ),
            max_attempts: u32::try_from(whole("LEADGEN_WEBHOOK_MAX_ATTEMPTS", s.webhooks.max_attempts)?)
                .ok()
                .filter(|n| (1..=30).contains(n))
                .ok_or_else(|| ConfigError::new("LEADGEN_WEBHOOK_MAX_ATTEMPTS", "must be 1 to 30 attempts"))?,
        };
        let telemetry = TelemetryConfig::from_settings(s.telemetry)?;
        let site = site::SiteInfo::from_settings(s.site)?;
        let mail = crate::delivery::MailConfig::from_settings(
            s.mail.smtp_url,
            s.mail.from.as_deref(),
            public_url.host_str().unwrap_or("localhost"),
        )?;

        Ok(Self {
            listen,
            public_url,
            data_dir: s.server.data_dir.trim().into(),
            database_url,
            redis_url,
            places_base_url,
            google_apis,
            billing,
            oidc,
            encryption_key,
            previous_encryption_keys,
            jwt_secret,
            session_ttl,
            web_dir: s.server.web_dir.trim().into(),
            usage_limits,
            worker_concurrency,
            worker_name,
            worker_drain,
            worker_metrics_listen,
            places_rps,
            places_prices,
            rate_limit_per_user,
            rate_limit_per_ip,
            rate_limit_per_token,
            trusted_proxies,
            metrics_listen,
            http_limits,
            redis_prefix: s.redis.prefix.trim().to_owned(),
            replay_ttl,
            outbound_allowed_hosts,
            webhooks,
            telemetry,
            mail,
            site,
        })
    }

    /// The store's URL: `DATABASE_URL`, or the embedded SQLite file.
    pub fn store_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}?mode=rwc", self.data_dir.join("leadgen.db").display()),
        }
    }

    /// The guarded client's policy: the exemptions of `LEADGEN_OUTBOUND_ALLOWED_HOSTS`.
    pub fn outbound_policy(&self) -> crate::outbound::OutboundPolicy {
        crate::outbound::OutboundPolicy::new(self.outbound_allowed_hosts.clone())
    }

    /// True when neither `DATABASE_URL` nor `REDIS_URL` is set: one process does it all.
    pub fn is_embedded(&self) -> bool {
        self.database_url.is_none() && self.redis_url.is_none()
    }

    /// Where the browser lands after sign-in, with `/auth/success` or `/auth/error` added.
    pub fn public_path(&self, path: &str) -> Url {
        let mut url = self.public_url.clone();
        url.set_path(path);
        url.set_query(None);
        url
    }
}

/// A listen address that may be turned off (`off`): `example` is shown when it is bad.
fn optional_listen(variable: &'static str, value: &str, example: &str) -> Result<Option<SocketAddr>, ConfigError> {
    match value.trim() {
        "off" | "none" => Ok(None),
        v => v.parse::<SocketAddr>().map(Some).map_err(|_| {
            ConfigError::new(
                variable,
                format!("'{v}' is not a socket address such as {example} (or 'off')"),
            )
        }),
    }
}

/// `LEADGEN_TRUSTED_PROXIES`: comma-separated addresses (`10.0.0.7`) or ranges
/// (`10.0.0.0/8`, `fd00::/8`).
pub fn parse_trusted_proxies(value: &str) -> Result<Vec<ipnet::IpNet>, String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(|entry| {
            entry
                .parse::<ipnet::IpNet>()
                .or_else(|_| entry.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map(|net| net.trunc())
                .map_err(|_| format!("'{entry}' is not an address or a CIDR range such as 10.0.0.0/8"))
        })
        .collect()
}

fn parse_http_url(variable: &'static str, value: &str) -> Result<Url, ConfigError> {
    let url = Url::parse(value).map_err(|e| ConfigError::new(variable, format!("'{value}' is not a URL: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(ConfigError::new(
            variable,
            format!("'{value}' must be an http or https URL"),
        ));
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn defaults_are_embedded_local_on_loopback() {
        let c = config(&[]).expect("defaults");
        assert_eq!(c.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(c.public_url.as_str(), "http://127.0.0.1:8080/");
        assert!(c.is_embedded());
        assert!(c.oidc.is_none());
        assert!(c.store_url().starts_with("sqlite://"));
        assert_eq!(c.session_ttl, Duration::from_secs(3600));
        assert_eq!((c.worker_name, c.worker_drain), (None, Duration::from_secs(25)));
        let pod = config(&[
            ("LEADGEN_WORKER_NAME", "leadgen-worker-6c9f7-x2kq"),
            ("LEADGEN_WORKER_DRAIN_SECS", "45"),
        ])
        .expect("pod settings");
        assert_eq!(pod.worker_name.as_deref(), Some("leadgen-worker-6c9f7-x2kq"));
        assert_eq!(pod.worker_drain, Duration::from_secs(45));
        assert_eq!(c.replay_ttl, Duration::from_secs(600));
        let short = config(&[("LEADGEN_RESULTS_REPLAY_MINUTES", "2")]).expect("two minutes");
        assert_eq!(short.replay_ttl, Duration::from_secs(120));
    }

    #[test]
    fn bad_values_name_their_variable() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[("LEADGEN_LISTEN", "nonsense")], "LEADGEN_LISTEN"),
            (&[("LEADGEN_PUBLIC_URL", "ftp://x")], "LEADGEN_PUBLIC_URL"),
            (&[("DATABASE_URL", "mysql://x")], "DATABASE_URL"),
            (&[("REDIS_URL", "http://x")], "REDIS_URL"),
            (
                &[("LEADGEN_OIDC_ISSUER", "https://id.example")],
                "LEADGEN_OIDC_CLIENT_ID",
            ),
            (&[("DATABASE_URL", "postgres://x/db")], "LEADGEN_ENCRYPTION_KEY"),
            (&[("LEADGEN_JWT_SECRET", "short")], "LEADGEN_JWT_SECRET"),
            (&[("LEADGEN_SESSION_TTL_SECS", "5")], "LEADGEN_SESSION_TTL_SECS"),
            (&[("LEADGEN_FREE_DAILY_LEADS", "-3")], "LEADGEN_FREE_DAILY_LEADS"),
            (&[("LEADGEN_PLACES_RPS", "fast")], "LEADGEN_PLACES_RPS"),
            (&[("LEADGEN_WORKER_NAME", "pod:a")], "LEADGEN_WORKER_NAME"),
            (&[("LEADGEN_WORKER_DRAIN_SECS", "0")], "LEADGEN_WORKER_DRAIN_SECS"),
            (
                &[("LEADGEN_RESULTS_REPLAY_MINUTES", "0")],
                "LEADGEN_RESULTS_REPLAY_MINUTES",
            ),
            (
                &[("LEADGEN_RESULTS_REPLAY_MINUTES", "61")],
                "LEADGEN_RESULTS_REPLAY_MINUTES",
            ),
            (&[("LEADGEN_WORKER_CONCURRENCY", "many")], "LEADGEN_WORKER_CONCURRENCY"),
            (
                &[("LEADGEN_WORKER_METRICS_LISTEN", "nonsense")],
                "LEADGEN_WORKER_METRICS_LISTEN",
            ),
            (&[("LEADGEN_METRICS_LISTEN", "9090")], "LEADGEN_METRICS_LISTEN"),
            (
                &[("LEADGEN_TRUSTED_PROXIES", "10.0.0.0/8, ingress")],
                "LEADGEN_TRUSTED_PROXIES",
            ),
            (&[("LEADGEN_TRUSTED_PROXIES", "10.0.0.0/33")], "LEADGEN_TRUSTED_PROXIES"),
            (
                &[("LEADGEN_HTTP_HEADER_TIMEOUT_SECS", "0")],
                "LEADGEN_HTTP_HEADER_TIMEOUT_SECS",
            ),
            (
                &[("LEADGEN_HTTP_MAX_CONNECTIONS", "-1")],
                "LEADGEN_HTTP_MAX_CONNECTIONS",
            ),
            (&[("LEADGEN_MAX_STREAMS_PER_USER", "0")], "LEADGEN_MAX_STREAMS_PER_USER"),
            (&[("LEADGEN_LOG_FORMAT", "xml")], "LEADGEN_LOG_FORMAT"),
            (&[("SENTRY_TRACES_SAMPLE_RATE", "2")], "SENTRY_TRACES_SAMPLE_RATE"),
            (&[("LEADGEN_RATE_LIMIT_PER_USER", "-1")], "LEADGEN_RATE_LIMIT_PER_USER"),
            (&[("LEADGEN_RATE_LIMIT_PER_IP", "2000000")], "LEADGEN_RATE_LIMIT_PER_IP"),
            (
                &[("LEADGEN_RATE_LIMIT_PER_TOKEN", "-5")],
                "LEADGEN_RATE_LIMIT_PER_TOKEN",
            ),
            (
                &[("LEADGEN_PRICE_TEXT_SEARCH_PRO", "-5")],
                "LEADGEN_PRICE_TEXT_SEARCH_PRO",
            ),
            (
                &[("LEADGEN_CONFIG_FILE", "/nonexistent/leadgen.toml")],
                "LEADGEN_CONFIG_FILE",
            ),
        ];
        for (vars, variable) in cases {
            let err = config(vars).expect_err(variable);
            assert_eq!(err.variable, *variable, "{err}");
            assert!(err.to_string().starts_with(variable));
        }
    }

    #[test]
    fn numbers_keep_their_friendly_messages() {
        let err = config(&[("LEADGEN_PLACES_RPS", "fast")]).expect_err("not a number");
        assert_eq!(err.to_string(), "LEADGEN_PLACES_RPS: 'fast' must be a whole number");
        let err = config(&[("LEADGEN_FREE_DAILY_LEADS", "-3")]).expect_err("negative");
        assert_eq!(
            err.to_string(),
            "LEADGEN_FREE_DAILY_LEADS: '-3' must be a whole number, 0 or more"
        );
        let c = config(&[
            ("LEADGEN_WORKER_CONCURRENCY", " 4 "),
            ("LEADGEN_WORKER_METRICS_LISTEN", "off"),
        ])
        .expect("ok");
        assert_eq!((c.worker_concurrency, c.worker_metrics_listen), (4, None));
        let limits = config(&[("LEADGEN_RATE_LIMIT_PER_USER", "0")]).expect("ok");
        assert_eq!(
            (limits.rate_limit_per_user, limits.rate_limit_per_ip),
            (None, Some(1200))
        );
        assert_eq!(
            config(&[]).expect("defaults").worker_metrics_listen.map(|a| a.port()),
            Some(9091)
        );
    }

    #[test]
    fn a_file_layers_between_the_defaults_and_the_environment() {
        let dir = std::env::temp_dir().join(format!("leadgen-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("leadgen.toml");
        std::fs::write(
            &file,
            "[places]\nrps = 9\n[worker]\nconcurrency = 3\n[redis]\nprefix = \"from-file\"\n",
        )
        .expect("write");
        let path = file.display().to_string();
        let c = config(&[("LEADGEN_CONFIG_FILE", &path), ("LEADGEN_WORKER_CONCURRENCY", "7")]).expect("layered");
        assert_eq!(c.places_rps, 9, "the file over the default");
        assert_eq!(c.worker_concurrency, 7, "the environment over the file");
        assert_eq!(c.redis_prefix, "from-file");
        std::fs::write(&file, "[places]\nrsp = 9\n").expect("write");
        let err = config(&[("LEADGEN_CONFIG_FILE", &path)]).expect_err("a typo in the file");
        assert_eq!(err.variable, "LEADGEN_CONFIG_FILE");
        assert!(err.problem.contains("places.rsp"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn outbound_exemptions_are_checked_and_empty_by_default() {
        let c = config(&[]).expect("defaults");
        assert!(c.outbound_allowed_hosts.is_empty(), "production checks every address");
        let c = config(&[("LEADGEN_OUTBOUND_ALLOWED_HOSTS", "127.0.0.1:8090, fake-web:80")]).expect("two hosts");
        assert_eq!(c.outbound_allowed_hosts, ["127.0.0.1:8090", "fake-web:80"]);
        let url = url::Url::parse("http://127.0.0.1:8090/").expect("url");
        assert!(c.outbound_policy().is_exempt(&url));
        let err = config(&[("LEADGEN_OUTBOUND_ALLOWED_HOSTS", "127.0.0.1")]).expect_err("no port");
        assert_eq!(err.variable, "LEADGEN_OUTBOUND_ALLOWED_HOSTS");
        assert!(err.problem.contains("host:port"), "{err}");
    }

    /// The variables `.env.example` and the README's table document: each exactly those
    /// the code declares.
    #[test]
    fn env_example_and_readme_list_every_variable_and_no_other() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let declared: std::collections::BTreeSet<&str> = VARIABLES
            .iter()
            .map(|v| v.env)
            .chain([settings::CONFIG_FILE])
            .filter(|v| *v != "RUST_LOG")
            .collect();
        let example = std::fs::read_to_string(root.join(".env.example")).expect(".env.example");
        let in_example: std::collections::BTreeSet<String> = example
            .lines()
            .filter_map(|l| {
                l.trim_start_matches('#')
                    .trim()
                    .split_once('=')
                    .map(|(k, _)| k.trim().to_owned())
            })
            .filter(|k| {
                !k.is_empty()
                    && k.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            })
            .collect();
        let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
        let table: String = readme
            .split("## Configuration")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("README has a Configuration section")
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|l| l.split(" | ").next().unwrap_or_default().to_owned() + "\n")
            .collect();
        let in_readme = backquoted_names(&table);
        let declared: std::collections::BTreeSet<String> = declared.into_iter().map(str::to_owned).collect();
        assert_eq!(in_example, declared, ".env.example against config::VARIABLES");
        assert_eq!(in_readme, declared, "the README's table against config::VARIABLES");
    }

    /// Backquoted upper-case names in `text`.
    fn backquoted_names(text: &str) -> std::collections::BTreeSet<String> {
        text.split('`')
            .skip(1)
            .step_by(2)
            .filter(|t| {
                t.len() > 3
                    && t.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            })
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn edge_settings_default_to_a_closed_metrics_port_and_no_trusted_proxy() {
        let c = config(&[]).expect("defaults");
        assert_eq!(
            c.metrics_listen.map(|a| a.to_string()),
            Some("127.0.0.1:9090".to_owned())
        );
        assert!(c.trusted_proxies.is_empty(), "no proxy is trusted unless configured");
        assert_eq!(
            (
                c.http_limits.header_timeout.as_secs(),
                c.http_limits.max_connections,
                c.http_limits.max_streams_per_user
            ),
            (30, 16384, 20)
        );
        let c = config(&[
            ("LEADGEN_METRICS_LISTEN", "off"),
            ("LEADGEN_TRUSTED_PROXIES", " 10.1.2.3/8 , 192.0.2.7, fd00::/8 "),
        ])
        .expect("config");
        assert_eq!(c.metrics_listen, None);
        let proxies: Vec<String> = c.trusted_proxies.iter().map(ToString::to_string).collect();
        assert_eq!(
            proxies,
            ["10.0.0.0/8", "192.0.2.7/32", "fd00::/8"],
            "ranges are truncated to their network"
        );
    }

    #[test]
    fn local_sign_in_refuses_a_public_address() {
        let err = config(&[("LEADGEN_LISTEN", "0.0.0.0:8080")]).expect_err("must refuse");
        assert_eq!(err.variable, "LEADGEN_LISTEN");
        let ok = config(&[("LEADGEN_LISTEN", "0.0.0.0:8080"), ("LEADGEN_OIDC_CLIENT_ID", "abc")]).expect("oidc");
        assert_eq!(ok.oidc.expect("oidc").issuer, "https://accounts.google.com");
    }
}
