//! The API's TCP listener: poem's, with Nagle's algorithm off on every connection.
//!
//! An event stream writes many small frames (one lead each). With Nagle's algorithm on, a
//! frame written while an earlier one is unacknowledged waits for the client's ACK, which
//! a client delays by up to 40 ms: leads that Google returned together would reach the
//! browser in steps. poem's `TcpListener` does not set `TCP_NODELAY`; this acceptor does.

use poem::http::uri::Scheme;
use poem::listener::{Acceptor, Listener, TcpAcceptor, TcpListener};
use poem::web::{LocalAddr, RemoteAddr};
use tokio::net::{TcpStream, ToSocketAddrs};

/// Accepts TCP connections with `TCP_NODELAY` set.
pub struct NoDelayAcceptor(TcpAcceptor);

impl NoDelayAcceptor {
    /// Binds `addr`.
    pub async fn bind(addr: impl ToSocketAddrs + Send) -> std::io::Result<Self> {
        Ok(Self(TcpListener::bind(addr).into_acceptor().await?))
    }
}

impl Acceptor for NoDelayAcceptor {
    type Io = TcpStream;

    fn local_addr(&self) -> Vec<LocalAddr> {
        self.0.local_addr()
    }

    async fn accept(&mut self) -> std::io::Result<(TcpStream, LocalAddr, RemoteAddr, Scheme)> {
        let (io, local, remote, scheme) = self.0.accept().await?;
        // Best effort: a socket that refuses the option still works, only slower.
        if let Err(error) = io.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
        Ok((io, local, remote, scheme))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn accepted_connections_have_nagle_off() {
        let mut acceptor = NoDelayAcceptor::bind("127.0.0.1:0").await.expect("bind");
        let addr = match acceptor.local_addr().first().map(|a| &a.0) {
            Some(poem::Addr::SocketAddr(addr)) => *addr,
            other => panic!("not a socket address: {other:?}"),
        };
        let client = tokio::spawn(TcpStream::connect(addr));
        let (io, ..) = acceptor.accept().await.expect("accept");
        assert!(
            io.nodelay().expect("read TCP_NODELAY"),
            "the server's side of the connection has Nagle on"
        );
        client.await.expect("join").expect("connect");
    }
}
