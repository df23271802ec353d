//! Per-address, per-user and per-token limits on API requests: a client that floods the
//! API gets 429 with `Retry-After` instead of slowing everyone else down.
//!
//! governor's keyed GCRA, in this process: each API replica counts on its own (the chart
//! documents it). Two rules keep a stranger from using the limits against us (#25):
//!
//! - **Buckets are keyed only on what was verified.** The middleware here limits the
//!   client address, nothing else. A user's or a personal token's bucket is charged by the
//!   bearer checker (`auth::check_bearer`) only after the session or token checked out, so a
//!   forged token makes no bucket, and a forged `sub` cannot drain a real user's.
//! - **Every map is bounded.** Buckets idle long enough to be full again are swept once a
//!   minute; a map that still holds [`MAX_KEYS`] after a sweep starts afresh (every key's
//!   history forgotten) rather than grow.
//!
//! The client address is the TCP peer, unless the peer is one of `LEADGEN_TRUSTED_PROXIES`:
//! then it is the nearest address in `Forwarded` (or `X-Forwarded-For`) that is not a
//! trusted proxy, read right to left, so a client cannot choose it by sending the header
//! itself. IPv6 clients are keyed on their /64, the block one subscriber usually holds.
//! Health, readiness, docs, the spec and Stripe's webhook are never limited.

use std::{
    hash::Hash,
    net::{IpAddr, Ipv6Addr},
    num::NonZeroU32,
    sync::{
        Arc, RwLock,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter, clock::Clock};
use ipnet::IpNet;
use poem::{Endpoint, IntoResponse, Middleware, Request, Response, http::HeaderMap, http::StatusCode};

use crate::error::envelope;

/// Paths never limited.
const EXEMPT: &[&str] = &[
    "/api/health",
    "/api/ready",
    "/api/docs",
    "/api/openapi.json",
    "/api/billing/webhook",
];

/// Most keys one map holds (about 100 bytes each).
pub const MAX_KEYS: usize = 100_000;

/// How often idle buckets are swept.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// `per_minute` requests a minute, in bursts of a fifth of it.
fn quota(per_minute: u32) -> Quota {
    let per_minute = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new((per_minute.get() / 5).max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(per_minute).allow_burst(burst)
}

/// One limit's buckets, bounded in number.
struct Buckets<K: Hash + Eq + Clone> {
    quota: Quota,
    limiter: RwLock<Arc<DefaultKeyedRateLimiter<K>>>,
    /// When the last sweep ran, in milliseconds since `started`.
    last_sweep_ms: AtomicU64,
    started: Instant,
    max_keys: usize,
}

impl<K: Hash + Eq + Clone> Buckets<K> {
    fn new(per_minute: u32, max_keys: usize) -> Self {
        let quota = quota(per_minute);
        Self {
            quota,
            limiter: RwLock::new(Arc::new(RateLimiter::keyed(quota))),
            last_sweep_ms: AtomicU64::new(0),
            started: Instant::now(),
            max_keys,
        }
    }

    fn current(&self) -> Arc<DefaultKeyedRateLimiter<K>> {
        self.limiter.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Charges one request to `key`: how long to wait when over the limit.
    fn check(&self, key: &K) -> Result<(), Duration> {
        self.sweep_if_due();
        let mut limiter = self.current();
        if limiter.len() >= self.max_keys {
            limiter.retain_recent();
            if limiter.len() >= self.max_keys {
                tracing::warn!(
                    keys = limiter.len(),
                    "a rate-limit map is full after a sweep: starting afresh"
                );
                let fresh = Arc::new(RateLimiter::keyed(self.quota));
                *self.limiter.write().unwrap_or_else(|e| e.into_inner()) = fresh.clone();
                limiter = fresh;
            }
        }
        let clock = governor::clock::DefaultClock::default();
        limiter
            .check_key(key)
            .map(|_| ())
            .map_err(|not_until| not_until.wait_time_from(clock.now()))
    }

    /// Forgets buckets that are full again (idle for a burst's length), once a minute.
    fn sweep_if_due(&self) {
        let now = self.started.elapsed().as_millis() as u64;
        let last = self.last_sweep_ms.load(Ordering::Relaxed);
        if now.saturating_sub(last) < SWEEP_EVERY.as_millis() as u64 {
            return;
        }
        // One caller sweeps; the others go on.
        if self
            .last_sweep_ms
            .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            let limiter = self.current();
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }

    fn len(&self) -> usize {
        self.current().len()
    }
}

/// Who a verified caller is, for the limits.
#[derive(Debug, Clone, Copy)]
pub enum Caller<'a> {
    /// A signed-in user (session token): their user id.
    User(&'a str),
    /// A personal API token: its id.
    Token(&'a str),
}

/// The limits, built from the configuration.
#[derive(Clone, Default)]
pub struct RateLimits(Arc<Inner>);

#[derive(Default)]
struct Inner {
    per_ip: Option<Buckets<IpAddr>>,
    per_user: Option<Buckets<String>>,
    per_token: Option<Buckets<String>>,
    trusted_proxies: Vec<IpNet>,
}

impl RateLimits {
    /// Limits of `per_user`, `per_ip` and `per_token` requests a minute (`None`: no limit);
    /// `trusted_proxies` may name the client in a forwarding header.
    pub fn new(
        per_user: Option<u32>,
        per_ip: Option<u32>,
        per_token: Option<u32>,
        trusted_proxies: Vec<IpNet>,
    ) -> Self {
        Self::with_max_keys(per_user, per_ip, per_token, trusted_proxies, MAX_KEYS)
    }

    fn with_max_keys(
        per_user: Option<u32>,
        per_ip: Option<u32>,
        per_token: Option<u32>,
        trusted_proxies: Vec<IpNet>,
        max_keys: usize,
    ) -> Self {
        Self(Arc::new(Inner {
            per_user: per_user.map(|n| Buckets::new(n, max_keys)),
            per_ip: per_ip.map(|n| Buckets::new(n, max_keys)),
            per_token: per_token.map(|n| Buckets::new(n, max_keys)),
            trusted_proxies,
        }))
    }

    /// Charges a verified caller's bucket: the 429 to answer when over the limit.
    pub fn check_caller(&self, caller: Caller<'_>) -> poem::Result<()> {
        let outcome = match caller {
            Caller::User(id) => self.0.per_user.as_ref().map(|b| b.check(&id.to_owned())),
            Caller::Token(hash) => self.0.per_token.as_ref().map(|b| b.check(&hash.to_owned())),
        };
        match outcome {
            Some(Err(wait)) => Err(poem::Error::from_response(too_many(wait))),
            _ => Ok(()),
        }
    }

    /// Buckets held now: per address, per user, per token (for tests and the threat model).
    pub fn bucket_counts(&self) -> (usize, usize, usize) {
        let count = |b: Option<usize>| b.unwrap_or(0);
        (
            count(self.0.per_ip.as_ref().map(Buckets::len)),
            count(self.0.per_user.as_ref().map(Buckets::len)),
            count(self.0.per_token.as_ref().map(Buckets::len)),
        )
    }

    /// The client's address: see the module docs.
    pub fn client_address(&self, req: &Request) -> Option<IpAddr> {
        let peer = req.remote_addr().as_socket_addr()?.ip();
        Some(client_address(peer, req.headers(), &self.0.trusted_proxies))
    }
}

/// The 429 every limit answers.
fn too_many(wait: Duration) -> Response {
    let seconds = wait.as_secs() + 1;
    let mut response = envelope(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        &format!("Too many requests. Please wait {seconds} s and try again."),
    );
    if let Ok(value) = seconds.to_string().parse() {
        response.headers_mut().insert("retry-after", value);
    }
    response
}

/// The client behind `peer`: `peer` itself unless it is a trusted proxy; then, reading the
/// forwarding chain right to left, the first hop that is not a trusted proxy (an entry
/// that is no address ends the walk at the hop after it).
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    let mut client = peer.to_canonical();
    if !is_trusted(&client) {
        return client;
    }
    for hop in forwarded_chain(headers).into_iter().rev() {
        let Some(hop) = hop else { break };
        client = hop.to_canonical();
        if !is_trusted(&client) {
            break;
        }
    }
    client
}

/// The `for=` addresses of `Forwarded` (RFC 7239) when present, else `X-Forwarded-For`,
/// left to right across every header line; `None` for an entry that is no address
/// (`unknown`, an obfuscated `_name`).
fn forwarded_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let lines = |name: &str| -> Vec<String> {
        headers
            .get_all(name)
            .iter()
            .map(|v| v.to_str().map(str::to_owned).unwrap_or_default())
            .collect()
    };
    let forwarded = lines("forwarded");
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .flat_map(|line| line.split(','))
            .map(|element| {
                element
                    .split(';')
                    .find_map(|pair| {
                        let (name, value) = pair.split_once('=')?;
                        name.trim().eq_ignore_ascii_case("for").then(|| value.trim())
                    })
                    .and_then(parse_node)
            })
            .collect();
    }
    lines("x-forwarded-for")
        .iter()
        .flat_map(|line| line.split(','))
        .map(|entry| parse_node(entry.trim()))
        .collect()
}

/// An address as forwarding headers write it: `192.0.2.1`, `192.0.2.1:4711`, `2001:db8::1`,
/// `[2001:db8::1]`, `"[2001:db8::1]:4711"`.
fn parse_node(value: &str) -> Option<IpAddr> {
    let value = value.trim().trim_matches('"');
    if let Some(rest) = value.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    if let Ok(ip) = value.parse() {
        return Some(ip);
    }
    let (host, port) = value.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

/// The key an address is limited under: IPv4 as is, IPv6 by its /64.
fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let mut segments = v6.segments();
            segments[4..].fill(0);
            IpAddr::V6(Ipv6Addr::from(segments))
        }
        v4 => v4,
    }
}

impl<E: Endpoint> Middleware<E> for RateLimits {
    type Output = RateLimited<E>;

    fn transform(&self, inner: E) -> Self::Output {
        RateLimited {
            inner,
            limits: self.clone(),
        }
    }
}

/// [`RateLimits`] around an endpoint: limits the client address, and hands the limits to
/// the bearer checker (request data) for the per-user and per-token buckets.
pub struct RateLimited<E> {
    inner: E,
    limits: RateLimits,
}

impl<E: Endpoint> Endpoint for RateLimited<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let path = req.uri().path();
        let limited = path.starts_with("/api/") && !EXEMPT.iter().any(|p| path.starts_with(p));
        if limited {
            if let (Some(buckets), Some(ip)) = (&self.limits.0.per_ip, self.limits.client_address(&req))
                && let Err(wait) = buckets.check(&address_key(ip))
            {
                return Ok(too_many(wait));
            }
            req.set_data(self.limits.clone());
        }
        self.inner.call(req).await.map(IntoResponse::into_response)
    }
}

#[cfg(test)]
mod tests {
    use poem::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).expect("value"));
        }
        map
    }

    fn nets(list: &str) -> Vec<IpNet> {
        leadgen_core::config::parse_trusted_proxies(list).expect("ranges")
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("address")
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let forged = headers(&[("x-forwarded-for", "203.0.113.9"), ("forwarded", "for=203.0.113.9")]);
        assert_eq!(
            client_address(ip("198.51.100.4"), &forged, &nets("10.0.0.0/8")),
            ip("198.51.100.4")
        );
        assert_eq!(
            client_address(ip("10.0.0.2"), &forged, &[]),
            ip("10.0.0.2"),
            "no proxy trusted by default"
        );
    }

    #[test]
    fn behind_a_trusted_proxy_the_rightmost_untrusted_hop_is_the_client() {
        let trusted = nets("10.0.0.0/8");
        // The client forged the first entry; the ingress appended the real address.
        let chain = headers(&[
            ("x-forwarded-for", "1.2.3.4, 198.51.100.7"),
            ("x-forwarded-for", "10.0.0.9"),
        ]);
        assert_eq!(client_address(ip("10.0.0.5"), &chain, &trusted), ip("198.51.100.7"));
        let rfc = headers(&[(
            "forwarded",
            r#"for=1.2.3.4, for="[2001:db8:cafe::17]:4711";proto=https, for=10.1.1.1"#,
        )]);
        assert_eq!(client_address(ip("10.0.0.5"), &rfc, &trusted), ip("2001:db8:cafe::17"));
        let with_port = headers(&[("x-forwarded-for", "198.51.100.7:5000")]);
        assert_eq!(client_address(ip("10.0.0.5"), &with_port, &trusted), ip("198.51.100.7"));
        assert_eq!(
            client_address(ip("10.0.0.5"), &HeaderMap::new(), &trusted),
            ip("10.0.0.5")
        );
        let hidden = headers(&[("forwarded", "for=_hidden, for=10.2.2.2")]);
        assert_eq!(
            client_address(ip("10.0.0.5"), &hidden, &trusted),
            ip("10.2.2.2"),
            "an entry that is no address ends the walk at the proxy after it"
        );
    }

    #[test]
    fn ipv6_clients_share_their_slash_64() {
        assert_eq!(address_key(ip("2001:db8:1:2:aaaa::1")), ip("2001:db8:1:2::"));
        assert_eq!(
            address_key(ip("2001:db8:1:2:ffff::9")),
            address_key(ip("2001:db8:1:2::1"))
        );
        assert_ne!(address_key(ip("2001:db8:1:3::1")), address_key(ip("2001:db8:1:2::1")));
        assert_eq!(address_key(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
    }

    #[test]
    fn a_map_never_holds_more_than_its_bound() {
        let limits = RateLimits::with_max_keys(Some(600), Some(600), Some(600), vec![], 1_000);
        for i in 0..5_000u32 {
            let key = format!("user-{i}");
            limits.check_caller(Caller::User(&key)).expect("a fresh bucket allows");
            assert!(limits.bucket_counts().1 <= 1_000, "grew past the bound at {i}");
        }
        // A bucket that was charged a moment ago still limits after others came and went.
        let limits = RateLimits::with_max_keys(Some(5), None, None, vec![], 1_000);
        assert!(limits.check_caller(Caller::User("flooder")).is_ok());
        assert!(limits.check_caller(Caller::User("flooder")).is_err(), "a burst of 1");
    }
}
