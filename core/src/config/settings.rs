//! The declarative layer of the configuration: every setting once, in sections, with its
//! default and the environment variable that sets it. Layered with figment: defaults,
//! then an optional TOML file (`LEADGEN_CONFIG_FILE`), then the environment.
//!
//! This layer only reads and types values; `super::Config::from_settings` checks them
//! together (URLs, ranges, what requires what) and names the variable at fault.

use figment::{
    Figment, Metadata, Profile, Provider,
    providers::{Format, Serialized, Toml},
    value::{Dict, Map, Value},
};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};

use super::{ConfigError, GOOGLE_DRIVE_BASE_URL, GOOGLE_PLACES_BASE_URL, GOOGLE_SHEETS_BASE_URL, GOOGLE_TOKEN_URL};

/// One setting: the environment variable and where it lives in [`Settings`] (and in the
/// TOML file: `section.key`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variable {
    /// The environment variable, e.g. `LEADGEN_PLACES_RPS`.
    pub env: &'static str,
    /// The section and key, e.g. `places.rps`.
    pub key: &'static str,
}

const fn var(env: &'static str, key: &'static str) -> Variable {
    Variable { env, key }
}

/// The variable naming the optional TOML file.
pub const CONFIG_FILE: &str = "LEADGEN_CONFIG_FILE";

/// Every setting Leadgen reads, in the order `.env.example` lists them.
pub const VARIABLES: &[Variable] = &[
    var("LEADGEN_LISTEN", "server.listen"),
    var("LEADGEN_PUBLIC_URL", "server.public_url"),
    var("LEADGEN_DATA_DIR", "server.data_dir"),
    var("DATABASE_URL", "database.url"),
    var("REDIS_URL", "redis.url"),
    var("LEADGEN_PLACES_BASE_URL", "places.base_url"),
    var("LEADGEN_OIDC_ISSUER", "oidc.issuer"),
    var("LEADGEN_OIDC_CLIENT_ID", "oidc.client_id"),
    var("LEADGEN_OIDC_CLIENT_SECRET", "oidc.client_secret"),
    var("LEADGEN_ENCRYPTION_KEY", "secrets.encryption_key"),
    var("LEADGEN_PREVIOUS_ENCRYPTION_KEYS", "secrets.previous_encryption_keys"),
    var("LEADGEN_JWT_SECRET", "secrets.jwt_secret"),
    var("LEADGEN_SESSION_TTL_SECS", "server.session_ttl_secs"),
    var("LEADGEN_RATE_LIMIT_PER_USER", "server.rate_limit_per_user"),
    var("LEADGEN_RATE_LIMIT_PER_IP", "server.rate_limit_per_ip"),
    var("LEADGEN_RATE_LIMIT_PER_TOKEN", "server.rate_limit_per_token"),
    var("LEADGEN_TRUSTED_PROXIES", "server.trusted_proxies"),
    var("LEADGEN_METRICS_LISTEN", "server.metrics_listen"),
    var("LEADGEN_HTTP_HEADER_TIMEOUT_SECS", "server.http_header_timeout_secs"),
    var("LEADGEN_HTTP_MAX_CONNECTIONS", "server.http_max_connections"),
    var("LEADGEN_MAX_STREAMS_PER_USER", "server.max_streams_per_user"),
    var("LEADGEN_WEB_DIR", "server.web_dir"),
    var("LEADGEN_LOG_FORMAT", "telemetry.log_format"),
    var("LEADGEN_REDIS_PREFIX", "redis.prefix"),
    var("LEADGEN_RESULTS_REPLAY_MINUTES", "redis.replay_minutes"),
    var("LEADGEN_PLACES_RPS", "places.rps"),
    var("LEADGEN_PRICE_TEXT_SEARCH_IDS_ONLY", "places.price_ids_only"),
    var("LEADGEN_PRICE_TEXT_SEARCH_PRO", "places.price_pro"),
    var("LEADGEN_PRICE_TEXT_SEARCH_ENTERPRISE", "places.price_enterprise"),
    var("LEADGEN_WORKER_CONCURRENCY", "worker.concurrency"),
    var("LEADGEN_WORKER_NAME", "worker.name"),
    var("LEADGEN_WORKER_DRAIN_SECS", "worker.drain_secs"),
    var("LEADGEN_FREE_MONTHLY_SEARCHES", "usage.free_monthly_searches"),
    var("LEADGEN_FREE_DAILY_LEADS", "usage.free_daily_leads"),
    var("LEADGEN_PRO_MONTHLY_SEARCHES", "usage.pro_monthly_searches"),
    var("LEADGEN_PRO_DAILY_LEADS", "usage.pro_daily_leads"),
    var("LEADGEN_GOOGLE_TOKEN_URL", "google.token_url"),
    var("LEADGEN_SHEETS_BASE_URL", "google.sheets_base_url"),
    var("LEADGEN_DRIVE_BASE_URL", "google.drive_base_url"),
    var("STRIPE_SECRET_KEY", "stripe.secret_key"),
    var("STRIPE_WEBHOOK_SECRET", "stripe.webhook_secret"),
    var("STRIPE_PRICE_MONTHLY", "stripe.price_monthly"),
    var("STRIPE_PRICE_YEARLY", "stripe.price_yearly"),
    var("STRIPE_API_BASE_URL", "stripe.api_base_url"),
    var("SENTRY_DSN", "telemetry.sentry_dsn"),
    var("SENTRY_ENVIRONMENT", "telemetry.sentry_environment"),
    var("SENTRY_TRACES_SAMPLE_RATE", "telemetry.sentry_traces_sample_rate"),
    var("LEADGEN_RELEASE", "telemetry.release"),
    var("LEADGEN_WORKER_METRICS_LISTEN", "worker.metrics_listen"),
    var("LEADGEN_OUTBOUND_ALLOWED_HOSTS", "outbound.allowed_hosts"),
    var("LEADGEN_WEBHOOK_TIMEOUT_SECS", "webhooks.timeout_secs"),
    var("LEADGEN_WEBHOOK_FIRST_RETRY_MS", "webhooks.first_retry_ms"),
    var("LEADGEN_WEBHOOK_MAX_ATTEMPTS", "webhooks.max_attempts"),
    var("LEADGEN_SMTP_URL", "mail.smtp_url"),
    var("LEADGEN_MAIL_FROM", "mail.from"),
    var("LEADGEN_SUPPORT_EMAIL", "site.support_email"),
    var("LEADGEN_HELP_CENTER_URL", "site.help_center_url"),
    var("LEADGEN_LIVE_CHAT_URL", "site.live_chat_url"),
    var("LEADGEN_LEGAL_ENTITY", "site.legal_entity"),
    var("LEADGEN_BUSINESS_ADDRESS", "site.business_address"),
    var("LEADGEN_JURISDICTION", "site.jurisdiction"),
    var("LEADGEN_ARBITRATION_RULES", "site.arbitration_rules"),
    var("LEADGEN_MARKETING_FIGURES", "site.marketing_figures"),
    var("RUST_LOG", "telemetry.log_filter"),
];

/// The variable of a `section.key` path.
pub fn variable_of(key: &str) -> Option<&'static str> {
    VARIABLES.iter().find(|v| v.key == key).map(|v| v.env)
}

/// All settings, by section, as read (not yet checked together).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Where the API listens and what it serves.
    pub server: ServerSettings,
    /// The store.
    pub database: DatabaseSettings,
    /// Queue, events, fleet.
    pub redis: RedisSettings,
    /// Google Places.
    pub places: PlacesSettings,
    /// Search workers.
    pub worker: WorkerSection,
    /// OpenID Connect sign-in.
    pub oidc: OidcSettings,
    /// Master keys.
    pub secrets: SecretSettings,
    /// Allowances per tier.
    pub usage: UsageSettings,
    /// Google's Sheets endpoints.
    pub google: GoogleSettings,
    /// Stripe billing.
    pub stripe: StripeSettings,
    /// Logs and error reporting.
    pub telemetry: TelemetrySettings,
    /// Fetches of third-party URLs (websites, webhooks).
    pub outbound: OutboundSettings,
    /// Webhook deliveries.
    pub webhooks: WebhookSettings,
    /// Outgoing mail.
    pub mail: MailSettings,
    /// What the public pages say of the operator.
    pub site: super::site::SiteSettings,
}

/// `[mail]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MailSettings {
    /// `LEADGEN_SMTP_URL`: the SMTP server mail goes through, as lettre reads it
    /// (`smtps://user:password@host:465`, `smtp://host:587?tls=required`, `smtp://host:25`
    /// for a local relay). Unset: no mail (delivery by email is not offered).
    #[serde(skip_serializing)]
    pub smtp_url: Option<SecretString>,
    /// `LEADGEN_MAIL_FROM`: the sender, e.g. `Leadgen <noreply@example.com>`. Default
    /// `Leadgen <noreply@{the public URL's host}>`.
    pub from: Option<String>,
}

/// `[webhooks]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebhookSettings {
    /// `LEADGEN_WEBHOOK_TIMEOUT_SECS`: one delivery attempt's time-out, seconds. Default 10.
    pub timeout_secs: i64,
    /// `LEADGEN_WEBHOOK_FIRST_RETRY_MS`: the first retry's delay, milliseconds; each next
    /// one doubles, up to 6 hours. Default 5000.
    pub first_retry_ms: i64,
    /// `LEADGEN_WEBHOOK_MAX_ATTEMPTS`: attempts before the endpoint is disabled. Default 16
    /// (with the default delays, about a day).
    pub max_attempts: i64,
}

impl Default for WebhookSettings {
    fn default() -> Self {
        Self {
            timeout_secs: 10,
            first_retry_ms: 5000,
            max_attempts: 16,
        }
    }
}

/// `[outbound]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutboundSettings {
    /// `LEADGEN_OUTBOUND_ALLOWED_HOSTS`: comma-separated `host:port` exempt from the
    /// address refusal (tests and demos only). Default empty.
    pub allowed_hosts: String,
}

/// `[server]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerSettings {
    /// `LEADGEN_LISTEN`.
    pub listen: String,
    /// `LEADGEN_PUBLIC_URL`; unset: `http://{listen}`.
    pub public_url: Option<String>,
    /// `LEADGEN_DATA_DIR`.
    pub data_dir: String,
    /// `LEADGEN_WEB_DIR`.
    pub web_dir: String,
    /// `LEADGEN_SESSION_TTL_SECS`.
    pub session_ttl_secs: i64,
    /// `LEADGEN_RATE_LIMIT_PER_USER`: API requests a minute per signed-in user (0: off).
    pub rate_limit_per_user: i64,
    /// `LEADGEN_RATE_LIMIT_PER_IP`: API requests a minute per client address (0: off).
    pub rate_limit_per_ip: i64,
    /// `LEADGEN_RATE_LIMIT_PER_TOKEN`: API requests a minute per personal API token (0: off).
    pub rate_limit_per_token: i64,
    /// `LEADGEN_TRUSTED_PROXIES`: comma-separated addresses or CIDR ranges of proxies whose
    /// `Forwarded` / `X-Forwarded-For` name the client. Default empty: the TCP peer is the
    /// client.
    pub trusted_proxies: String,
    /// `LEADGEN_METRICS_LISTEN`: the API's `/metrics`, on a listener of its own (`off` to
    /// disable). Default `127.0.0.1:9090`.
    pub metrics_listen: String,
    /// `LEADGEN_HTTP_HEADER_TIMEOUT_SECS`: seconds a connection may take to send a request's
    /// head, and may sit idle between requests. Default 30.
    pub http_header_timeout_secs: i64,
    /// `LEADGEN_HTTP_MAX_CONNECTIONS`: open connections one API process accepts. Default 16384.
    pub http_max_connections: i64,
    /// `LEADGEN_MAX_STREAMS_PER_USER`: live search streams one user may hold open on one API
    /// process. Default 20.
    pub max_streams_per_user: i64,
}

impl Default for ServerSettings {
    fn default() -> Self {
        Self {
            listen: "127.0.0.1:8080".into(),
            public_url: None,
            data_dir: "./data".into(),
            web_dir: "frontend/dist".into(),
            session_ttl_secs: 3600,
            rate_limit_per_user: 600,
            rate_limit_per_ip: 1200,
            rate_limit_per_token: 120,
            trusted_proxies: String::new(),
            metrics_listen: "127.0.0.1:9090".into(),
            http_header_timeout_secs: 30,
            http_max_connections: 16384,
            max_streams_per_user: 20,
        }
    }
}

/// `[database]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseSettings {
    /// `DATABASE_URL`; unset: embedded SQLite.
    pub url: Option<String>,
}

/// `[redis]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RedisSettings {
    /// `REDIS_URL`; unset: in-process queue and bus.
    pub url: Option<String>,
    /// `LEADGEN_REDIS_PREFIX`.
    pub prefix: String,
    /// `LEADGEN_RESULTS_REPLAY_MINUTES`.
    pub replay_minutes: i64,
}

impl Default for RedisSettings {
    fn default() -> Self {
        Self {
            url: None,
            prefix: "leadgen".into(),
            replay_minutes: 10,
        }
    }
}

/// `[places]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlacesSettings {
    /// `LEADGEN_PLACES_BASE_URL`.
    pub base_url: String,
    /// `LEADGEN_PLACES_RPS`.
    pub rps: i64,
    /// `LEADGEN_PRICE_TEXT_SEARCH_IDS_ONLY`: US dollars per 1,000 requests.
    pub price_ids_only: f64,
    /// `LEADGEN_PRICE_TEXT_SEARCH_PRO`: US dollars per 1,000 requests.
    pub price_pro: f64,
    /// `LEADGEN_PRICE_TEXT_SEARCH_ENTERPRISE`: US dollars per 1,000 requests.
    pub price_enterprise: f64,
}

impl Default for PlacesSettings {
    fn default() -> Self {
        let prices = crate::search::PriceTable::default();
        Self {
            base_url: GOOGLE_PLACES_BASE_URL.into(),
            // Google's default quota is 600 Text Search requests a minute.
            rps: 10,
            price_ids_only: prices.ids_only,
            price_pro: prices.pro,
            price_enterprise: prices.enterprise,
        }
    }
}

/// `[worker]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkerSection {
    /// `LEADGEN_WORKER_CONCURRENCY`.
    pub concurrency: i64,
    /// `LEADGEN_WORKER_NAME`.
    pub name: Option<String>,
    /// `LEADGEN_WORKER_DRAIN_SECS`.
    pub drain_secs: i64,
    /// `LEADGEN_WORKER_METRICS_LISTEN` (`off` to disable).
    pub metrics_listen: String,
}

impl Default for WorkerSection {
    fn default() -> Self {
        Self {
            concurrency: 16,
            name: None,
            drain_secs: 25,
            metrics_listen: "0.0.0.0:9091".into(),
        }
    }
}

/// `[oidc]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OidcSettings {
    /// `LEADGEN_OIDC_ISSUER`; default Google's when a client id is set.
    pub issuer: Option<String>,
    /// `LEADGEN_OIDC_CLIENT_ID`.
    pub client_id: Option<String>,
    /// `LEADGEN_OIDC_CLIENT_SECRET`.
    #[serde(skip_serializing)]
    pub client_secret: Option<SecretString>,
}

/// `[secrets]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SecretSettings {
    /// `LEADGEN_ENCRYPTION_KEY`.
    #[serde(skip_serializing)]
    pub encryption_key: Option<SecretString>,
    /// `LEADGEN_PREVIOUS_ENCRYPTION_KEYS` (comma-separated).
    #[serde(skip_serializing)]
    pub previous_encryption_keys: Option<SecretString>,
    /// `LEADGEN_JWT_SECRET`.
    #[serde(skip_serializing)]
    pub jwt_secret: Option<SecretString>,
}

/// `[usage]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UsageSettings {
    /// `LEADGEN_FREE_MONTHLY_SEARCHES`.
    pub free_monthly_searches: i64,
    /// `LEADGEN_FREE_DAILY_LEADS` (0: no cap).
    pub free_daily_leads: i64,
    /// `LEADGEN_PRO_MONTHLY_SEARCHES`.
    pub pro_monthly_searches: i64,
    /// `LEADGEN_PRO_DAILY_LEADS` (0: no cap).
    pub pro_daily_leads: i64,
}

impl Default for UsageSettings {
    fn default() -> Self {
        let limits = crate::usage::UsageLimits::default();
        Self {
            free_monthly_searches: limits.free.monthly_searches,
            free_daily_leads: limits.free.daily_leads.unwrap_or(0),
            pro_monthly_searches: limits.pro.monthly_searches,
            pro_daily_leads: limits.pro.daily_leads.unwrap_or(0),
        }
    }
}

/// `[google]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GoogleSettings {
    /// `LEADGEN_GOOGLE_TOKEN_URL`.
    pub token_url: String,
    /// `LEADGEN_SHEETS_BASE_URL`.
    pub sheets_base_url: String,
    /// `LEADGEN_DRIVE_BASE_URL`.
    pub drive_base_url: String,
}

impl Default for GoogleSettings {
    fn default() -> Self {
        Self {
            token_url: GOOGLE_TOKEN_URL.into(),
            sheets_base_url: GOOGLE_SHEETS_BASE_URL.into(),
            drive_base_url: GOOGLE_DRIVE_BASE_URL.into(),
        }
    }
}

/// `[stripe]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StripeSettings {
    /// `STRIPE_SECRET_KEY`; setting it turns billing on.
    #[serde(skip_serializing)]
    pub secret_key: Option<SecretString>,
    /// `STRIPE_WEBHOOK_SECRET`.
    #[serde(skip_serializing)]
    pub webhook_secret: Option<SecretString>,
    /// `STRIPE_PRICE_MONTHLY`.
    pub price_monthly: Option<String>,
    /// `STRIPE_PRICE_YEARLY`.
    pub price_yearly: Option<String>,
    /// `STRIPE_API_BASE_URL`.
    pub api_base_url: String,
}

impl Default for StripeSettings {
    fn default() -> Self {
        Self {
            secret_key: None,
            webhook_secret: None,
            price_monthly: None,
            price_yearly: None,
            api_base_url: super::STRIPE_API_BASE_URL.into(),
        }
    }
}

/// `[telemetry]`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetrySettings {
    /// `LEADGEN_LOG_FORMAT`: `json` or `text`.
    pub log_format: String,
    /// `RUST_LOG`: the log filter.
    pub log_filter: String,
    /// `LEADGEN_RELEASE`; unset: `leadgen@{version}`.
    pub release: Option<String>,
    /// `SENTRY_DSN`; unset: no Sentry.
    #[serde(skip_serializing)]
    pub sentry_dsn: Option<SecretString>,
    /// `SENTRY_ENVIRONMENT`.
    pub sentry_environment: String,
    /// `SENTRY_TRACES_SAMPLE_RATE`, 0.0 to 1.0.
    pub sentry_traces_sample_rate: f32,
}

impl Default for TelemetrySettings {
    fn default() -> Self {
        Self {
            log_format: "text".into(),
            log_filter: "info,sqlx=warn".into(),
            release: None,
            sentry_dsn: None,
            sentry_environment: "production".into(),
            sentry_traces_sample_rate: 0.1,
        }
    }
}

/// The environment (or a test's map), as a figment provider: each variable of
/// [`VARIABLES`] that is set and not blank, trimmed, at its key.
struct Environment<'a> {
    lookup: &'a dyn Fn(&str) -> Option<String>,
}

impl Provider for Environment<'_> {
    fn metadata(&self) -> Metadata {
        Metadata::named("environment variable")
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let mut root = Dict::new();
        for variable in VARIABLES {
            let Some(value) = (self.lookup)(variable.env)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
            else {
                continue;
            };
            let (section, key) = variable.key.split_once('.').unwrap_or(("", variable.key));
            let entry = root
                .entry(section.to_owned())
                .or_insert_with(|| Value::from(Dict::new()));
            if let Value::Dict(_, dict) = entry {
                dict.insert(key.to_owned(), Value::from(value));
            }
        }
        Ok(Profile::Default.collect(root))
    }
}

impl Settings {
    /// Reads the layers through `lookup` (the environment, or a test's map): defaults,
    /// the TOML file named by `LEADGEN_CONFIG_FILE` if set, then the variables.
    pub fn load(lookup: &dyn Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Settings::default()));
        if let Some(path) = lookup(CONFIG_FILE)
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
        {
            if !std::path::Path::new(&path).is_file() {
                return Err(ConfigError::new(
                    CONFIG_FILE,
                    format!("'{path}' is not a readable file"),
                ));
            }
            figment = figment.merge(Toml::file(&path));
        }
        figment
            .merge(Environment { lookup })
            // Lossy: "16" from the environment reads as a number where one is expected.
            .extract_lossy::<Settings>()
            .map_err(|e| config_error(&e))
    }
}

/// figment's first error as a [`ConfigError`] naming the variable.
fn config_error(error: &figment::Error) -> ConfigError {
    use figment::error::{Actual, Kind};
    let key = error.path.join(".");
    let variable = variable_of(&key).unwrap_or(CONFIG_FILE);
    let problem = match &error.kind {
        Kind::InvalidType(actual, expected) | Kind::InvalidValue(actual, expected) => {
            let given = match actual {
                Actual::Str(s) => s.clone(),
                Actual::Signed(n) => n.to_string(),
                Actual::Unsigned(n) => n.to_string(),
                Actual::Float(n) => n.to_string(),
                other => other.to_string(),
            };
            let wanted = if ["i64", "u64", "i32", "u32"].iter().any(|t| expected.contains(t)) {
                "a whole number".to_owned()
            } else if expected.contains("f32") || expected.contains("f64") {
                "a number".to_owned()
            } else {
                expected.clone()
            };
            format!("'{given}' must be {wanted}")
        }
        Kind::UnknownField(field, _) => format!("unknown setting '{key}.{field}' in the configuration file"),
        other => other.to_string(),
    };
    ConfigError::new(variable, problem)
}
