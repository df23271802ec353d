//! The worker's own small HTTP server for operators: `/metrics` (Prometheus) and
//! `/healthz` (liveness), on `LEADGEN_WORKER_METRICS_LISTEN` (`Config::worker_metrics_listen`:
//! default `0.0.0.0:9091`; `off` disables it).

use std::net::SocketAddr;

use leadgen_core::telemetry::metrics;
use poem::{
    EndpointExt, Response, Route, Server, get, handler,
    http::StatusCode,
    listener::{Acceptor, Listener, TcpListener},
    web::Data,
};

use crate::queue;

#[derive(Clone)]
struct OpsState {
    redis: redis::aio::ConnectionManager,
    prefix: String,
}

#[handler]
async fn metrics_endpoint(state: Data<&OpsState>) -> Response {
    let m = metrics::metrics();
    let mut conn = state.redis.clone();
    if let Ok(depth) = queue::redis_depth(&mut conn, &state.prefix).await {
        m.queue_depth.set(depth);
    }
    if let Ok(age) = queue::redis_oldest_age_secs(&mut conn, &state.prefix).await {
        m.queue_oldest_age.set(age);
    }
    Response::builder()
        .status(StatusCode::OK)
        .content_type(metrics::CONTENT_TYPE)
        .body(m.encode())
}

#[handler]
fn healthz() -> &'static str {
    "ok"
}

/// Binds `addr` and serves in the background; answers the bound address (port 0 picks one).
pub async fn spawn(addr: SocketAddr, redis: redis::aio::ConnectionManager, prefix: &str) -> anyhow::Result<SocketAddr> {
    let acceptor = TcpListener::bind(addr).into_acceptor().await?;
    let bound = acceptor
        .local_addr()
        .first()
        .and_then(|a| a.as_socket_addr().copied())
        .unwrap_or(addr);
    let app = Route::new()
        .at("/metrics", get(metrics_endpoint))
        .at("/healthz", get(healthz))
        .data(OpsState {
            redis,
            prefix: prefix.to_owned(),
        });
    tokio::spawn(async move {
        if let Err(e) = Server::new_with_acceptor(acceptor).run(app).await {
            tracing::error!(error = %e, "worker metrics server stopped");
        }
    });
    Ok(bound)
}
