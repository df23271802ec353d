//! `[outbound]`, `[webhooks]` and `[mail]`: how Leadgen reaches third parties' servers.

use std::time::Duration;

use lettre::{AsyncSmtpTransport, Tokio1Executor, message::Mailbox};
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Deserializer};

use super::de::{self, field_error};

/// Fetches of third-party URLs (websites, webhooks).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OutboundConfig {
    /// `LEADGEN_OUTBOUND_ALLOWED_HOSTS`: comma-separated `host:port` pairs exempt from the
    /// guarded client's address refusal, for tests and demos whose fakes listen on
    /// loopback. Default none: every website and webhook address is checked.
    #[serde(deserialize_with = "allowed_hosts")]
    pub allowed_hosts: Vec<String>,
}

fn allowed_hosts<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    de::list(d, |entry| parse_host_port(entry).map(|_| entry.to_owned()))
}

/// One `host:port` entry: the lower-case host (IPv6 without brackets) and the port, or
/// what the entry must be.
pub fn parse_host_port(entry: &str) -> Result<(String, u16), String> {
    let bad = || "host:port (for example fake-web:8090 or 127.0.0.1:8090)".to_owned();
    let (host, port) = entry.trim().rsplit_once(':').ok_or_else(bad)?;
    let port: u16 = port.parse().map_err(|_| bad())?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() || port == 0 || (host.contains([':', '/', '@']) && host.parse::<std::net::Ipv6Addr>().is_err()) {
        return Err(bad());
    }
    Ok((host.to_ascii_lowercase(), port))
}

/// How webhook deliveries are attempted and retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DeliverySchedule {
    /// `LEADGEN_WEBHOOK_TIMEOUT_SECS`: one attempt's time-out. Default 10 s, from 1 to 60.
    #[serde(rename = "timeout_secs", deserialize_with = "timeout")]
    pub timeout: Duration,
    /// `LEADGEN_WEBHOOK_FIRST_RETRY_MS`: the first retry's delay; each next one doubles,
    /// up to 6 hours. Default 5000 ms, from 1 to 3600000.
    #[serde(rename = "first_retry_ms", deserialize_with = "first_retry")]
    pub first_retry: Duration,
    /// `LEADGEN_WEBHOOK_MAX_ATTEMPTS`: attempts before the endpoint is disabled. Default 16
    /// (with the default delays, about a day), from 1 to 30.
    #[serde(deserialize_with = "max_attempts")]
    pub max_attempts: u32,
}

impl Default for DeliverySchedule {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(10),
            first_retry: Duration::from_millis(5000),
            max_attempts: 16,
        }
    }
}

fn timeout<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    de::seconds_in(d, 1, 60)
}

fn first_retry<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    de::whole_in(d, 1, 3_600_000, "a whole number of milliseconds").map(Duration::from_millis)
}

fn max_attempts<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    de::whole_in(d, 1, 30, "attempts").map(|n| n as u32)
}

/// Where mail goes and who it is from.
#[derive(Clone)]
pub struct MailConfig {
    /// `LEADGEN_SMTP_URL`: the SMTP server mail goes through, with its credentials, as
    /// lettre reads it (`smtps://user:password@host:465`, `smtp://host:587?tls=required`,
    /// `smtp://host:25` for a local relay). Unset: no mail (delivery by email is not offered).
    pub smtp_url: SecretString,
    /// `LEADGEN_MAIL_FROM`: the sender, e.g. `Leadgen <noreply@example.com>`. Default
    /// `Leadgen <noreply@{the public URL's host}>` (see [`default_sender`]).
    pub from: Mailbox,
}

impl std::fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailConfig")
            .field("smtp_url", &"[redacted]")
            .field("from", &self.from.to_string())
            .finish()
    }
}

/// The sender when none is set, at the public URL's host.
pub fn default_sender(public_host: &str) -> String {
    format!("Leadgen <noreply@{public_host}>")
}

/// `[mail]` as written.
#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct MailSection {
    #[serde(deserialize_with = "de::optional_secret")]
    smtp_url: Option<SecretString>,
    #[serde(deserialize_with = "de::optional_text")]
    from: Option<String>,
}

/// `[mail]`: `None` (no mail) without an SMTP URL. The default sender is layered in by
/// the loader, which knows the public URL.
pub(super) fn mail<'de, D: Deserializer<'de>>(d: D) -> Result<Option<MailConfig>, D::Error> {
    let s = MailSection::deserialize(d)?;
    let Some(smtp_url) = s.smtp_url else {
        return Ok(None);
    };
    // The URL holds the server's password: the message never repeats it.
    AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url.expose_secret()).map_err(|_| {
        field_error::<D::Error>(
            "smtp_url",
            "is not an SMTP URL (smtp://host:port, smtps://user:password@host:465, or smtp://host:587?tls=required)",
        )
    })?;
    let from = s.from.unwrap_or_else(|| default_sender("localhost"));
    let from: Mailbox = from.parse().map_err(|_| {
        field_error::<D::Error>(
            "from",
            format!("'{from}' is not a sender such as Leadgen <noreply@example.com>"),
        )
    })?;
    Ok(Some(MailConfig { smtp_url, from }))
}
