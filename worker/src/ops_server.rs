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

use crate::Queues;

#[handler]
async fn metrics_endpoint(queues: Data<&Queues>) -> Response {
    let m = metrics::metrics();
    queues.report_metrics().await;
    Response::builder()
        .status(StatusCode::OK)
        .content_type(metrics::CONTENT_TYPE)
        .body(m.encode())
}

#[handler]
fn healthz() -> &'static str {
    "ok"
}

/// Binds `addr` and serves in the background, reporting what waits in `queues` (every
/// kind's); answers the bound address (port 0 picks one).
pub async fn spawn(addr: SocketAddr, queues: Queues) -> anyhow::Result<SocketAddr> {
    let acceptor = TcpListener::bind(addr).into_acceptor().await?;
    let bound = acceptor
        .local_addr()
        .first()
        .and_then(|a| a.as_socket_addr().copied())
        .unwrap_or(addr);
    let app = Route::new()
        .at("/metrics", get(metrics_endpoint))
        .at("/healthz", get(healthz))
        .data(queues);
    tokio::spawn(async move {
        if let Err(e) = Server::new_with_acceptor(acceptor).run(app).await {
            tracing::error!(error = %e, "worker metrics server stopped");
        }
    });
    Ok(bound)
}
