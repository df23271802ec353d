//! At most a few requests at a time to one host, whichever sites and searches they are
//! for: businesses of one chain often share a website, and a search must not hammer it.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, Weak},
};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use url::Url;

/// What "one host" is for politeness: the lower-case host and its port. A search's
/// queue of sites takes turns by the same key (`worker/src/enrichment.rs`).
pub fn host_key(url: &Url) -> String {
    format!(
        "{}:{}",
        url.host_str().unwrap_or_default().to_ascii_lowercase(),
        url.port_or_known_default().unwrap_or(0)
    )
}

/// Per-host concurrency limits. A host's semaphore lives while someone holds or awaits it.
#[derive(Debug)]
pub struct HostGate {
    per_host: usize,
    hosts: Mutex<HashMap<String, Weak<Semaphore>>>,
}

/// Past this many hosts, forgotten ones are swept from the map.
const SWEEP_AT: usize = 1024;

/// One at a time per key: sites of one origin that start together fetch its robots.txt
/// once, the others wait and read the cache.
#[derive(Debug, Default)]
pub struct SingleFlight {
    keys: Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>,
}

impl SingleFlight {
    /// Waits until nobody else holds `key`; the turn ends when the guard drops.
    pub async fn enter(&self, key: &str) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut keys = self.keys.lock().unwrap_or_else(|e| e.into_inner());
            match keys.get(key).and_then(Weak::upgrade) {
                Some(lock) => lock,
                None => {
                    if keys.len() >= SWEEP_AT {
                        keys.retain(|_, l| l.strong_count() > 0);
                    }
                    let lock = Arc::new(tokio::sync::Mutex::new(()));
                    keys.insert(key.to_owned(), Arc::downgrade(&lock));
                    lock
                }
            }
        };
        lock.lock_owned().await
    }
}

impl HostGate {
    /// At most `per_host` requests at a time to one host (at least 1).
    pub fn new(per_host: usize) -> Self {
        Self {
            per_host: per_host.max(1),
            hosts: Mutex::default(),
        }
    }

    /// Waits for a turn at `url`'s host (and port); the turn ends when the permit drops.
    pub async fn enter(&self, url: &Url) -> OwnedSemaphorePermit {
        let semaphore = self.semaphore(url);
        semaphore
            .acquire_owned()
            .await
            .unwrap_or_else(|_| unreachable!("a host's semaphore is never closed"))
    }

    fn semaphore(&self, url: &Url) -> Arc<Semaphore> {
        let key = host_key(url);
        let mut hosts = self.hosts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(semaphore) = hosts.get(&key).and_then(Weak::upgrade) {
            return semaphore;
        }
        if hosts.len() >= SWEEP_AT {
            hosts.retain(|_, s| s.strong_count() > 0);
        }
        let semaphore = Arc::new(Semaphore::new(self.per_host));
        hosts.insert(key, Arc::downgrade(&semaphore));
        semaphore
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn one_host_waits_and_another_does_not() {
        let gate = HostGate::new(1);
        let a = Url::parse("https://a.test/x").expect("url");
        let held = gate.enter(&a).await;
        let same = tokio::time::timeout(Duration::from_millis(50), gate.enter(&a)).await;
        assert!(same.is_err(), "the second request to a.test waits");
        let b = Url::parse("https://b.test/").expect("url");
        let other = tokio::time::timeout(Duration::from_millis(50), gate.enter(&b)).await;
        assert!(other.is_ok(), "b.test is not held up by a.test");
        drop(held);
        let again = tokio::time::timeout(Duration::from_millis(50), gate.enter(&a)).await;
        assert!(again.is_ok(), "a.test is free again");
    }
}
