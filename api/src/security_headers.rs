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
//!   script) get only `frame-ancestors 'none'`.
//! - `X-Frame-Options: DENY` for browsers older than `frame-ancestors`.
//! - `Strict-Transport-Security` when the public URL is https: once a browser has seen the
//!   app over https it never tries plain http again for two years, so no network in
//!   between can strip TLS from a later visit. Sent for this host only: other hosts of the
//!   operator's domain are not ours to decide for. Never sent for an http public URL (a
//!   first run on loopback), where it would do nothing but confuse.

use poem::{Endpoint, IntoResponse, Middleware, Request, Response, http::HeaderValue};

/// The app's policy.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; \
form-action 'self'; frame-ancestors 'none'";
/// The API docs' policy (their page runs an inline script).
const DOCS_POLICY: &str = "frame-ancestors 'none'";

/// HSTS's policy: two years, this host only.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000";

/// Adds the headers to every response.
pub struct SecurityHeaders {
    /// Whether to send `Strict-Transport-Security` (the public URL is https).
    pub hsts: bool,
}

impl<E: Endpoint> Middleware<E> for SecurityHeaders {
    type Output = SecurityHeadersEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        SecurityHeadersEndpoint(inner, self.hsts)
    }
}

/// [`SecurityHeaders`] around an endpoint.
pub struct SecurityHeadersEndpoint<E>(E, bool);

impl<E: Endpoint> Endpoint for SecurityHeadersEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let docs = req.uri().path().starts_with("/api/docs");
        let mut response = match self.0.call(req).await {
            Ok(r) => r.into_response(),
            Err(e) => e.into_response(),
        };
        let headers = response.headers_mut();
        let policy = if docs { DOCS_POLICY } else { CONTENT_SECURITY_POLICY };
        for (name, value) in [
            ("content-security-policy", policy),
            ("referrer-policy", "no-referrer"),
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
        ] {
            headers.insert(name, HeaderValue::from_static(value));
        }
        if self.1 {
            headers.insert(
                "strict-transport-security",
                HeaderValue::from_static(STRICT_TRANSPORT_SECURITY),
            );
        }
        Ok(response)
    }
}
