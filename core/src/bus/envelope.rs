//! What travels on the bus and what a subscriber gets, with the buffers' sizes: shared by
//! both backends and the bus that chooses between them.

use std::{sync::Arc, time::Duration};

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::lead::SearchEvent;

/// How long a search's events stay replayable unless configured
/// (`LEADGEN_RESULTS_REPLAY_MINUTES`): 10 minutes.
pub const REPLAY_TTL: Duration = Duration::from_secs(600);

/// Live events buffered per search for a subscriber. Small on purpose: each open stream
/// holds one such buffer, and a subscriber that falls further behind catches up from the
/// replay buffer (`EventBus::replay`) instead. The buffer holds `Arc<Envelope>`s: tokio's
/// broadcast channel allocates every slot up front, and an inline `Envelope` (a few
/// hundred bytes) made an idle stream's buffer about 5 KB.
pub const LIVE_CAPACITY: usize = 16;

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
    /// Live events; may repeat some of `replay` (skip ids already seen). On
    /// `RecvError::Lagged`, read the gap with `EventBus::replay`.
    pub live: broadcast::Receiver<Arc<Envelope>>,
}
