//! `[worker]`: how a worker process runs searches and leaves the fleet.

use std::{
    net::{Ipv4Addr, SocketAddr},
    time::Duration,
};

use serde::{Deserialize, Deserializer};

use super::de;

/// One worker process.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkerConfig {
    /// `LEADGEN_WORKER_CONCURRENCY`: searches one worker process runs at once. Default 16,
    /// held to 1 to 1024.
    #[serde(deserialize_with = "concurrency")]
    pub concurrency: usize,
    /// `LEADGEN_WORKER_NAME`: the worker's name in the fleet; the Helm chart passes the pod
    /// name. Unset: `{hostname}-{pid}-{random}`. Letters, digits, `.`, `_` and `-` only.
    #[serde(deserialize_with = "name")]
    pub name: Option<String>,
    /// `LEADGEN_WORKER_DRAIN_SECS`: after SIGTERM, how long a worker lets running searches
    /// finish before handing them back to the queue. Default 25 s, from 1 to 3600 (keep
    /// it below the pod's termination grace period).
    #[serde(rename = "drain_secs", deserialize_with = "drain")]
    pub drain: Duration,
    /// `LEADGEN_WORKER_METRICS_LISTEN`: the worker's `/metrics` and `/healthz`. Default
    /// `0.0.0.0:9091`; `off` disables them.
    #[serde(deserialize_with = "de::optional_listen")]
    pub metrics_listen: Option<SocketAddr>,
    /// `LEADGEN_MONITOR_MIN_INTERVAL_MINUTES`: the shortest time allowed between two
    /// consecutive scheduled runs of a saved search, checked when one is saved (by the
    /// API). Default 60 minutes, from 1 to 10080 (a week).
    #[serde(deserialize_with = "monitor_min_interval")]
    pub monitor_min_interval_minutes: u32,
    /// `LEADGEN_SCHEDULER_TICK_SECS`: how often the fleet looks for due saved searches (each
    /// worker queues a tick unless another did within the period). Default 30 s, from 1 to
    /// 300: a run starts at most this long after it is due.
    #[serde(rename = "scheduler_tick_secs", deserialize_with = "scheduler_tick")]
    pub scheduler_tick: Duration,
}

impl Default for WorkerConfig {
    fn default() -> Self {
        Self {
            concurrency: 16,
            name: None,
            drain: Duration::from_secs(25),
            metrics_listen: Some(SocketAddr::from((Ipv4Addr::UNSPECIFIED, 9091))),
            monitor_min_interval_minutes: 60,
            scheduler_tick: Duration::from_secs(30),
        }
    }
}

fn concurrency<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    Ok(usize::try_from(de::whole(d)?.clamp(1, 1024)).unwrap_or(16))
}

fn name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let name = de::optional_text(d)?;
    if let Some(name) = &name
        && (name.len() > 253
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-')))
    {
        return Err(serde::de::Error::invalid_value(
            serde::de::Unexpected::Str(name),
            &"a name like a pod's: letters, digits, '.', '_' and '-' (at most 253)",
        ));
    }
    Ok(name)
}

fn drain<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    de::seconds_in(d, 1, 3600)
}

fn scheduler_tick<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    de::seconds_in(d, 1, 300)
}

fn monitor_min_interval<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    de::whole_in(d, 1, 10_080, "minutes").map(|n| n as u32)
}
