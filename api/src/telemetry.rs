//! Per-request context: a request id on every log line (taken from `X-Request-Id` when the
//! caller sends a sane one), a Sentry hub of its own, and the HTTP metrics. Also the
//! `/metrics` endpoint, served on a listener of its own (`LEADGEN_METRICS_LISTEN`).
//!
//! Every label of the HTTP metrics comes from a bounded set, so no request can add a
//! series: the method is one of the standard ones or `other`, the route is the operation
//! id (or `unmatched` / `web`), never the raw path. A stranger looping over made-up
//! methods or paths once grew `/metrics` and the process' memory without end.

use std::{sync::Arc, time::Instant};

use leadgen_core::telemetry::metrics::{self, HttpLabels, RouteLabels};
use poem::{
    Endpoint, EndpointExt, IntoResponse, Middleware, Request, Response, Result, handler,
    http::{HeaderValue, Method, StatusCode},
    web::Data,
};
use poem_openapi::OperationId;
use sentry::SentryFutureExt;
use tracing::Instrument;

use crate::state::AppState;

/// The header carrying the request id, in and out.
pub const REQUEST_ID: &str = "x-request-id";

/// Adds the request context to every request.
pub struct RequestContext;

impl<E: Endpoint> Middleware<E> for RequestContext {
    type Output = RequestContextEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        RequestContextEndpoint { inner }
    }
}

/// See [`RequestContext`].
pub struct RequestContextEndpoint<E> {
    inner: E,
}

/// A caller's id is kept only if it is short and plain, so it cannot forge log lines.
fn request_id(req: &Request) -> String {
    req.headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64)
        .filter(|v| v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
        .map(str::to_owned)
        .unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string())
}

impl<E: Endpoint> Endpoint for RequestContextEndpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Self::Output> {
        let id = request_id(&req);
        let method = method_label(req.method());
        let path = req.uri().path().to_owned();
        let span = tracing::info_span!("request", request_id = %id, method, %path);
        let hub = Arc::new(sentry::Hub::new_from_top(sentry::Hub::current()));
        hub.configure_scope(|scope| {
            scope.set_tag("request_id", &id);
            scope.set_tag("route", &path);
        });
        let started = Instant::now();
        let result = self.inner.call(req).instrument(span.clone()).bind_hub(hub).await;
        let mut response = match result {
            Ok(output) => output.into_response(),
            Err(error) => error.into_response(),
        };
        let elapsed = started.elapsed();
        let route = match response.data::<OperationId>() {
            Some(op) => op.0.to_owned(),
            None if path.starts_with("/api/") => "unmatched".to_owned(),
            None => "web".to_owned(),
        };
        let status = response.status().as_u16();
        let m = metrics::metrics();
        m.http_requests
            .get_or_create(&HttpLabels {
                method: method.to_owned(),
                route: route.clone(),
                status,
            })
            .inc();
        m.http_duration
            .get_or_create(&RouteLabels {
                method: method.to_owned(),
                route,
            })
            .observe(elapsed.as_secs_f64());
        if let Ok(value) = HeaderValue::from_str(&id) {
            response.headers_mut().insert(REQUEST_ID, value);
        }
        span.in_scope(|| {
            if status >= 500 {
                tracing::warn!(status, latency_ms = elapsed.as_millis() as u64, "request failed");
            } else {
                tracing::debug!(status, latency_ms = elapsed.as_millis() as u64, "request");
            }
        });
        Ok(response)
    }
}

/// The method as a metrics label: the methods HTTP defines, anything else `other`.
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

/// The metrics listener's application: `/metrics`, and nothing else.
pub fn metrics_app(state: AppState) -> impl Endpoint {
    poem::Route::new()
        .at("/metrics", poem::get(metrics_endpoint))
        .data(state)
}

/// `GET /metrics`: Prometheus exposition of this process, with every kind's queue read now.
#[handler]
pub async fn metrics_endpoint(state: Data<&AppState>) -> Response {
    let m = metrics::metrics();
    state.queues.report_metrics().await;
    // The scheduler's health, from the store (a worker ticks it; the API always runs).
    match state
        .store
        .saved_search_overdue_secs(leadgen_core::time::now_unix())
        .await
    {
        Ok(secs) => {
            m.saved_search_overdue.set(secs as f64);
        }
        Err(e) => tracing::warn!(error = %e, "could not read the overdue saved searches"),
    }
    Response::builder()
        .status(StatusCode::OK)
        .content_type(metrics::CONTENT_TYPE)
        .body(m.encode())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_up_methods_share_one_label() {
        for made_up in ["FOO", "PROPFIND", &"X".repeat(4013)] {
            let method = Method::from_bytes(made_up.as_bytes()).expect("a token");
            assert_eq!(method_label(&method), "other");
        }
        assert_eq!(method_label(&Method::PATCH), "PATCH");
    }
}
