//! Where each setting comes from: its environment variable and its key in the TOML file
//! (`section.key`), the environment as a figment provider over that table, and figment's
//! errors turned back into messages naming the variable.

use figment::{
    Metadata, Profile, Provider,
    value::{Dict, Map, Value},
};

use super::de::FIELD_MARK;

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

/// One setting: the environment variable and where it lives in [`super::Config`] (and in
/// the TOML file: `section.key`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variable {
    /// The environment variable, e.g. `LEADGEN_PLACES_RPS`.
    pub env: &'static str,
    /// The key path, e.g. `places.rps`.
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
    var("LEADGEN_AUDIT_RETENTION_DAYS", "database.audit_retention_days"),
    var("LEADGEN_DATABASE_CONNECTIONS", "database.api_connections"),
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
    var("LEADGEN_RECONNECT_GRACE_SECS", "server.reconnect_grace_secs"),
    var("LEADGEN_HTTP_HEADER_TIMEOUT_SECS", "server.http.header_timeout_secs"),
    var("LEADGEN_HTTP_MAX_CONNECTIONS", "server.http.max_connections"),
    var("LEADGEN_MAX_STREAMS_PER_USER", "server.http.max_streams_per_user"),
    var("LEADGEN_WEB_DIR", "server.web_dir"),
    var("LEADGEN_LOG_FORMAT", "telemetry.log_format"),
    var("LEADGEN_REDIS_PREFIX", "redis.prefix"),
    var("LEADGEN_RESULTS_REPLAY_MINUTES", "redis.replay_minutes"),
    var("LEADGEN_PLACES_RPS", "places.rps"),
    var("LEADGEN_PRICE_TEXT_SEARCH_IDS_ONLY", "places.prices.ids_only"),
    var("LEADGEN_PRICE_TEXT_SEARCH_PRO", "places.prices.pro"),
    var("LEADGEN_PRICE_TEXT_SEARCH_ENTERPRISE", "places.prices.enterprise"),
    var("LEADGEN_AGGREGATE_BASE_URL", "places.aggregate_base_url"),
    var("LEADGEN_COMPLETENESS", "places.completeness"),
    var("LEADGEN_PRICE_PLACES_AGGREGATE", "places.prices.aggregate"),
    var(
        "LEADGEN_COMPLETENESS_FETCH_MISSING",
        "places.completeness_fetch_missing",
    ),
    var("LEADGEN_PRICE_PLACE_DETAILS_ENTERPRISE", "places.prices.details"),
    var("LEADGEN_PLAN_MEMORY_DAYS", "places.plan_memory_days"),
    var("LEADGEN_PROBE_AFTER_ESTIMATE_SECS", "places.probe_after_estimate_secs"),
    var("LEADGEN_WORKER_CONCURRENCY", "worker.concurrency"),
    var("LEADGEN_WORKER_NAME", "worker.name"),
    var("LEADGEN_WORKER_DRAIN_SECS", "worker.drain_secs"),
    var(
        "LEADGEN_MONITOR_MIN_INTERVAL_MINUTES",
        "worker.monitor_min_interval_minutes",
    ),
    var("LEADGEN_SCHEDULER_TICK_SECS", "worker.scheduler_tick_secs"),
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
    var("LEADGEN_MAP_STYLE_URL", "site.map_style_url"),
    var("RUST_LOG", "telemetry.log_filter"),
];

/// The variable of a key path.
pub fn variable_of(key: &str) -> Option<&'static str> {
    VARIABLES.iter().find(|v| v.key == key).map(|v| v.env)
}

/// The environment (or a test's map), as a figment provider: each variable of
/// [`VARIABLES`] that is set and not blank, trimmed, at its key path.
pub(super) struct Environment<'a> {
    pub(super) lookup: &'a dyn Fn(&str) -> Option<String>,
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
            insert(&mut root, variable.key, Value::from(value));
        }
        Ok(Profile::Default.collect(root))
    }
}

/// Puts `value` at the dotted `key` path, making the dictionaries on the way.
fn insert(dict: &mut Dict, key: &str, value: Value) {
    match key.split_once('.') {
        None => {
            dict.insert(key.to_owned(), value);
        }
        Some((head, rest)) => {
            let entry = dict.entry(head.to_owned()).or_insert_with(|| Value::from(Dict::new()));
            if let Value::Dict(_, inner) = entry {
                insert(inner, rest, value);
            }
        }
    }
}

/// figment's first error as a [`ConfigError`] naming the variable.
pub(super) fn config_error(error: &figment::Error) -> ConfigError {
    use figment::error::{Actual, Kind};
    let mut key = error.path.join(".");
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
        // A section's check names the field at fault (`de::field_error`).
        Kind::Message(message) if message.starts_with(FIELD_MARK) => {
            let mut parts = message.split(FIELD_MARK).skip(1);
            let field = parts.next().unwrap_or_default();
            key = if key.is_empty() {
                field.to_owned()
            } else {
                format!("{key}.{field}")
            };
            parts.next().unwrap_or_default().to_owned()
        }
        // Not a setting of the tree, so no variable's: the file is at fault. figment's
        // path usually ends with the field already.
        Kind::UnknownField(field, _) => {
            if error.path.last() != Some(field) {
                key = if key.is_empty() {
                    field.clone()
                } else {
                    format!("{key}.{field}")
                };
            }
            return ConfigError::new(
                CONFIG_FILE,
                format!("unknown setting '{key}' in the configuration file"),
            );
        }
        other => other.to_string(),
    };
    ConfigError::new(variable_of(&key).unwrap_or(CONFIG_FILE), problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variable_has_one_key_and_the_keys_are_distinct() {
        let mut keys: Vec<&str> = VARIABLES.iter().map(|v| v.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), VARIABLES.len(), "two variables share a key");
        let mut envs: Vec<&str> = VARIABLES.iter().map(|v| v.env).collect();
        envs.sort_unstable();
        envs.dedup();
        assert_eq!(envs.len(), VARIABLES.len(), "a variable is listed twice");
    }
}
