//! The event bus: a search's events go from the worker running it to the API process
//! holding its stream.
//!
//! Each event gets a number (1, 2, ...) in its search's sequence, kept a few minutes in a
//! replay buffer, so a subscriber that starts late or reconnects (`Last-Event-ID`) misses
//! nothing. A subscriber also sees live events; it drops those it already replayed by
//! their number. Listeners that go away set the search's cancel flag, which the worker
//! checks between pages.
//!
//! Embedded mode uses [`memory::MemoryBus`]; distributed mode [`redis::RedisBus`]. Both
//! answer the same calls with the same semantics.

pub mod memory;
pub mod redis;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::{CoreResult, lead::SearchEvent};

/// How long a search's events stay replayable.
pub const REPLAY_TTL: Duration = Duration::from_secs(600);

/// An event with its number in the search's sequence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// 1-based position in the search's event sequence.
    pub id: u64,
    /// The event.
    pub event: SearchEvent,
}

/// What a subscriber gets: everything so far, then live events.
pub struct Subscription {
    /// Events already published (after the requested id), oldest first.
    pub replay: Vec<Envelope>,
    /// Live events; may repeat some of `replay` (skip ids already seen).
    pub live: broadcast::Receiver<Envelope>,
}

/// In-process or Redis event bus.
#[derive(Clone)]
pub enum EventBus {
    /// Embedded mode: one process.
    Memory(memory::MemoryBus),
    /// Distributed mode: Redis pub/sub plus a Redis list per search.
    Redis(redis::RedisBus),
}

impl EventBus {
    /// Publishes the next event of `search_id`; returns its number.
    pub async fn publish(&self, search_id: &str, event: &SearchEvent) -> CoreResult<u64> {
        match self {
            Self::Memory(bus) => Ok(bus.publish(search_id, event)),
            Self::Redis(bus) => bus.publish(search_id, event).await,
        }
    }

    /// Subscribes to `search_id`, replaying events numbered above `after`.
    pub async fn subscribe(&self, search_id: &str, after: u64) -> CoreResult<Subscription> {
        match self {
            Self::Memory(bus) => Ok(bus.subscribe(search_id, after)),
            Self::Redis(bus) => bus.subscribe(search_id, after).await,
        }
    }

    /// Tells the worker nobody wants this search any more.
    pub async fn cancel(&self, search_id: &str) -> CoreResult<()> {
        match self {
            Self::Memory(bus) => {
                bus.cancel(search_id);
                Ok(())
            }
            Self::Redis(bus) => bus.cancel(search_id).await,
        }
    }

    /// Whether the search was cancelled.
    pub async fn is_cancelled(&self, search_id: &str) -> CoreResult<bool> {
        match self {
            Self::Memory(bus) => Ok(bus.is_cancelled(search_id)),
            Self::Redis(bus) => bus.is_cancelled(search_id).await,
        }
    }

    /// Releases this process's interest in a search's live events (after the stream ends).
    pub async fn release(&self, search_id: &str) {
        match self {
            Self::Memory(bus) => bus.release(search_id),
            Self::Redis(bus) => bus.release(search_id).await,
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
