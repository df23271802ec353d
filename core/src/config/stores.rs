//! `[database]` and `[redis]`: where state lives. Neither set: embedded mode (SQLite in
//! the data directory, in-process queue and bus).

use std::time::Duration;

use serde::{Deserialize, Deserializer};

use super::de;

/// The store.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// `DATABASE_URL`: Postgres (`postgres://...`) or SQLite (`sqlite://...`) store. Unset:
    /// SQLite at `{data dir}/leadgen.db`.
    #[serde(deserialize_with = "database_url")]
    pub url: Option<String>,
    /// `LEADGEN_AUDIT_RETENTION_DAYS`: how long workspaces' audit events are kept before
    /// the workers prune them. Default 365 days, from 1 to 3650.
    #[serde(deserialize_with = "retention_days")]
    pub audit_retention_days: u32,
    /// `LEADGEN_DATABASE_CONNECTIONS`: Postgres connections one API process keeps open, a
    /// fixed pool opened at start, so that no request waits for a connection to be opened
    /// (one took about 90 ms with TLS; docs/benchmarks.md, the 4-user tail). Default 16,
    /// from 2 to 200. Workers size theirs from their slots; SQLite ignores it.
    #[serde(deserialize_with = "connections")]
    pub api_connections: u32,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        Self {
            url: None,
            audit_retention_days: 365,
            api_connections: 16,
        }
    }
}

fn retention_days<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    de::whole_in(d, 1, 3650, "days").map(|n| n as u32)
}

fn connections<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    de::whole_in(d, 2, 200, "connections").map(|n| n as u32)
}

/// Queue, events and the fleet.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RedisConfig {
    /// `REDIS_URL`: queue and event bus. Unset: in-process queue and bus (one process only).
    #[serde(deserialize_with = "redis_url")]
    pub url: Option<String>,
    /// `LEADGEN_REDIS_PREFIX`: first part of every Redis key and queue name. Default `leadgen`.
    #[serde(deserialize_with = "de::text")]
    pub prefix: String,
    /// `LEADGEN_RESULTS_REPLAY_MINUTES`: how long a search's events (its leads included)
    /// stay in memory after its last event, for reconnecting and re-downloading; never on
    /// disk. Default 10 minutes, from 1 to 60.
    #[serde(rename = "replay_minutes", deserialize_with = "replay_ttl")]
    pub replay_ttl: Duration,
}

impl Default for RedisConfig {
    fn default() -> Self {
        Self {
            url: None,
            prefix: "leadgen".into(),
            replay_ttl: Duration::from_secs(10 * 60),
        }
    }
}

/// A URL starting with one of `schemes`; `problem` when it does not (without the URL,
/// which may hold a password).
fn url_with<'de, D: Deserializer<'de>>(d: D, schemes: &[&str], problem: &str) -> Result<Option<String>, D::Error> {
    match de::optional_text(d)? {
        Some(url) if !schemes.iter().any(|s| url.starts_with(s)) => Err(serde::de::Error::custom(problem)),
        url => Ok(url),
    }
}

fn database_url<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    url_with(
        d,
        &["postgres://", "postgresql://", "sqlite:"],
        "must start with postgres://, postgresql:// or sqlite:",
    )
}

fn redis_url<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    url_with(d, &["redis://", "rediss://"], "must start with redis:// or rediss://")
}

fn replay_ttl<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    de::whole_in(d, 1, 60, "a whole number of minutes").map(|minutes| Duration::from_secs(minutes * 60))
}
