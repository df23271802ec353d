//! Compression of the API's larger answers (lead lists, the OpenAPI document, the docs
//! page), negotiated with `Accept-Encoding`.
//!
//! poem's own `Compression` middleware is not used: it compresses every response,
//! including the live search stream (`text/event-stream`), whose encoder would hold events
//! back until its buffer fills, and it also inflates request bodies. This one compresses
//! only complete bodies of the types below, from [`MIN_SIZE`] bytes, and leaves streams
//! and already-encoded responses alone.

use poem::{
    Body, Endpoint, IntoResponse, Middleware, Request, Response, Result,
    http::{HeaderValue, header},
    web::{Compress, CompressionAlgo},
};

use crate::web::Accepted;

/// Smaller bodies are sent as they are: compressing them saves less than a packet.
pub const MIN_SIZE: usize = 1024;

/// Compresses whole JSON, HTML and JavaScript answers of at least [`MIN_SIZE`] bytes.
pub struct CompressLarge;

impl<E: Endpoint> Middleware<E> for CompressLarge {
    type Output = CompressLargeEndpoint<E>;

    fn transform(&self, ep: E) -> Self::Output {
        CompressLargeEndpoint { ep }
    }
}

/// The endpoint [`CompressLarge`] wraps.
pub struct CompressLargeEndpoint<E> {
    ep: E,
}

/// Whether a response of this content type is a whole document worth compressing. Never
/// `text/event-stream`: a stream must reach the client event by event.
fn compressible(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    matches!(
        essence,
        "application/json"
            | "application/problem+json"
            | "text/html"
            | "text/plain"
            | "text/javascript"
            | "application/javascript"
            | "text/css"
    )
}

impl<E: Endpoint> Endpoint for CompressLargeEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Response> {
        let accepted = Accepted::from_request(&req);
        let mut resp = self.ep.call(req).await?.into_response();
        let candidate = !resp.headers().contains_key(header::CONTENT_ENCODING)
            && resp
                .headers()
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(compressible);
        if !candidate {
            return Ok(resp);
        }
        resp.headers_mut()
            .append(header::VARY, HeaderValue::from_static("accept-encoding"));
        let algo = if accepted.br {
            CompressionAlgo::BR
        } else if accepted.gzip {
            CompressionAlgo::GZIP
        } else {
            return Ok(resp);
        };
        // These answers are built whole in memory (JSON, the docs page), so reading the
        // body costs nothing and tells its size.
        let body = resp.take_body().into_bytes().await?;
        let small = body.len() < MIN_SIZE;
        resp.set_body(Body::from_bytes(body));
        if small {
            return Ok(resp);
        }
        Ok(Compress::new(resp, algo).into_response())
    }
}

#[cfg(test)]
mod tests {
    use super::compressible;

    #[test]
    fn streams_are_never_compressible() {
        assert!(compressible("application/json; charset=utf-8"));
        assert!(compressible("text/html"));
        assert!(!compressible("text/event-stream"));
        assert!(!compressible("text/event-stream; charset=utf-8"));
        assert!(!compressible("image/png"));
    }
}
