//! Webhook signatures and delivery.
//!
//! Stripe signs `"{t}.{body}"` with HMAC-SHA256 under the endpoint's signing secret and
//! sends `Stripe-Signature: t={t},v1={hex}`. Delivery is a plain HTTP/1.1 POST written on
//! a TCP stream: the simulator posts to local endpoints, and this keeps the testkit free
//! of an HTTP client (and its TLS set-up) in normal dependencies. `https` URLs are not
//! supported.

use std::time::Duration;

use anyhow::{Context, bail};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use tokio::{
    io::{AsyncBufReadExt, AsyncWriteExt, BufReader},
    net::TcpStream,
};

/// How long one delivery may take before it counts as failed.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);

/// The `Stripe-Signature` header value for `payload` signed with `secret` at `timestamp`
/// (Unix seconds): `t={timestamp},v1={hex hmac_sha256(secret, "{timestamp}.{payload}")}`.
pub fn sign(payload: &[u8], secret: &str, timestamp: i64) -> String {
    // HMAC takes keys of any length, so this cannot fail; an empty MAC would simply not verify.
    let signature = Hmac::<Sha256>::new_from_slice(secret.as_bytes())
        .map(|mut mac| {
            mac.update(timestamp.to_string().as_bytes());
            mac.update(b".");
            mac.update(payload);
            hex::encode(mac.finalize().into_bytes())
        })
        .unwrap_or_default();
    format!("t={timestamp},v1={signature}")
}

/// POSTs `body` to `url` with the signature header and returns the status code.
pub(crate) async fn post(url: &str, body: &str, signature: &str) -> anyhow::Result<u16> {
    tokio::time::timeout(DELIVERY_TIMEOUT, post_inner(url, body, signature))
        .await
        .with_context(|| format!("webhook delivery to {url} timed out after {DELIVERY_TIMEOUT:?}"))?
}

async fn post_inner(url: &str, body: &str, signature: &str) -> anyhow::Result<u16> {
    let parsed = url::Url::parse(url).with_context(|| format!("invalid webhook URL {url}"))?;
    if parsed.scheme() != "http" {
        bail!("stripe-sim delivers webhooks over http only, not {}", parsed.scheme());
    }
    let host = parsed.host_str().context("webhook URL has no host")?;
    let port = parsed.port_or_known_default().unwrap_or(80);
    let mut target = parsed.path().to_owned();
    if let Some(query) = parsed.query() {
        target.push('?');
        target.push_str(query);
    }
    let host_header = match parsed.port() {
        Some(p) => format!("{host}:{p}"),
        None => host.to_owned(),
    };
    let request = format!(
        "POST {target} HTTP/1.1\r\n\
         Host: {host_header}\r\n\
         User-Agent: Stripe/1.0 (+https://stripe.com/docs/webhooks)\r\n\
         Accept: */*; q=0.5, application/xml\r\n\
         Cache-Control: no-cache\r\n\
         Content-Type: application/json; charset=utf-8\r\n\
         Stripe-Signature: {signature}\r\n\
         Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect((host.trim_matches(['[', ']']), port))
        .await
        .with_context(|| format!("cannot connect to webhook endpoint {url}"))?;
    stream.write_all(request.as_bytes()).await?;
    stream.flush().await?;
    let mut status_line = String::new();
    BufReader::new(&mut stream).read_line(&mut status_line).await?;
    // "HTTP/1.1 200 OK": the endpoint has handled the event once it answers.
    status_line
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .with_context(|| format!("webhook endpoint answered {status_line:?}, not HTTP"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_matches_stripe_scheme() {
        // Computed independently: printf '1700000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test
        let header = sign(br#"{"id":"evt_1"}"#, "whsec_test", 1_700_000_000);
        assert_eq!(
            header,
            "t=1700000000,v1=c89214b5b5da833daed6f0b8c5bb6bd58cea9022bd80ccc78230f3942d632925"
        );
        assert_ne!(header, sign(br#"{"id":"evt_2"}"#, "whsec_test", 1_700_000_000));
        assert_ne!(header, sign(br#"{"id":"evt_1"}"#, "whsec_other", 1_700_000_000));
    }
}
