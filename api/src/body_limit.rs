//! Bounded request bodies (#25): no request, signed in or not, can make the server hold
//! more than its operation needs. One limit for JSON bodies, a documented larger one for
//! the export (up to 10,000 leads); above it 413 in the usual error envelope, decided
//! from `Content-Length` before a byte of the body is read, or, for a body sent without
//! one (chunked), as soon as the limit is passed.

use poem::{Endpoint, IntoResponse, Middleware, Request, Response, http::StatusCode};

use crate::error::envelope;

/// Most bytes of a JSON body, for every operation not listed in [`LARGER`].
pub const DEFAULT_BODY_LIMIT: usize = 256 * 1024;

/// Most bytes of an export's body: 10,000 leads of about 1.6 KB each.
pub const EXPORT_BODY_LIMIT: usize = 16 * 1024 * 1024;

/// Most bytes of a Stripe event (Stripe's are a few KB; the handler enforces it too).
pub const STRIPE_EVENT_LIMIT: usize = 1024 * 1024;

/// Operations allowed more than [`DEFAULT_BODY_LIMIT`], by path and by operation id.
pub const LARGER: &[(&str, &str, usize)] = &[
    ("/api/leads/export-to-sheets", "export_to_sheets", EXPORT_BODY_LIMIT),
    ("/api/billing/webhook", "stripe_webhook", STRIPE_EVENT_LIMIT),
];

/// The limit of the operation at `path`.
pub fn limit_for_path(path: &str) -> usize {
    LARGER
        .iter()
        .find(|(p, _, _)| *p == path)
        .map_or(DEFAULT_BODY_LIMIT, |(_, _, limit)| *limit)
}

/// The limit of the operation `operation_id` (for the contract).
pub fn limit_for_operation(operation_id: &str) -> usize {
    LARGER
        .iter()
        .find(|(_, id, _)| *id == operation_id)
        .map_or(DEFAULT_BODY_LIMIT, |(_, _, limit)| *limit)
}

/// A limit in words: `256 KiB`, `16 MiB`.
pub fn in_words(limit: usize) -> String {
    if limit >= 1024 * 1024 && limit.is_multiple_of(1024 * 1024) {
        format!("{} MiB", limit / (1024 * 1024))
    } else {
        format!("{} KiB", limit / 1024)
    }
}

/// The 413 every limit answers.
fn too_large(limit: usize) -> Response {
    envelope(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        &format!(
            "The request body is larger than {}, the most this operation takes.",
            in_words(limit)
        ),
    )
}

/// Applies the limits to every request.
pub struct BodyLimit;

impl<E: Endpoint> Middleware<E> for BodyLimit {
    type Output = BodyLimited<E>;

    fn transform(&self, inner: E) -> Self::Output {
        BodyLimited(inner)
    }
}

/// [`BodyLimit`] around an endpoint.
pub struct BodyLimited<E>(E);

impl<E: Endpoint> Endpoint for BodyLimited<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let limit = limit_for_path(req.uri().path());
        let declared = req
            .headers()
            .get(poem::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        match declared {
            Some(length) if length > limit as u64 => return Ok(too_large(limit)),
            Some(_) => {}
            None if req.headers().contains_key(poem::http::header::TRANSFER_ENCODING) => {
                // No length announced: read at most the limit, then hand the bytes on.
                match req.take_body().into_bytes_limit(limit).await {
                    Ok(bytes) => req.set_body(bytes),
                    Err(poem::error::ReadBodyError::PayloadTooLarge) => return Ok(too_large(limit)),
                    Err(error) => return Err(error.into()),
                }
            }
            None => {}
        }
        self.0.call(req).await.map(IntoResponse::into_response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_per_operation_and_said_in_words() {
        assert_eq!(limit_for_path("/api/leads/search"), DEFAULT_BODY_LIMIT);
        assert_eq!(limit_for_path("/api/leads/export-to-sheets"), EXPORT_BODY_LIMIT);
        assert_eq!(limit_for_operation("export_to_sheets"), EXPORT_BODY_LIMIT);
        assert_eq!(limit_for_operation("create_webhook"), DEFAULT_BODY_LIMIT);
        assert_eq!(in_words(DEFAULT_BODY_LIMIT), "256 KiB");
        assert_eq!(in_words(EXPORT_BODY_LIMIT), "16 MiB");
    }
}
