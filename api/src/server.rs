//! The API's HTTP server: the poem endpoint, served by hyper with the settings an
//! event-stream server needs and poem's `Server` does not expose.
//!
//! - `TCP_NODELAY` on every connection. A stream writes one small frame per lead; with
//!   Nagle's algorithm on, a frame written while an earlier one is unacknowledged waits for
//!   the client's delayed ACK (up to 40 ms), so leads Google returned together reached the
//!   browser in steps, and queued throughput halved (docs/benchmarks.md).
//! - HTTP/1 read buffers capped at 8 KiB. hyper starts each connection's buffer at 8 KiB;
//!   when a request's head and body arrive in two reads (as most clients send them) it grew
//!   to 16 KiB and stayed so for as long as the connection, which for an event stream is
//!   the whole search. Capped, it stays at 8 KiB: an open stream takes about 8 KB less. A
//!   request head may then be up to 8 KiB (larger ones get 431), as nginx's default.
//! - Graceful shutdown: on the signal, stop accepting, let open connections finish for up
//!   to the grace period (open event streams end themselves with a message at once), then
//!   stop.
//!
//! HTTP/2 (prior knowledge) is still served, as poem's server did.

use std::{convert::Infallible, future::Future, sync::Arc, time::Duration};

use hyper_util::{
    rt::{TokioExecutor, TokioIo},
    server::{conn::auto, graceful::GracefulShutdown},
};
use poem::{
    Endpoint, EndpointExt, IntoEndpoint, Request,
    http::uri::Scheme,
    web::{LocalAddr, RemoteAddr},
};
use tokio::net::{TcpListener, TcpStream};

/// Largest HTTP/1 read buffer, and so largest request head (hyper's smallest allowed).
pub const MAX_READ_BUFFER: usize = 8 * 1024;

/// Serves `ep` on `listener` until `signal` completes, then waits up to `grace` for open
/// connections.
pub async fn serve<E>(
    listener: TcpListener,
    ep: E,
    signal: impl Future<Output = ()>,
    grace: Duration,
) -> std::io::Result<()>
where
    E: IntoEndpoint,
    E::Endpoint: 'static,
{
    let local = LocalAddr(listener.local_addr()?.into());
    // Boxed: hyper keeps room for one in-flight request future per connection for the
    // connection's whole life; a boxed endpoint makes that future a pointer, freed once the
    // response is ready (an event stream's connection lives for the whole search).
    let ep = Arc::new(ep.into_endpoint().map_to_response().boxed());
    let graceful = GracefulShutdown::new();
    tokio::pin!(signal);
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (io, remote) = match accepted {
                    Ok(accepted) => accepted,
                    Err(error) => {
                        // Out of file descriptors and the like: wait, as poem's server did.
                        tracing::warn!(%error, "could not accept a connection");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                configure(&io);
                let (ep, local, remote) = (ep.clone(), local.clone(), RemoteAddr(remote.into()));
                let service = hyper::service::service_fn(move |req: hyper::Request<hyper::body::Incoming>| {
                    let (ep, local, remote) = (ep.clone(), local.clone(), remote.clone());
                    async move {
                        let request = Request::from((req, local, remote, Scheme::HTTP));
                        Ok::<_, Infallible>(hyper::Response::from(ep.get_response(request).await))
                    }
                });
                let watched = graceful.watch(builder().serve_connection(TokioIo::new(io), service));
                tokio::spawn(async move {
                    if let Err(error) = watched.await {
                        tracing::debug!(error = %error, "connection ended with an error");
                    }
                });
            }
            () = &mut signal => break,
        }
    }
    drop(listener);
    if tokio::time::timeout(grace, graceful.shutdown()).await.is_err() {
        tracing::warn!(
            grace_secs = grace.as_secs(),
            "connections still open after the grace period"
        );
    }
    Ok(())
}

/// Socket options of an accepted connection.
fn configure(io: &TcpStream) {
    // Best effort: a socket that refuses the option still works, only slower.
    if let Err(error) = io.set_nodelay(true) {
        tracing::debug!(%error, "could not set TCP_NODELAY");
    }
}

/// One shared builder: its settings are the same for every connection.
fn builder() -> &'static auto::Builder<TokioExecutor> {
    static BUILDER: std::sync::OnceLock<auto::Builder<TokioExecutor>> = std::sync::OnceLock::new();
    BUILDER.get_or_init(|| {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder.http1().max_buf_size(MAX_READ_BUFFER);
        builder
    })
}

#[cfg(test)]
mod tests {
    use poem::handler;

    use super::*;

    #[handler]
    fn hello() -> &'static str {
        "hello"
    }

    /// A server on a free port, stopped by the returned sender.
    async fn start() -> (
        std::net::SocketAddr,
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<()>,
    ) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            let signal = async {
                let _ = stopped.await;
            };
            serve(listener, hello, signal, Duration::from_secs(5))
                .await
                .expect("serve");
        });
        (addr, stop, server)
    }

    /// Sends a GET with a header `x-padding` of `padding` bytes over a new connection;
    /// answers the status code and the body.
    async fn get(addr: std::net::SocketAddr, padding: usize) -> (u16, String) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut io = TcpStream::connect(addr).await.expect("connect");
        let request = format!(
            "GET / HTTP/1.1\r\nhost: test\r\nx-padding: {}\r\nconnection: close\r\n\r\n",
            "a".repeat(padding)
        );
        io.write_all(request.as_bytes()).await.expect("write");
        let mut answer = String::new();
        io.read_to_string(&mut answer).await.expect("read");
        let status = answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("a status line");
        let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned();
        (status, body)
    }

    #[tokio::test]
    async fn answers_and_stops_on_the_signal() {
        let (addr, stop, server) = start().await;
        assert_eq!(get(addr, 1).await, (200, "hello".to_owned()));
        stop.send(()).expect("stop");
        tokio::time::timeout(Duration::from_secs(5), server)
            .await
            .expect("the server stopped within its grace")
            .expect("join");
        assert!(
            TcpStream::connect(addr).await.is_err(),
            "still listening after the signal"
        );
    }

    #[tokio::test]
    async fn a_request_head_over_the_buffer_is_refused() {
        let (addr, _stop, _server) = start().await;
        assert_eq!(get(addr, MAX_READ_BUFFER / 2).await.0, 200);
        assert_eq!(get(addr, MAX_READ_BUFFER + 1).await.0, 431);
    }

    #[tokio::test]
    async fn accepted_connections_have_nagle_off() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let client = tokio::spawn(TcpStream::connect(listener.local_addr().expect("addr")));
        let (io, _) = listener.accept().await.expect("accept");
        configure(&io);
        assert!(
            io.nodelay().expect("read TCP_NODELAY"),
            "the server's side of the connection has Nagle on"
        );
        client.await.expect("join").expect("connect");
    }
}
