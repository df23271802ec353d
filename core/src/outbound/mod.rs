//! The one guarded HTTP client for URLs that users or third parties chose: business
//! websites (contact enrichment) and webhook endpoints. Nothing else in the code fetches
//! such a URL.
//!
//! It refuses non-http(s) schemes and every address that is not public unicast (loopback,
//! private, link-local including the 169.254.169.254 metadata service, unique-local,
//! multicast, unspecified, reserved), checks each redirect the same way, and pins each
//! connection to the address it checked (see [`resolver`]). It caps time, redirects and
//! bytes, sends no cookies (reqwest's cookie store is not compiled in), decompresses
//! nothing (no gzip bombs) and ignores proxy variables (a proxy would resolve names
//! where we cannot check them).
//!
//! `LEADGEN_OUTBOUND_ALLOWED_HOSTS` names `host:port` pairs exempt from the address
//! check, for tests and demos whose fakes listen on loopback. The scheme check and the
//! caps still apply to them.

mod address;
mod policy;
pub mod resolver;

use std::{sync::Arc, time::Duration};

use bytes::{Bytes, BytesMut};
use reqwest::{Method, StatusCode, redirect};
use url::{Host, Url};

pub use address::refusal;
pub use policy::OutboundPolicy;
use resolver::{AddressRefused, GuardedResolver, Lookup, SystemLookup};

/// The user agent outbound fetches send, and the token robots.txt rules are matched by.
pub const USER_AGENT_TOKEN: &str = "LeadgenBot";

/// Caps on one fetch.
#[derive(Debug, Clone)]
pub struct FetchLimits {
    /// Whole fetch, redirects and body included. Default 5 s.
    pub timeout: Duration,
    /// Establishing one connection (TCP and TLS). Default 3 s.
    pub connect_timeout: Duration,
    /// Largest body read; a longer one is [`OutboundError::TooLarge`]. Default 1 MiB.
    pub max_body_bytes: usize,
    /// Redirects followed by [`GuardedClient::get`], each checked. Default 3.
    pub max_redirects: u8,
    /// The `User-Agent` header. Default `LeadgenBot/{version} (+contact enrichment)`.
    pub user_agent: String,
}

impl Default for FetchLimits {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(5),
            connect_timeout: Duration::from_secs(3),
            max_body_bytes: 1024 * 1024,
            max_redirects: 3,
            user_agent: concat!(
                "LeadgenBot/",
                env!("CARGO_PKG_VERSION"),
                " (+contact enrichment; honours robots.txt)"
            )
            .into(),
        }
    }
}

/// A response, its body read up to the cap.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Where the last redirect led (the requested URL when there was none).
    pub final_url: Url,
    /// HTTP status of the final response.
    pub status: u16,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// The body, never longer than [`FetchLimits::max_body_bytes`].
    pub body: Bytes,
}

/// One request of a GET, redirects not followed (see [`GuardedClient::get_hop`]).
#[derive(Debug, Clone)]
pub enum Hop {
    /// The answer (any status but a redirect with a usable `Location`).
    Page(Fetched),
    /// A redirect, to this address; not yet checked, nor requested.
    Redirect(Url),
}

/// Why a fetch failed, in plain words (never the URL: websites are third-party data and
/// these messages may be logged).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutboundError {
    /// The URL, its address or a redirect may not be fetched.
    #[error("refused: {reason}")]
    Refused {
        /// What was refused and why.
        reason: String,
    },
    /// The fetch took longer than its time-out.
    #[error("the site did not answer in time")]
    TimedOut,
    /// The body was longer than the cap.
    #[error("the response was larger than the limit")]
    TooLarge,
    /// No connection could be made (the name does not resolve, nothing listens there).
    #[error("could not connect: {0}")]
    Connect(String),
    /// The TLS handshake failed: a certificate that is invalid, expired or for another
    /// name, or a server that does not speak TLS.
    #[error("the TLS handshake failed: {0}")]
    Tls(String),
    /// The exchange failed after connecting (or a redirect could not be followed).
    #[error("the request failed: {0}")]
    Http(String),
}

impl OutboundError {
    fn refused(reason: impl Into<String>) -> Self {
        Self::Refused { reason: reason.into() }
    }
}

/// An HTTP client for third-party URLs; see the module documentation. Cheap to clone.
#[derive(Clone)]
pub struct GuardedClient {
    /// Resolves through the address check.
    strict: reqwest::Client,
    /// For hosts named in `LEADGEN_OUTBOUND_ALLOWED_HOSTS` only.
    exempt: reqwest::Client,
    policy: Arc<OutboundPolicy>,
    limits: Arc<FetchLimits>,
}

impl std::fmt::Debug for GuardedClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GuardedClient")
            .field("policy", &self.policy)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl GuardedClient {
    /// A client resolving names with the system resolver.
    ///
    /// # Panics
    /// If reqwest cannot build a client, which happens only without a TLS provider; this
    /// installs rustls' ring provider first, so it does not.
    pub fn new(policy: OutboundPolicy, limits: FetchLimits) -> Self {
        Self::with_lookup(policy, limits, Arc::new(SystemLookup))
    }

    /// A client resolving names with `lookup` (tests: answers that change between calls).
    ///
    /// # Panics
    /// As [`Self::new`].
    pub fn with_lookup(policy: OutboundPolicy, limits: FetchLimits, lookup: Arc<dyn Lookup>) -> Self {
        crate::install_crypto_provider();
        let build = |exempt: bool| {
            reqwest::Client::builder()
                // Redirects are followed by hand so each hop is checked.
                .redirect(redirect::Policy::none())
                .no_proxy()
                .connect_timeout(limits.connect_timeout)
                .timeout(limits.timeout)
                .user_agent(limits.user_agent.as_str())
                .dns_resolver(GuardedResolver {
                    lookup: Arc::clone(&lookup),
                    exempt,
                })
                .build()
                .expect("a TLS provider is installed, so the client builds")
        };
        Self {
            strict: build(false),
            exempt: build(true),
            policy: Arc::new(policy),
            limits: Arc::new(limits),
        }
    }

    /// The caps this client applies.
    pub fn limits(&self) -> &FetchLimits {
        &self.limits
    }

    /// GETs `url`, following at most [`FetchLimits::max_redirects`] redirects, each
    /// checked like the first URL. Any status is returned as it is (a 404 is a response).
    pub async fn get(&self, url: &Url) -> Result<Fetched, OutboundError> {
        let result = tokio::time::timeout(self.limits.timeout, self.get_following(url))
            .await
            .unwrap_or(Err(OutboundError::TimedOut));
        count(&result);
        result
    }

    /// GETs `url` alone: a redirect is returned as where it leads, not followed, so the
    /// caller may decide about the next address first (the crawler reads that origin's
    /// robots.txt). The address checks and caps are [`Self::get`]'s, for this request.
    pub async fn get_hop(&self, url: &Url) -> Result<Hop, OutboundError> {
        let result = tokio::time::timeout(self.limits.timeout, self.hop(url))
            .await
            .unwrap_or(Err(OutboundError::TimedOut));
        count_outcome(result.as_ref().err());
        result
    }

    /// POSTs `body` to `url` with `headers`; follows no redirect (a webhook endpoint that
    /// redirects gets its 3xx back as the response).
    pub async fn post(&self, url: &Url, headers: &[(&str, String)], body: Vec<u8>) -> Result<Fetched, OutboundError> {
        let fetch = async {
            let mut request = self.client_for(url)?.request(Method::POST, url.clone()).body(body);
            for (name, value) in headers {
                request = request.header(*name, value.as_str());
            }
            let response = request.send().await.map_err(from_reqwest)?;
            self.read(url.clone(), response).await
        };
        let result = tokio::time::timeout(self.limits.timeout, fetch)
            .await
            .unwrap_or(Err(OutboundError::TimedOut));
        count(&result);
        result
    }

    async fn get_following(&self, url: &Url) -> Result<Fetched, OutboundError> {
        let mut url = url.clone();
        let mut redirects = 0;
        loop {
            let next = match self.hop(&url).await? {
                Hop::Page(fetched) => return Ok(fetched),
                Hop::Redirect(next) => next,
            };
            if redirects >= self.limits.max_redirects {
                return Err(OutboundError::Http(format!(
                    "more than {} redirects",
                    self.limits.max_redirects
                )));
            }
            redirects += 1;
            url = next;
        }
    }

    /// One GET of `url`, a redirect not followed.
    async fn hop(&self, url: &Url) -> Result<Hop, OutboundError> {
        let response = self
            .client_for(url)?
            .get(url.clone())
            .send()
            .await
            .map_err(from_reqwest)?;
        match redirect_target(url, &response)? {
            Some(next) => Ok(Hop::Redirect(next)),
            None => self.read(url.clone(), response).await.map(Hop::Page),
        }
    }

    /// The client that may fetch `url`, or why none may. IP-literal hosts are checked
    /// here (reqwest does not resolve them); names are checked by the resolver.
    fn client_for(&self, url: &Url) -> Result<&reqwest::Client, OutboundError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(OutboundError::refused("only http and https addresses are fetched"));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(OutboundError::refused(
                "addresses with a user name or password are not fetched",
            ));
        }
        let host = url
            .host()
            .ok_or_else(|| OutboundError::refused("the address has no host"))?;
        if self.policy.is_exempt(url) {
            return Ok(&self.exempt);
        }
        let literal = match host {
            Host::Ipv4(ip) => Some(ip.into()),
            Host::Ipv6(ip) => Some(ip.into()),
            Host::Domain(_) => None,
        };
        if let Some(reason) = literal.and_then(refusal) {
            return Err(OutboundError::refused(format!("the host is {reason}")));
        }
        Ok(&self.strict)
    }

    async fn read(&self, final_url: Url, mut response: reqwest::Response) -> Result<Fetched, OutboundError> {
        let max = self.limits.max_body_bytes;
        if response.content_length().is_some_and(|n| n > max as u64) {
            return Err(OutboundError::TooLarge);
        }
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let mut body = BytesMut::new();
        while let Some(chunk) = response.chunk().await.map_err(from_reqwest)? {
            if body.len() + chunk.len() > max {
                return Err(OutboundError::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Fetched {
            final_url,
            status,
            content_type,
            body: body.freeze(),
        })
    }
}

/// `leadgen_outbound_requests_total{outcome}`: a refusal count above 0 shows someone
/// pointing a website or webhook at an internal address.
fn count(result: &Result<Fetched, OutboundError>) {
    count_outcome(result.as_ref().err());
}

/// [`count`] of a request that failed with `error`, or succeeded (`None`).
fn count_outcome(error: Option<&OutboundError>) {
    let outcome = match error {
        None => "ok",
        Some(OutboundError::Refused { .. }) => "refused",
        Some(OutboundError::TimedOut) => "timed_out",
        Some(OutboundError::TooLarge) => "too_large",
        Some(OutboundError::Connect(_)) => "connect",
        Some(OutboundError::Tls(_)) => "tls",
        Some(OutboundError::Http(_)) => "http",
    };
    crate::telemetry::metrics::metrics().outbound_request(outcome);
}

/// Where a redirect response leads, if it is one with a usable `Location`.
fn redirect_target(from: &Url, response: &reqwest::Response) -> Result<Option<Url>, OutboundError> {
    let redirects = matches!(
        response.status(),
        StatusCode::MOVED_PERMANENTLY
            | StatusCode::FOUND
            | StatusCode::SEE_OTHER
            | StatusCode::TEMPORARY_REDIRECT
            | StatusCode::PERMANENT_REDIRECT
    );
    let Some(location) = response.headers().get(reqwest::header::LOCATION).filter(|_| redirects) else {
        return Ok(None);
    };
    let location = location
        .to_str()
        .map_err(|_| OutboundError::Http("a redirect to an unreadable address".into()))?;
    from.join(location)
        .map(Some)
        .map_err(|_| OutboundError::Http("a redirect to an unreadable address".into()))
}

/// A reqwest error in plain words, without the URL.
fn from_reqwest(error: reqwest::Error) -> OutboundError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&error);
    while let Some(e) = source {
        if let Some(refused) = e.downcast_ref::<AddressRefused>() {
            return OutboundError::refused(refused.to_string());
        }
        source = e.source();
    }
    if error.is_timeout() {
        return OutboundError::TimedOut;
    }
    let (tls, connect) = (is_tls(&error), error.is_connect());
    let words = causes(&error.without_url());
    if tls {
        return OutboundError::Tls(words);
    }
    if connect {
        OutboundError::Connect(words)
    } else {
        OutboundError::Http(words)
    }
}

/// Whether rustls failed somewhere in `error`'s chain. rustls' errors reach us inside
/// `io::Error`s (nested: tokio-rustls wraps, then the connector wraps again), and an
/// `io::Error`'s `source()` skips the error it wraps: look inside each one.
fn is_tls(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(e) = next {
        if e.is::<rustls::Error>() {
            return true;
        }
        next = match e.downcast_ref::<std::io::Error>().and_then(std::io::Error::get_ref) {
            Some(inner) => Some(inner as &(dyn std::error::Error + 'static)),
            None => e.source(),
        };
    }
    false
}

/// An error and its causes, joined: "error sending request: tcp connect error: refused".
fn causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut words = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        let next = e.to_string();
        if !words.contains(&next) {
            words.push_str(": ");
            words.push_str(&next);
        }
        source = e.source();
    }
    words
}

#[cfg(test)]
mod tests;
