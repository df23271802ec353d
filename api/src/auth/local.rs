//! Local sign-in for embedded mode without an identity provider: one operator account,
//! for the person at this machine and nobody else (#25).
//!
//! Listening on loopback (checked at start) is not enough: a reverse proxy or a tunnel on
//! the same host forwards the internet to a loopback port, and a page on any site can
//! point a name it controls at 127.0.0.1 (DNS rebinding) and make the browser talk to us.
//! So, in local mode:
//!
//! - every request naming a `Host` that is not a loopback name with our port is refused
//!   ([`LocalHostOnly`]): a rebound name reaches nothing;
//! - local sign-in ([`refuse_unless_at_this_machine`]) also needs the TCP peer to be
//!   loopback and no forwarding header (`Forwarded`, `X-Forwarded-*`, `X-Real-IP`, `Via`):
//!   whatever a proxy relays, it never gets an operator session.

use std::net::IpAddr;

use leadgen_core::user::ProviderIdentity;
use poem::{Endpoint, IntoResponse, Middleware, Request, Response, http::StatusCode};

use crate::error::{ApiError, envelope};

/// Issuer recorded for the local operator account.
pub const LOCAL_ISSUER: &str = "local";

/// The one local account.
pub fn operator_identity() -> ProviderIdentity {
    ProviderIdentity {
        issuer: LOCAL_ISSUER.to_owned(),
        subject: "operator".to_owned(),
        email: "operator@localhost".to_owned(),
        name: Some("Local Operator".to_owned()),
        picture: None,
        // Nobody vouches for this address: the operator cannot accept invitations by it.
        email_verified: false,
    }
}

/// The host a request names: HTTP/2's `:authority`, else the `Host` header.
fn named_host(req: &Request) -> Option<String> {
    if let Some(authority) = req.uri().authority() {
        return Some(authority.as_str().to_owned());
    }
    req.headers()
        .get(poem::http::header::HOST)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

/// Whether `host` (`name[:port]`) is a loopback name with port `port`.
fn is_loopback_host(host: &str, port: u16) -> bool {
    let (name, named_port) = match host.rsplit_once(':') {
        // `[::1]:8080`, `localhost:8080`; a bare `[::1]` has a colon inside its brackets.
        Some((name, p)) if !p.contains(']') => (name, p.parse::<u16>().ok()),
        _ => (host, Some(80)),
    };
    let loopback_name = name.eq_ignore_ascii_case("localhost")
        || name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    loopback_name && named_port == Some(port)
}

/// The first forwarding header `req` carries, if any.
fn forwarding_header(req: &Request) -> Option<String> {
    req.headers()
        .keys()
        .map(|name| name.as_str())
        .find(|name| {
            matches!(*name, "forwarded" | "via" | "x-real-ip" | "true-client-ip") || name.starts_with("x-forwarded-")
        })
        .map(str::to_owned)
}

/// Refuses local sign-in (403 `local_only`, naming the reason) unless the request comes
/// from this machine, directly, to a loopback name with `port`.
pub fn refuse_unless_at_this_machine(req: &Request, port: u16) -> Result<(), ApiError> {
    let refuse = |reason: String| {
        Err(ApiError::forbidden(
            "local_only",
            format!(
                "Local sign-in works only in a browser on this machine: {reason}. To serve Leadgen to others, configure an identity provider (LEADGEN_OIDC_CLIENT_ID)."
            ),
        ))
    };
    match req.remote_addr().as_socket_addr().map(|a| a.ip().to_canonical()) {
        Some(ip) if ip.is_loopback() => {}
        Some(ip) => return refuse(format!("this request came from {ip}")),
        None => return refuse("this request came from an unknown address".to_owned()),
    }
    if let Some(header) = forwarding_header(req) {
        return refuse(format!(
            "this request passed through a proxy or tunnel (it carries '{header}')"
        ));
    }
    match named_host(req) {
        Some(host) if is_loopback_host(&host, port) => Ok(()),
        Some(host) => refuse(format!(
            "open http://127.0.0.1:{port} or http://localhost:{port}, not '{}'",
            host.chars().take(100).collect::<String>()
        )),
        None => refuse(format!("open http://127.0.0.1:{port} or http://localhost:{port}")),
    }
}

/// In local mode, refuses every request whose `Host` names anything but this machine at
/// our port (a request without one, which no browser sends, passes).
pub struct LocalHostOnly {
    port: u16,
}

impl LocalHostOnly {
    /// For a server listening on `port`.
    pub fn new(port: u16) -> Self {
        Self { port }
    }
}

impl<E: Endpoint> Middleware<E> for LocalHostOnly {
    type Output = LocalHostOnlyEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        LocalHostOnlyEndpoint { inner, port: self.port }
    }
}

/// [`LocalHostOnly`] around an endpoint.
pub struct LocalHostOnlyEndpoint<E> {
    inner: E,
    port: u16,
}

impl<E: Endpoint> Endpoint for LocalHostOnlyEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        if let Some(host) = named_host(&req)
            && !is_loopback_host(&host, self.port)
        {
            let port = self.port;
            return Ok(envelope(
                StatusCode::FORBIDDEN,
                "foreign_host",
                &format!(
                    "This Leadgen runs in local mode and answers only at http://127.0.0.1:{port} or http://localhost:{port}."
                ),
            ));
        }
        self.inner.call(req).await.map(IntoResponse::into_response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_with_our_port_only() {
        for host in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
            "127.9.9.9:8080",
        ] {
            assert!(is_loopback_host(host, 8080), "{host} is this machine");
        }
        for host in [
            "127.0.0.1:8081",
            "evil.example:8080",
            "localhost.evil.example:8080",
            "10.0.0.1:8080",
            "[::1]",
            "localhost",
            "127.0.0.1:notaport",
        ] {
            assert!(!is_loopback_host(host, 8080), "{host} is not");
        }
        assert!(is_loopback_host("localhost", 80), "no port means 80");
    }

    /// A request from `peer` for `host` with `headers`, as the server builds it.
    fn request(peer: &str, host: &str, headers: &[(&str, &str)]) -> Request {
        let mut builder = poem::http::Request::builder()
            .uri("/api/auth/google")
            .header("host", host);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        let (parts, ()) = builder.body(()).expect("request").into_parts();
        let peer: std::net::SocketAddr = peer.parse().expect("peer");
        let local: std::net::SocketAddr = "127.0.0.1:8080".parse().expect("local");
        let parts = poem::RequestParts::from((
            parts,
            poem::web::LocalAddr(local.into()),
            poem::web::RemoteAddr(peer.into()),
            poem::http::uri::Scheme::HTTP,
        ));
        Request::from_parts(parts, poem::Body::empty())
    }

    fn refusal(req: &Request) -> Option<String> {
        match refuse_unless_at_this_machine(req, 8080) {
            Ok(()) => None,
            Err(ApiError::Forbidden(body)) => Some(body.0.message.clone()),
            Err(other) => panic!("not a 403: {other:?}"),
        }
    }

    #[test]
    fn local_sign_in_needs_a_loopback_peer_a_loopback_host_and_no_proxy() {
        assert_eq!(refusal(&request("127.0.0.1:50000", "127.0.0.1:8080", &[])), None);
        assert_eq!(refusal(&request("[::1]:50000", "localhost:8080", &[])), None);
        let remote = refusal(&request("203.0.113.5:50000", "127.0.0.1:8080", &[])).expect("refused");
        assert!(remote.contains("came from 203.0.113.5"), "{remote}");
        let proxied = refusal(&request(
            "127.0.0.1:50000",
            "127.0.0.1:8080",
            &[("x-real-ip", "203.0.113.5")],
        ))
        .expect("refused");
        assert!(proxied.contains("'x-real-ip'"), "{proxied}");
        let rebound = refusal(&request("127.0.0.1:50000", "rebind.example:8080", &[])).expect("refused");
        assert!(rebound.contains("not 'rebind.example:8080'"), "{rebound}");
    }
}
