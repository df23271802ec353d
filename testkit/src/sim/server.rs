//! A simulator's HTTP server: bound first (so a simulator can learn its own address before
//! it builds its routes), then served in the background until dropped.

use std::net::SocketAddr;

use poem::{
    Endpoint, Server,
    listener::{Acceptor, Listener, TcpAcceptor, TcpListener},
};

/// A bound, not yet serving, listener.
pub struct Bound {
    acceptor: TcpAcceptor,
    /// The address it listens on (the real port when asked for port 0).
    pub local_addr: SocketAddr,
}

impl Bound {
    /// Binds `addr` (port 0 picks a free one).
    pub async fn bind(addr: SocketAddr) -> std::io::Result<Self> {
        let acceptor = TcpListener::bind(addr).into_acceptor().await?;
        let local_addr = acceptor
            .local_addr()
            .first()
            .and_then(|a| a.as_socket_addr().copied())
            .ok_or_else(|| std::io::Error::other("no local address"))?;
        Ok(Self { acceptor, local_addr })
    }

    /// `http://{local_addr}`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.local_addr)
    }

    /// Serves `app` in the background.
    pub fn serve(self, app: impl Endpoint + 'static) -> SimServer {
        let local_addr = self.local_addr;
        let task = tokio::spawn(async move {
            let _ = Server::new_with_acceptor(self.acceptor).run(app).await;
        });
        SimServer { local_addr, task }
    }
}

/// A simulator's server running in the background; stops when dropped.
pub struct SimServer {
    local_addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl SimServer {
    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }
}

impl Drop for SimServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn serves_until_dropped() {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let bound = Bound::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.expect("bind");
        let url = format!("{}/", bound.base_url());
        assert_ne!(bound.local_addr.port(), 0, "port 0 becomes a real port");
        let server = bound.serve(poem::endpoint::make_sync(|_| "up"));
        let body = reqwest::get(&url).await.expect("get").text().await.expect("body");
        assert_eq!(body, "up");
        drop(server);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(reqwest::get(&url).await.is_err(), "stopped when dropped");
    }
}
