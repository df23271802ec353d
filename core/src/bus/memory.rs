//! In-process event bus for embedded mode.

use crate::ids::SearchId;
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Instant,
};

use tokio::sync::broadcast;

use super::envelope::{Envelope, LIVE_CAPACITY, REPLAY_TTL, Subscription};
use crate::lead::SearchEvent;

struct Channel {
    events: Vec<Envelope>,
    sender: broadcast::Sender<Arc<Envelope>>,
    cancelled: bool,
    /// Set by [`MemoryBus::detach`]: from then on the search counts as cancelled.
    abandoned_at: Option<Instant>,
    checkpoint: Option<String>,
    touched: Instant,
}

/// Event bus inside one process.
#[derive(Clone)]
pub struct MemoryBus {
    channels: Arc<Mutex<HashMap<SearchId, Channel>>>,
    replay_ttl: std::time::Duration,
}

impl Default for MemoryBus {
    fn default() -> Self {
        Self {
            channels: Arc::default(),
            replay_ttl: REPLAY_TTL,
        }
    }
}

impl MemoryBus {
    /// An empty bus.
    pub fn new() -> Self {
        Self::default()
    }

    /// See [`super::EventBus::with_replay_ttl`].
    pub fn with_replay_ttl(mut self, ttl: std::time::Duration) -> Self {
        self.replay_ttl = ttl;
        self
    }

    /// See [`super::EventBus::replay_ttl`].
    pub fn replay_ttl(&self) -> std::time::Duration {
        self.replay_ttl
    }

    fn with_channel<T>(&self, search_id: &SearchId, f: impl FnOnce(&mut Channel) -> T) -> T {
        // The lock guards plain data and is never held across an await; a panic while
        // holding it leaves the map usable.
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        let ttl = self.replay_ttl;
        channels.retain(|_, c| c.touched.elapsed() < ttl);
        let channel = channels.entry(search_id.to_owned()).or_insert_with(|| Channel {
            events: Vec::new(),
            sender: broadcast::channel(LIVE_CAPACITY).0,
            cancelled: false,
            abandoned_at: None,
            checkpoint: None,
            touched: Instant::now(),
        });
        channel.touched = Instant::now();
        f(channel)
    }

    /// See [`super::EventBus::publish`].
    pub fn publish(&self, search_id: &SearchId, event: &SearchEvent) -> u64 {
        self.with_channel(search_id, |c| {
            let envelope = Envelope {
                id: c.events.len() as u64 + 1,
                event: event.clone(),
            };
            c.events.push(envelope.clone());
            let _ = c.sender.send(Arc::new(envelope.clone()));
            envelope.id
        })
    }

    /// See [`super::EventBus::publish_page`]: one lock for the events and the checkpoint.
    pub fn publish_page(&self, search_id: &SearchId, events: &[SearchEvent], checkpoint: &str) {
        self.with_channel(search_id, |c| {
            for event in events {
                let envelope = Envelope {
                    id: c.events.len() as u64 + 1,
                    event: event.clone(),
                };
                c.events.push(envelope.clone());
                let _ = c.sender.send(Arc::new(envelope));
            }
            c.checkpoint = Some(checkpoint.to_owned());
        });
    }

    /// See [`super::EventBus::checkpoint`].
    pub fn checkpoint(&self, search_id: &SearchId) -> Option<String> {
        self.with_channel(search_id, |c| c.checkpoint.clone())
    }

    /// See [`super::EventBus::subscribe`]. Replay and live start under one lock, so no
    /// event falls between them.
    pub fn subscribe(&self, search_id: &SearchId, after: u64) -> Subscription {
        self.with_channel(search_id, |c| Subscription {
            replay: c.events.iter().filter(|e| e.id > after).cloned().collect(),
            live: c.sender.subscribe(),
        })
    }

    /// See [`super::EventBus::cancel`].
    pub fn cancel(&self, search_id: &SearchId) {
        self.with_channel(search_id, |c| c.cancelled = true);
    }

    /// See [`super::EventBus::detach`].
    pub fn detach(&self, search_id: &SearchId, grace: std::time::Duration) {
        self.with_channel(search_id, |c| c.abandoned_at = Some(Instant::now() + grace));
    }

    /// See [`super::EventBus::attach`].
    pub fn attach(&self, search_id: &SearchId) {
        self.with_channel(search_id, |c| c.abandoned_at = None);
    }

    /// See [`super::EventBus::is_cancelled`].
    pub fn is_cancelled(&self, search_id: &SearchId) -> bool {
        self.with_channel(search_id, |c| {
            c.cancelled || c.abandoned_at.is_some_and(|at| Instant::now() >= at)
        })
    }

    /// Nothing to release: channels expire with the replay buffer.
    pub fn release(&self, _search_id: &SearchId) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lead::SearchFailed;

    fn event(n: u32) -> SearchEvent {
        SearchEvent::Error(SearchFailed {
            message: format!("e{n}"),
        })
    }

    #[tokio::test]
    async fn late_subscribers_replay_then_follow_live() {
        let bus = MemoryBus::new();
        assert_eq!(bus.publish(&"s".into(), &event(1)), 1);
        assert_eq!(bus.publish(&"s".into(), &event(2)), 2);
        let mut sub = bus.subscribe(&"s".into(), 1);
        assert_eq!(sub.replay.iter().map(|e| e.id).collect::<Vec<_>>(), vec![2]);
        bus.publish(&"s".into(), &event(3));
        assert_eq!(sub.live.recv().await.expect("live").id, 3);
        assert!(
            bus.subscribe(&"other".into(), 0).replay.is_empty(),
            "searches are separate"
        );
        assert!(!bus.is_cancelled(&"s".into()));
        bus.cancel(&"s".into());
        assert!(bus.is_cancelled(&"s".into()));
    }

    #[tokio::test]
    async fn a_detached_search_counts_as_cancelled_only_after_its_grace_unless_attached_again() {
        let bus = MemoryBus::new();
        let (s, t): (SearchId, SearchId) = ("s".into(), "t".into());
        bus.detach(&s, std::time::Duration::from_millis(100));
        bus.detach(&t, std::time::Duration::from_millis(100));
        assert!(!bus.is_cancelled(&s), "within the grace period");
        bus.attach(&t);
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
        assert!(bus.is_cancelled(&s), "nobody came back");
        assert!(!bus.is_cancelled(&t), "a client attached again in time");
        bus.detach(&t, std::time::Duration::ZERO);
        assert!(bus.is_cancelled(&t), "no grace: cancelled at once");
    }

    #[tokio::test]
    async fn a_page_and_its_checkpoint_land_together() {
        let bus = MemoryBus::new();
        assert_eq!(bus.checkpoint(&"s".into()), None);
        bus.publish_page(&"s".into(), &[event(1), event(2)], "after-page-1");
        bus.publish_page(&"s".into(), &[], "after-page-2");
        assert_eq!(bus.checkpoint(&"s".into()).as_deref(), Some("after-page-2"));
        let ids: Vec<u64> = bus.subscribe(&"s".into(), 0).replay.iter().map(|e| e.id).collect();
        assert_eq!(ids, vec![1, 2], "an empty page adds no event");
        assert_eq!(bus.checkpoint(&"other".into()), None);
    }
}
