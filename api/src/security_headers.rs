//! Security headers on every response (issue #12): what browsers should refuse to do
//! with our pages and answers.
//!
//! - `Referrer-Policy: no-referrer`: the sign-in lands on `/auth/success?token=...`; no
//!   link or request from that page may carry the token away in a `Referer`.
//! - `X-Content-Type-Options: nosniff`: a JSON answer or a CSV is never run as a script.
//! - `Content-Security-Policy`: scripts, styles and connections from our own origin only,
//!   images also from https (Google profile pictures), no plugins, no `<base>` tricks, and
//!   `frame-ancestors 'none'` so no site can frame the app (clickjacking). Inline style
//!   attributes stay allowed: React sets some (the virtualised results table positions its
//!   rows with them). The interactive API docs (`/api/docs`, Swagger UI with its inline
//!   script) get only `frame-ancestors 'none'`. The search form's map (issue #30 item 5)
//!   fetches its style, tiles, sprites and glyphs from the origin of
//!   `LEADGEN_MAP_STYLE_URL` only: that one origin is added to `connect-src` and `img-src`,
//!   nothing else. Its worker is a file of our own origin (never a `blob:`), so
//!   `worker-src 'self'` is all it needs.
//! - `X-Frame-Options: DENY` for browsers older than `frame-ancestors`.
//! - `Strict-Transport-Security` when the public URL is https: once a browser has seen the
//!   app over https it never tries plain http again for two years, so no network in
//!   between can strip TLS from a later visit. Sent for this host only: other hosts of the
//!   operator's domain are not ours to decide for. Never sent for an http public URL (a
//!   first run on loopback), where it would do nothing but confuse.

use poem::{Endpoint, IntoResponse, Middleware, Request, Response, http::HeaderValue};

/// The app's policy, given the map style's origin (`https://tiles.openfreemap.org`), if any.
pub fn content_security_policy(map_origin: Option<&str>) -> String {
    let map = map_origin.map(|origin| format!(" {origin}")).unwrap_or_default();
    format!(
        "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: https:{map}; font-src 'self' data:; connect-src 'self'{map}; object-src 'none'; \
base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}
/// The API docs' policy (their page runs an inline script).
const DOCS_POLICY: &str = "frame-ancestors 'none'";

/// HSTS's policy: two years, this host only.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000";

/// Adds the headers to every response.
pub struct SecurityHeaders {
    /// Whether to send `Strict-Transport-Security` (the public URL is https).
    hsts: bool,
    /// The app's Content-Security-Policy ([`content_security_policy`]).
    policy: HeaderValue,
}

impl SecurityHeaders {
    /// The headers for an app served over https or not (`hsts`) whose map reads from
    /// `map_origin`.
    pub fn new(hsts: bool, map_origin: Option<&str>) -> Self {
        let policy = HeaderValue::from_str(&content_security_policy(map_origin))
            .expect("an origin serialised by the url crate is a valid header value");
        Self { hsts, policy }
    }
}

impl<E: Endpoint> Middleware<E> for SecurityHeaders {
    type Output = SecurityHeadersEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        SecurityHeadersEndpoint {
            inner,
            hsts: self.hsts,
            policy: self.policy.clone(),
        }
    }
}

/// [`SecurityHeaders`] around an endpoint.
pub struct SecurityHeadersEndpoint<E> {
    inner: E,
    hsts: bool,
    policy: HeaderValue,
}

impl<E: Endpoint> Endpoint for SecurityHeadersEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let docs = req.uri().path().starts_with("/api/docs");
        let mut response = match self.inner.call(req).await {
            Ok(r) => r.into_response(),
            Err(e) => e.into_response(),
        };
        let headers = response.headers_mut();
        let policy = if docs {
            HeaderValue::from_static(DOCS_POLICY)
        } else {
            self.policy.clone()
        };
        headers.insert("content-security-policy", policy);
        for (name, value) in [
            ("referrer-policy", "no-referrer"),
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
        ] {
            headers.insert(name, HeaderValue::from_static(value));
        }
        if self.hsts {
            headers.insert(
                "strict-transport-security",
                HeaderValue::from_static(STRICT_TRANSPORT_SECURITY),
            );
        }
        Ok(response)
    }
}
