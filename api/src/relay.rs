//! From a search's bus subscription to the events a client sees.
//!
//! The relay forwards each event once: the first `start`, each place id's first
//! `business_found` (renumbered, so a retried job that re-sends leads changes nothing the
//! client sees), then `complete` or `error`, after which the stream ends. A client that
//! goes away before the end cancels the search.

use std::{
    collections::{HashSet, VecDeque},
    time::Duration,
};

use futures_util::{Stream, stream};
use leadgen_core::{
    bus::{Envelope, EventBus, Subscription},
    lead::SearchEvent,
};
use tokio::sync::broadcast::error::RecvError;

/// Longest a search may stay silent before the client is told it failed.
pub const SILENCE_LIMIT: Duration = Duration::from_secs(120);
/// What the client is told then.
pub const TIMED_OUT: &str = "The search did not finish in time. Please try again.";

/// Cancels the search if the stream is dropped before its end.
struct CancelOnDrop {
    bus: EventBus,
    search_id: String,
    finished: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let (bus, search_id, finished) = (self.bus.clone(), self.search_id.clone(), self.finished);
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(async move {
                if !finished {
                    tracing::info!(%search_id, "client left; cancelling the search");
                    let _ = bus.cancel(&search_id).await;
                }
                bus.release(&search_id).await;
            });
        }
    }
}

struct State {
    replay: VecDeque<Envelope>,
    sub: Subscription,
    last_id: u64,
    seen: HashSet<String>,
    found: u32,
    started: bool,
    guard: CancelOnDrop,
}

/// The client's view of search `search_id`: `(event number, event)` pairs.
pub fn relay(bus: EventBus, search_id: String, mut sub: Subscription) -> impl Stream<Item = (u64, SearchEvent)> + Send {
    let replay = std::mem::take(&mut sub.replay).into();
    let state = State {
        replay,
        sub,
        last_id: 0,
        seen: HashSet::new(),
        found: 0,
        started: false,
        guard: CancelOnDrop {
            bus,
            search_id,
            finished: false,
        },
    };
    stream::unfold(state, |mut st| async move {
        if st.guard.finished {
            return None;
        }
        loop {
            let envelope = match st.replay.pop_front() {
                Some(e) => e,
                None => match tokio::time::timeout(SILENCE_LIMIT, st.sub.live.recv()).await {
                    Ok(Ok(e)) => e,
                    Ok(Err(RecvError::Lagged(missed))) => {
                        // The live buffer is small; read what was missed from the replay buffer.
                        tracing::debug!(missed, "relay lagged; catching up from the replay buffer");
                        match st.guard.bus.replay(&st.guard.search_id, st.last_id).await {
                            Ok(gap) => st.replay.extend(gap),
                            Err(e) => tracing::warn!(error = %e, "could not read the replay buffer"),
                        }
                        continue;
                    }
                    Ok(Err(RecvError::Closed)) | Err(_) => {
                        st.guard.finished = true;
                        let message = TIMED_OUT.to_owned();
                        return Some(((st.last_id + 1, SearchEvent::Error { message }), st));
                    }
                },
            };
            if envelope.id <= st.last_id {
                continue;
            }
            st.last_id = envelope.id;
            let event = match envelope.event {
                SearchEvent::Start { .. } if st.started => continue,
                SearchEvent::Start { .. } => {
                    st.started = true;
                    envelope.event
                }
                SearchEvent::BusinessFound { name, total, lead, .. } => {
                    if !st.seen.insert(lead.place_id.clone()) {
                        continue;
                    }
                    st.found += 1;
                    SearchEvent::BusinessFound {
                        name,
                        found: st.found,
                        total: total.max(st.found),
                        lead,
                    }
                }
                terminal => {
                    st.guard.finished = true;
                    terminal
                }
            };
            return Some(((envelope.id, event), st));
        }
    })
}
