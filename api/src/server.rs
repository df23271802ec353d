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
//! - Bounded connections (#25): a connection must send a request's head within the header
//!   timeout, counted from when the server starts waiting for it, so the same timeout also
//!   closes a keep-alive connection idle between requests (hyper starts the timer when it
//!   waits for the next head). At most `max_connections` are open at once; the next ones
//!   wait in the kernel's backlog until one closes. HTTP/2 connections send keep-alive
//!   pings and close when the client stops answering them.
//!
//! HTTP/2 (prior knowledge) is still served, as poem's server did.

use std::{convert::Infallible, future::Future, sync::Arc, time::Duration};

use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::{conn::auto, graceful::GracefulShutdown},
};
use poem::{
    Endpoint, EndpointExt, IntoEndpoint, Request,
    http::uri::Scheme,
    web::{LocalAddr, RemoteAddr},
};
use tokio::{
    net::{TcpListener, TcpStream},
    sync::Semaphore,
};

/// Largest HTTP/1 read buffer, and so largest request head (hyper's smallest allowed).
pub const MAX_READ_BUFFER: usize = 8 * 1024;

/// How the server bounds its connections.
#[derive(Debug, Clone, Copy)]
pub struct ServerLimits {
    /// After the signal, how long open connections get to finish.
    pub grace: Duration,
    /// Longest wait for a request's head, and so longest idle keep-alive.
    pub header_timeout: Duration,
    /// Most connections open at once.
    pub max_connections: usize,
}

impl ServerLimits {
    /// The limits `config` sets, with `grace` for shutdown.
    pub fn from_config(limits: &leadgen_core::config::HttpLimits, grace: Duration) -> Self {
        Self {
            grace,
            header_timeout: limits.header_timeout,
            max_connections: limits.max_connections,
        }
    }
}

/// Serves `ep` on `listener` until `signal` completes, then waits up to `limits.grace` for
/// open connections.
pub async fn serve<E>(
    listener: TcpListener,
    ep: E,
    signal: impl Future<Output = ()>,
    limits: ServerLimits,
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
    let builder = builder(&limits);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    tokio::pin!(signal);
    loop {
        // A free slot first: at the cap, new connections wait in the backlog.
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
            () = &mut signal => break,
        };
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
                let watched = graceful.watch(builder.serve_connection(TokioIo::new(io), service).into_owned());
                tokio::spawn(async move {
                    if let Err(error) = watched.await {
                        tracing::debug!(error = %error, "connection ended with an error");
                    }
                    drop(slot);
                });
            }
            () = &mut signal => break,
        }
    }
    drop(listener);
    if tokio::time::timeout(limits.grace, graceful.shutdown()).await.is_err() {
        tracing::warn!(
            grace_secs = limits.grace.as_secs(),
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

/// The connection builder every connection shares.
fn builder(limits: &ServerLimits) -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .max_buf_size(MAX_READ_BUFFER)
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(limits.header_timeout)
        .keep_alive_timeout(Duration::from_secs(20));
    builder
}

#[cfg(test)]
mod tests {
    use poem::handler;

    use super::*;

    #[handler]
    fn hello() -> &'static str {
        "hello"
    }

    fn limits() -> ServerLimits {
        ServerLimits {
            grace: Duration::from_secs(5),
            header_timeout: Duration::from_secs(30),
            max_connections: 100,
        }
    }

    /// A server on a free port, stopped by the returned sender.
    async fn start() -> (
        std::net::SocketAddr,
        tokio::sync::oneshot::Sender<()>,
        tokio::task::JoinHandle<()>,
    ) {
        start_with(limits()).await
    }

    /// A server with `limits` on a free port, stopped by the returned sender.
    async fn start_with(
        limits: ServerLimits,
    ) -> (
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
            serve(listener, hello, signal, limits).await.expect("serve");
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

    /// Reads from `io` until the server closes it (or `within` passes): true when closed.
    async fn closed_within(io: &mut TcpStream, within: Duration) -> bool {
        use tokio::io::AsyncReadExt;
        let mut sink = Vec::new();
        matches!(
            tokio::time::timeout(within, io.read_to_end(&mut sink)).await,
            Ok(Ok(_)) | Ok(Err(_))
        )
    }

    fn quick_timeout() -> ServerLimits {
        ServerLimits {
            header_timeout: Duration::from_millis(500),
            ..limits()
        }
    }

    #[tokio::test]
    async fn half_a_header_is_cut_off_after_the_timeout() {
        use tokio::io::AsyncWriteExt;
        let (addr, _stop, _server) = start_with(quick_timeout()).await;
        let mut io = TcpStream::connect(addr).await.expect("connect");
        io.write_all(b"GET / HTTP/1.1\r\nhost: test\r\nx-slow: ")
            .await
            .expect("write");
        assert!(
            closed_within(&mut io, Duration::from_secs(5)).await,
            "a connection sending half a header stays open"
        );
    }

    #[tokio::test]
    async fn an_idle_keep_alive_connection_is_closed_after_the_timeout() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let (addr, _stop, _server) = start_with(quick_timeout()).await;
        let mut io = TcpStream::connect(addr).await.expect("connect");
        io.write_all(b"GET / HTTP/1.1\r\nhost: test\r\n\r\n")
            .await
            .expect("write");
        let mut first = [0u8; 12];
        io.read_exact(&mut first).await.expect("an answer");
        assert_eq!(&first, b"HTTP/1.1 200");
        assert!(
            closed_within(&mut io, Duration::from_secs(5)).await,
            "an idle keep-alive connection stays open"
        );
    }

    #[tokio::test]
    async fn connections_past_the_cap_wait_until_one_closes() {
        let (addr, _stop, _server) = start_with(ServerLimits {
            max_connections: 2,
            ..limits()
        })
        .await;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let request = b"GET / HTTP/1.1\r\nhost: test\r\n\r\n";
        let mut held = Vec::new();
        for _ in 0..2 {
            let mut io = TcpStream::connect(addr).await.expect("connect");
            io.write_all(request).await.expect("write");
            let mut answer = [0u8; 12];
            io.read_exact(&mut answer).await.expect("answered within the cap");
            held.push(io);
        }
        // The third connects (the kernel's backlog) but is not served while two are open.
        let mut third = TcpStream::connect(addr).await.expect("connect");
        third.write_all(request).await.expect("write");
        let mut answer = [0u8; 12];
        assert!(
            tokio::time::timeout(Duration::from_millis(500), third.read_exact(&mut answer))
                .await
                .is_err(),
            "a third connection was served past a cap of 2"
        );
        held.pop();
        tokio::time::timeout(Duration::from_secs(5), third.read_exact(&mut answer))
            .await
            .expect("served once a slot is free")
            .expect("read");
        assert_eq!(&answer, b"HTTP/1.1 200");
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
