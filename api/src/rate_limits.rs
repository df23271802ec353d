//! Per-user and per-address limits on API requests (issue #12): a client that floods the
//! API gets 429 with `Retry-After` instead of slowing everyone else down.
//!
//! governor's keyed GCRA, in this process: each API replica counts on its own (the chart
//! documents it). The user is read from the bearer token's `sub` claim without checking
//! its signature: a forged token only gets a bucket of its own, and authentication still
//! refuses it. A personal API token (`lgp_...`) has a bucket of its own instead, keyed by
//! a hash of it (the token is not kept in memory), so one integration cannot starve its
//! owner's browser session, nor the other way round. Health, readiness, docs, the spec and Stripe's webhook are not limited.

use std::{net::IpAddr, num::NonZeroU32, sync::Arc, time::Duration};

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter, clock::Clock};
use leadgen_core::personal_tokens;
use poem::{Endpoint, IntoResponse, Middleware, Request, Response, http::StatusCode, web::headers::HeaderMapExt};

use crate::error::envelope;

/// Paths never limited.
const EXEMPT: &[&str] = &[
    "/api/health",
    "/api/ready",
    "/api/docs",
    "/api/openapi.json",
    "/api/billing/webhook",
];

/// The limits, built from the configuration.
#[derive(Clone, Default)]
pub struct RateLimits {
    per_user: Option<Arc<DefaultKeyedRateLimiter<String>>>,
    per_ip: Option<Arc<DefaultKeyedRateLimiter<IpAddr>>>,
    per_token: Option<Arc<DefaultKeyedRateLimiter<String>>>,
}

/// `per_minute` requests a minute, in bursts of a fifth of it.
fn quota(per_minute: u32) -> Quota {
    let per_minute = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new((per_minute.get() / 5).max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(per_minute).allow_burst(burst)
}

impl RateLimits {
    /// Limits of `per_user`, `per_ip` and `per_token` requests a minute (`None`: no limit).
    pub fn new(per_user: Option<u32>, per_ip: Option<u32>, per_token: Option<u32>) -> Self {
        Self {
            per_user: per_user.map(|n| Arc::new(RateLimiter::keyed(quota(n)))),
            per_ip: per_ip.map(|n| Arc::new(RateLimiter::keyed(quota(n)))),
            per_token: per_token.map(|n| Arc::new(RateLimiter::keyed(quota(n)))),
        }
    }

    /// How long `req` must wait, if it is over a limit.
    fn wait(&self, req: &Request) -> Option<Duration> {
        let clock = governor::clock::DefaultClock::default();
        if let (Some(limiter), Some(ip)) = (&self.per_ip, client_ip(req))
            && let Err(not_until) = limiter.check_key(&ip)
        {
            return Some(not_until.wait_time_from(clock.now()));
        }
        match bearer(req) {
            Some(token) if personal_tokens::is_personal_token(&token) => {
                if let Some(limiter) = &self.per_token
                    && let Err(not_until) = limiter.check_key(&personal_tokens::hash(&token))
                {
                    return Some(not_until.wait_time_from(clock.now()));
                }
            }
            Some(token) => {
                if let (Some(limiter), Some(user)) = (&self.per_user, token_subject(&token))
                    && let Err(not_until) = limiter.check_key(&user)
                {
                    return Some(not_until.wait_time_from(clock.now()));
                }
            }
            None => {}
        }
        None
    }
}

/// The client's address as the server saw it (behind a proxy: the proxy's).
fn client_ip(req: &Request) -> Option<IpAddr> {
    req.remote_addr().as_socket_addr().map(|a| a.ip())
}

/// The bearer value, if any.
fn bearer(req: &Request) -> Option<String> {
    let auth = req
        .headers()
        .typed_get::<poem::web::headers::Authorization<poem::web::headers::authorization::Bearer>>()?;
    Some(auth.token().to_owned())
}

/// The `sub` claim of a bearer JWT, unverified (see the module docs).
fn token_subject(token: &str) -> Option<String> {
    let payload = token.split('.').nth(1)?;
    let claims: serde_json::Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).ok()?).ok()?;
    claims["sub"].as_str().map(str::to_owned)
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

/// [`RateLimits`] around an endpoint.
pub struct RateLimited<E> {
    inner: E,
    limits: RateLimits,
}

impl<E: Endpoint> Endpoint for RateLimited<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let path = req.uri().path();
        let limited = path.starts_with("/api/") && !EXEMPT.iter().any(|p| path.starts_with(p));
        if limited && let Some(wait) = self.limits.wait(&req) {
            let seconds = wait.as_secs() + 1;
            let mut response = envelope(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                &format!("Too many requests. Please wait {seconds} s and try again."),
            );
            if let Ok(value) = seconds.to_string().parse() {
                response.headers_mut().insert("retry-after", value);
            }
            return Ok(response);
        }
        self.inner.call(req).await.map(IntoResponse::into_response)
    }
}
