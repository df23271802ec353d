//! `[server]`: where the API listens, what it serves, and what one client may hold of it.

use std::{
    net::{Ipv4Addr, SocketAddr},
    path::PathBuf,
    time::Duration,
};

use serde::{Deserialize, Deserializer};
use url::Url;

use super::de;

/// The API's listener, its public address and its limits.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerConfig {
    /// `LEADGEN_LISTEN`: socket address to listen on. Default `127.0.0.1:8080`.
    #[serde(deserialize_with = "de::listen")]
    pub listen: SocketAddr,
    /// `LEADGEN_PUBLIC_URL`: the address browsers use to reach the app, for redirects.
    /// Default `http://{LEADGEN_LISTEN}` (see [`default_public_url`]).
    #[serde(deserialize_with = "de::http_url")]
    pub public_url: Url,
    /// `LEADGEN_DATA_DIR`: embedded mode's SQLite file and generated secrets. Default `./data`.
    #[serde(deserialize_with = "path")]
    pub data_dir: PathBuf,
    /// `LEADGEN_WEB_DIR`: the built front end served at `/`. Default `frontend/dist`.
    #[serde(deserialize_with = "path")]
    pub web_dir: PathBuf,
    /// `LEADGEN_SESSION_TTL_SECS`: lifetime of a session token, seconds. Default 3600,
    /// from 60 to 86400.
    #[serde(rename = "session_ttl_secs", deserialize_with = "session_ttl")]
    pub session_ttl: Duration,
    /// `LEADGEN_RATE_LIMIT_PER_USER`: API requests a minute per signed-in user; `None`
    /// (0) turns it off. Default 600, with bursts of a fifth of it.
    #[serde(deserialize_with = "per_minute")]
    pub rate_limit_per_user: Option<u32>,
    /// `LEADGEN_RATE_LIMIT_PER_IP`: API requests a minute per client address; `None` (0)
    /// turns it off. Default 1200, with bursts of a fifth of it.
    #[serde(deserialize_with = "per_minute")]
    pub rate_limit_per_ip: Option<u32>,
    /// `LEADGEN_RATE_LIMIT_PER_TOKEN`: API requests a minute per personal API token;
    /// `None` (0) turns it off. Default 120, with bursts of a fifth of it. A token's
    /// requests count here instead of in the per-user limit.
    #[serde(deserialize_with = "per_minute")]
    pub rate_limit_per_token: Option<u32>,
    /// `LEADGEN_TRUSTED_PROXIES`: proxies (comma-separated addresses or CIDR ranges) whose
    /// `Forwarded` or `X-Forwarded-For` header names the client, for the per-address
    /// limit. Default none: the TCP peer is the client, whatever headers it sends.
    #[serde(deserialize_with = "trusted_proxies")]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// `LEADGEN_RECONNECT_GRACE_SECS`: when an API process stops (a deploy), how long a
    /// search that does not run in the background waits for its client to reconnect
    /// elsewhere before it is cancelled, seconds. Default 30, from 0 (cancel at once) to
    /// 3600. Distributed mode only: in embedded mode a stop ends every search.
    #[serde(rename = "reconnect_grace_secs", deserialize_with = "reconnect_grace")]
    pub reconnect_grace: Duration,
    /// `LEADGEN_METRICS_LISTEN`: the API's `/metrics`, on a listener of its own so the
    /// public port never serves it. Default `127.0.0.1:9090`; `off` disables it.
    #[serde(deserialize_with = "de::optional_listen")]
    pub metrics_listen: Option<SocketAddr>,
    /// `[server.http]`: what one client may hold of the API's HTTP server.
    #[serde(rename = "http")]
    pub http_limits: HttpLimits,
}

impl Default for ServerConfig {
    fn default() -> Self {
        let listen = SocketAddr::from((Ipv4Addr::LOCALHOST, 8080));
        Self {
            listen,
            public_url: default_public_url(listen),
            data_dir: "./data".into(),
            web_dir: "frontend/dist".into(),
            session_ttl: Duration::from_secs(3600),
            rate_limit_per_user: Some(600),
            rate_limit_per_ip: Some(1200),
            rate_limit_per_token: Some(120),
            trusted_proxies: Vec::new(),
            reconnect_grace: Duration::from_secs(30),
            metrics_listen: Some(SocketAddr::from((Ipv4Addr::LOCALHOST, 9090))),
            http_limits: HttpLimits::default(),
        }
    }
}

/// The public URL when none is set: plain HTTP at the listen address.
pub fn default_public_url(listen: SocketAddr) -> Url {
    Url::parse(&format!("http://{listen}")).expect("a socket address makes an http URL")
}

/// Bounds on what clients may hold of one API process.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HttpLimits {
    /// `LEADGEN_HTTP_HEADER_TIMEOUT_SECS`: how long a connection may take to send a
    /// request's head, counted from when the server waits for it, so it is also how long
    /// an idle keep-alive connection stays open. Default 30 s, from 1 to 3600.
    #[serde(rename = "header_timeout_secs", deserialize_with = "header_timeout")]
    pub header_timeout: Duration,
    /// `LEADGEN_HTTP_MAX_CONNECTIONS`: open connections accepted at once; more wait in the
    /// kernel's backlog. Default 16384, from 1 to 1000000.
    #[serde(deserialize_with = "max_connections")]
    pub max_connections: usize,
    /// `LEADGEN_MAX_STREAMS_PER_USER`: live search streams (`search-stream` and
    /// `.../events`) one user may hold open on one API process; one more gets 429.
    /// Default 20, from 1 to 10000.
    #[serde(deserialize_with = "max_streams_per_user")]
    pub max_streams_per_user: usize,
}

impl Default for HttpLimits {
    fn default() -> Self {
        Self {
            header_timeout: Duration::from_secs(30),
            max_connections: 16_384,
            max_streams_per_user: 20,
        }
    }
}

fn path<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
    de::text(d).map(PathBuf::from)
}

fn session_ttl<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    de::seconds_in(d, 60, 86_400)
}

fn reconnect_grace<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    de::seconds_in(d, 0, 3600)
}

fn per_minute<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let n = i64::deserialize(d)?;
    match u32::try_from(n) {
        Ok(0) => Ok(None),
        Ok(n @ 1..=1_000_000) => Ok(Some(n)),
        _ => Err(serde::de::Error::invalid_value(
            serde::de::Unexpected::Signed(n),
            &"requests a minute from 1 to 1000000, or 0 for no limit",
        )),
    }
}

fn trusted_proxies<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<ipnet::IpNet>, D::Error> {
    de::list(d, parse_trusted_proxy)
}

/// `LEADGEN_TRUSTED_PROXIES`, comma-separated, or what the first bad entry must be.
pub fn parse_trusted_proxies(value: &str) -> Result<Vec<ipnet::IpNet>, String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(|entry| parse_trusted_proxy(entry).map_err(|expected| format!("'{entry}' must be {expected}")))
        .collect()
}

/// One entry of `LEADGEN_TRUSTED_PROXIES`: an address (`10.0.0.7`) or a range
/// (`10.0.0.0/8`, `fd00::/8`), truncated to its network.
fn parse_trusted_proxy(entry: &str) -> Result<ipnet::IpNet, String> {
    entry
        .parse::<ipnet::IpNet>()
        .or_else(|_| entry.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map(|net| net.trunc())
        .map_err(|_| "an address or a CIDR range such as 10.0.0.0/8".to_owned())
}

fn header_timeout<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
    de::whole_in(d, 1, 3600, "whole seconds").map(Duration::from_secs)
}

fn max_connections<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    de::whole_in(d, 1, 1_000_000, "connections").map(|n| n as usize)
}

fn max_streams_per_user<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    de::whole_in(d, 1, 10_000, "streams").map(|n| n as usize)
}
