//! The event bus: a search's events go from the worker running it to the API process
//! holding its stream.
//!
//! Each event gets a number (1, 2, ...) in its search's sequence, kept a few minutes in a
//! replay buffer, so a subscriber that starts late or reconnects (`Last-Event-ID`) misses
//! nothing. A subscriber also sees live events; it drops those it already replayed by
//! their number. Listeners that go away set the search's cancel flag, which the worker
//! checks between pages; a listener whose API process stops (a deploy) detaches instead:
//! the search counts as cancelled only if no client attaches again within a grace period. Beside the events, each search has a checkpoint (opaque text,
//! written atomically with a page's events) from which a retried job resumes.
//!
//! Embedded mode uses [`memory::MemoryBus`]; distributed mode [`redis::RedisBus`]. Both
//! answer the same calls with the same semantics.

mod envelope;
pub mod memory;
pub mod redis;

use std::time::Duration;

pub use envelope::{Envelope, LIVE_CAPACITY, REPLAY_TTL, Subscription};

use crate::{CoreResult, ids::SearchId, lead::SearchEvent};

/// In-process or Redis event bus.
#[derive(Clone)]
pub enum EventBus {
    /// Embedded mode: one process.
    Memory(memory::MemoryBus),
    /// Distributed mode: Redis pub/sub plus a Redis list per search.
    Redis(Box<redis::RedisBus>),
}

impl EventBus {
    /// Publishes the next event of `search_id`; returns its number.
    pub async fn publish(&self, search_id: &SearchId, event: &SearchEvent) -> CoreResult<u64> {
        match self {
            Self::Memory(bus) => Ok(bus.publish(search_id, event)),
            Self::Redis(bus) => bus.publish(search_id, event).await,
        }
    }

    /// Publishes several events of `search_id` in order, in one round trip; returns the
    /// number of the last.
    pub async fn publish_all(&self, search_id: &SearchId, events: &[SearchEvent]) -> CoreResult<u64> {
        match self {
            Self::Memory(bus) => Ok(events.iter().fold(0, |_, e| bus.publish(search_id, e))),
            Self::Redis(bus) => bus.publish_all(search_id, events).await,
        }
    }

    /// Publishes a page's events of `search_id` and replaces its checkpoint, atomically:
    /// a reader sees both or neither. `events` may be empty (a page without new leads
    /// still moves the checkpoint).
    pub async fn publish_page(&self, search_id: &SearchId, events: &[SearchEvent], checkpoint: &str) -> CoreResult<()> {
        match self {
            Self::Memory(bus) => {
                bus.publish_page(search_id, events, checkpoint);
                Ok(())
            }
            Self::Redis(bus) => bus.publish_page(search_id, events, checkpoint).await,
        }
    }

    /// The last checkpoint of `search_id`, if any (it expires with the replay buffer).
    pub async fn checkpoint(&self, search_id: &SearchId) -> CoreResult<Option<String>> {
        match self {
            Self::Memory(bus) => Ok(bus.checkpoint(search_id)),
            Self::Redis(bus) => bus.checkpoint(search_id).await,
        }
    }

    /// Events of `search_id` numbered above `after`, from the replay buffer (for a
    /// subscriber that fell behind its live channel).
    pub async fn replay(&self, search_id: &SearchId, after: u64) -> CoreResult<Vec<Envelope>> {
        match self {
            Self::Memory(bus) => Ok(bus.subscribe(search_id, after).replay),
            Self::Redis(bus) => bus.replay(search_id, after).await,
        }
    }

    /// Subscribes to `search_id`, replaying events numbered above `after`.
    pub async fn subscribe(&self, search_id: &SearchId, after: u64) -> CoreResult<Subscription> {
        match self {
            Self::Memory(bus) => Ok(bus.subscribe(search_id, after)),
            Self::Redis(bus) => bus.subscribe(search_id, after).await,
        }
    }

    /// Tells the worker nobody wants this search any more.
    pub async fn cancel(&self, search_id: &SearchId) -> CoreResult<()> {
        match self {
            Self::Memory(bus) => {
                bus.cancel(search_id);
                Ok(())
            }
            Self::Redis(bus) => bus.cancel(search_id).await,
        }
    }

    /// The search's listener went away with its API process (a deploy, a restart), not by
    /// leaving: unless a client [`attach`](Self::attach)es again within `grace`, the
    /// search counts as cancelled from then on ([`is_cancelled`](Self::is_cancelled)), so
    /// an abandoned search stops spending the user's key.
    pub async fn detach(&self, search_id: &SearchId, grace: Duration) -> CoreResult<()> {
        match self {
            Self::Memory(bus) => {
                bus.detach(search_id, grace);
                Ok(())
            }
            Self::Redis(bus) => bus.detach(search_id, grace).await,
        }
    }

    /// A client follows the search again: an earlier [`detach`](Self::detach) no longer
    /// counts. An explicit [`cancel`](Self::cancel) stays.
    pub async fn attach(&self, search_id: &SearchId) -> CoreResult<()> {
        match self {
            Self::Memory(bus) => {
                bus.attach(search_id);
                Ok(())
            }
            Self::Redis(bus) => bus.attach(search_id).await,
        }
    }

    /// Whether the search was cancelled, or detached and not attached again within its
    /// grace period.
    pub async fn is_cancelled(&self, search_id: &SearchId) -> CoreResult<bool> {
        match self {
            Self::Memory(bus) => Ok(bus.is_cancelled(search_id)),
            Self::Redis(bus) => bus.is_cancelled(search_id).await,
        }
    }

    /// Releases this process's interest in a search's live events (after the stream ends).
    pub async fn release(&self, search_id: &SearchId) {
        match self {
            Self::Memory(bus) => bus.release(search_id),
            Self::Redis(bus) => bus.release(search_id).await,
        }
    }

    /// Keeps each search's events replayable for `ttl` after its last event (instead of
    /// [`REPLAY_TTL`]).
    pub fn with_replay_ttl(self, ttl: Duration) -> Self {
        match self {
            Self::Memory(bus) => Self::Memory(bus.with_replay_ttl(ttl)),
            Self::Redis(bus) => Self::Redis(Box::new(bus.with_replay_ttl(ttl))),
        }
    }

    /// How long a search's events stay replayable after its last event.
    pub fn replay_ttl(&self) -> Duration {
        match self {
            Self::Memory(bus) => bus.replay_ttl(),
            Self::Redis(bus) => bus.replay_ttl(),
        }
    }

    /// Whether the bus answers (readiness).
    pub async fn ping(&self) -> bool {
        match self {
            Self::Memory(_) => true,
            Self::Redis(bus) => bus.ping().await,
        }
    }
}
