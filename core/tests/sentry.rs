//! With `SENTRY_DSN` set, errors logged through tracing reach Sentry, tagged with the
//! release and the service. A local stand-in for Sentry's ingest endpoint
//! (`POST /api/{project}/envelope/`) records what arrives. Its own test binary: it
//! installs the process-wide subscriber.

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use poem::{Body, EndpointExt, Route, Server, handler, listener::TcpListener, post, web::Data};

#[derive(Clone, Default)]
struct Received(Arc<Mutex<Vec<String>>>);

#[handler]
async fn envelope(received: Data<&Received>, body: Body) -> &'static str {
    let bytes = body.into_vec().await.unwrap_or_default();
    received
        .0
        .0
        .lock()
        .expect("lock")
        .push(String::from_utf8_lossy(&bytes).into_owned());
    "{}"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_reach_sentry_with_release_and_service() {
    leadgen_core::install_crypto_provider();
    let received = Received::default();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("port");
    let addr: SocketAddr = listener.local_addr().expect("addr");
    drop(listener);
    let app = Route::new()
        .at("/api/:project/envelope/", post(envelope))
        .data(received.clone());
    tokio::spawn(Server::new(TcpListener::bind(addr)).run(app));
    tokio::time::sleep(Duration::from_millis(100)).await;

    let dsn = format!("http://publickey@{addr}/42");
    let settings = move |name: &str| match name {
        "SENTRY_DSN" => Some(dsn.clone()),
        "LEADGEN_RELEASE" => Some("leadgen@test-release".to_owned()),
        "SENTRY_ENVIRONMENT" => Some("ci".to_owned()),
        _ => None,
    };
    let config = leadgen_core::config::Config::from_lookup(settings).expect("config");
    let guard = leadgen_core::telemetry::init("worker", &config.telemetry);
    tracing::error!(search_id = "s-123", "the search store is unreachable");
    // Dropping the guard flushes the queue to the transport; it blocks, so off the runtime.
    tokio::task::spawn_blocking(move || drop(guard)).await.expect("flush");

    let mut envelopes = Vec::new();
    for _ in 0..50 {
        envelopes = received.0.lock().expect("lock").clone();
        if !envelopes.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let all = envelopes.join("\n");
    assert!(
        all.contains("the search store is unreachable"),
        "no error event arrived: {all}"
    );
    assert!(all.contains("leadgen@test-release"), "release missing: {all}");
    assert!(all.contains("\"environment\":\"ci\""), "environment missing: {all}");
    assert!(all.contains("\"service\":\"worker\""), "service tag missing: {all}");
}
