//! `[telemetry]`: logs and error reporting (see `telemetry::init`).

use secrecy::SecretString;
use serde::{Deserialize, Deserializer};

use super::de;

/// Logs and error reporting.
#[derive(Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TelemetryConfig {
    /// `LEADGEN_LOG_FORMAT`: `json` for JSON lines, `text` otherwise. Default `text`.
    #[serde(rename = "log_format", deserialize_with = "json_logs")]
    pub json_logs: bool,
    /// `RUST_LOG`: the log filter. Default `info,sqlx=warn`.
    #[serde(deserialize_with = "de::text")]
    pub log_filter: String,
    /// `LEADGEN_RELEASE`: the release name. Default `leadgen@{version}`.
    #[serde(deserialize_with = "de::text")]
    pub release: String,
    /// `SENTRY_DSN`: where to report errors; unset: no Sentry.
    #[serde(deserialize_with = "de::optional_secret")]
    pub sentry_dsn: Option<SecretString>,
    /// `SENTRY_ENVIRONMENT`: the environment errors are reported under. Default `production`.
    #[serde(deserialize_with = "de::text")]
    pub sentry_environment: String,
    /// `SENTRY_TRACES_SAMPLE_RATE`: the share of requests traced, 0.0 to 1.0. Default 0.1.
    #[serde(deserialize_with = "sample_rate")]
    pub sentry_traces_sample_rate: f32,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        Self {
            json_logs: false,
            log_filter: "info,sqlx=warn".into(),
            release: format!("leadgen@{}", env!("CARGO_PKG_VERSION")),
            sentry_dsn: None,
            sentry_environment: "production".into(),
            sentry_traces_sample_rate: 0.1,
        }
    }
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

fn json_logs<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let format = de::text(d)?.to_ascii_lowercase();
    match format.as_str() {
        "json" => Ok(true),
        "text" | "" => Ok(false),
        other => Err(serde::de::Error::invalid_value(
            serde::de::Unexpected::Str(other),
            &"json or text",
        )),
    }
}

fn sample_rate<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    // Within 0.0 to 1.0 the narrowing loses nothing a sample rate needs.
    de::number_in(d, 0.0, 1.0, "a share").map(|rate| rate as f32)
}
