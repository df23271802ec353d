//! Name resolution that checks every address before reqwest may connect to it.
//!
//! reqwest asks this resolver for a host's addresses and connects only to what it returns,
//! so the address checked is the address used: a hostile DNS server cannot answer a
//! public address to the check and a private one to the connection (DNS rebinding),
//! because there is no second lookup. reqwest does not call a resolver for IP-literal
//! hosts; [`super::GuardedClient`] checks those itself before each request.

use std::{
    future::Future,
    io,
    net::{IpAddr, SocketAddr},
    pin::Pin,
    sync::Arc,
};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::address::refusal;

/// A boxed future, as the resolver traits need.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// Turns a host name into addresses. The system resolver in production; tests plug in
/// answers of their own (for instance one that changes between calls, to show that the
/// checked answer is the one connected to).
pub trait Lookup: Send + Sync + 'static {
    /// Every address of `host`.
    fn lookup(&self, host: &str) -> BoxFuture<io::Result<Vec<IpAddr>>>;
}

/// The operating system's resolver (getaddrinfo on tokio's blocking pool).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemLookup;

impl Lookup for SystemLookup {
    fn lookup(&self, host: &str) -> BoxFuture<io::Result<Vec<IpAddr>>> {
        let host = host.to_owned();
        Box::pin(async move {
            let addrs = tokio::net::lookup_host((host.as_str(), 0)).await?;
            Ok(addrs.map(|a| a.ip()).collect())
        })
    }
}

/// A host whose addresses include one that may not be reached. Found again by
/// [`super::GuardedClient`] in reqwest's error chain and reported as a refusal.
#[derive(Debug, thiserror::Error)]
#[error("the host resolves to {0}")]
pub struct AddressRefused(pub &'static str);

/// reqwest's resolver: looks a name up and refuses the whole host if any of its
/// addresses is not public (a host that answers one private address among public ones is
/// as dangerous as one that answers only private ones: the client may pick either).
#[derive(Clone)]
pub(super) struct GuardedResolver {
    pub(super) lookup: Arc<dyn Lookup>,
    /// Skip the address check: the resolver of the client used for exempted hosts only.
    pub(super) exempt: bool,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let lookup = Arc::clone(&self.lookup);
        let exempt = self.exempt;
        Box::pin(async move {
            let ips = lookup.lookup(name.as_str()).await?;
            if ips.is_empty() {
                return Err(io::Error::new(io::ErrorKind::NotFound, "the host has no address").into());
            }
            if !exempt && let Some(reason) = ips.iter().find_map(|ip| refusal(*ip)) {
                return Err(Box::new(AddressRefused(reason)) as Box<dyn std::error::Error + Send + Sync>);
            }
            let addrs: Addrs = Box::new(ips.into_iter().map(|ip| SocketAddr::new(ip, 0)));
            Ok(addrs)
        })
    }
}
