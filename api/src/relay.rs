//! From a search's bus subscription to the events a client sees.
//!
//! The relay forwards each event once: the first `start`, each place id's first
//! `business_found` (renumbered, so a retried job that re-sends leads changes nothing the
//! client sees), each place's first `lead_enriched` (an enriched search), then
//! `complete` or `error`, after which the stream ends. A client that
//! goes away before the end cancels the search.
//!
//! When the API process stops (a deploy), what happens depends on the mode ([`OnStop`]):
//! in distributed mode the workers carry the search on, so the stream ends with
//! `reconnect` and the client picks the search up on another process; a search that does
//! not run in the background is detached on the bus and cancelled by its worker only if
//! nobody reconnects within the grace period. In embedded mode the search stops with the
//! process: the stream ends with [`SERVER_STOPPING`].

use leadgen_core::ids::SearchId;
use std::{
    collections::{HashSet, VecDeque},
    sync::Arc,
    time::Duration,
};

use futures_util::{Stream, stream};
use leadgen_core::telemetry::metrics::{GaugeGuard, metrics};
use leadgen_core::{
    bus::{Envelope, EventBus, Subscription},
    lead::{BusinessFound, LeadEnriched, SearchEvent, SearchFailed, SearchReconnect, SearchStarted},
};
use tokio::sync::broadcast::error::RecvError;

/// Longest a search may stay silent before the client is told it failed.
pub const SILENCE_LIMIT: Duration = Duration::from_secs(120);
/// What the client is told then.
pub const TIMED_OUT: &str = "The search did not finish in time. Please try again.";
/// What open streams are told when this server stops and its searches stop with it
/// (embedded mode, or a whole search answered at once).
pub const SERVER_STOPPING: &str =
    "The server is restarting, so this search was stopped. Please run it again in a moment.";
/// What a `reconnect` event says: this server stops, the search goes on elsewhere.
pub const RECONNECT: &str = "This server is restarting; the search goes on. Reconnect to read the rest (GET /api/leads/searches/{id}/events with Last-Event-ID).";

/// What a stream does when its API process stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnStop {
    /// The search stops with the process (embedded mode runs it in-process; a whole
    /// search answered at once has no client that could reconnect): the stream ends with
    /// [`SERVER_STOPPING`] and a search that does not run in the background is cancelled.
    EndSearch,
    /// The workers carry the search on (distributed mode): the stream ends with
    /// `reconnect`, and a search that does not run in the background is cancelled only if
    /// no client reconnects within `grace`.
    HandOver {
        /// `LEADGEN_RECONNECT_GRACE_SECS`.
        grace: Duration,
    },
}

/// How a stream relays its search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RelayMode {
    /// The search runs in the background: a stream that closes early leaves it running
    /// (the user can reconnect); otherwise closing it cancels the search.
    pub background: bool,
    /// Events up to this number were already seen (the client's `Last-Event-ID`): they
    /// update the relay's numbering but are not sent again.
    pub after: u64,
    /// When the server stops.
    pub on_stop: OnStop,
}

/// Cancels the search if the stream is dropped before its end (unless it runs in the
/// background).
struct CancelOnDrop {
    bus: EventBus,
    search_id: SearchId,
    finished: bool,
    background: bool,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let (bus, search_id) = (self.bus.clone(), self.search_id.clone());
        let finished = self.finished || self.background;
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
    /// Places whose `lead_enriched` went out (a retried enrichment job sends it again).
    enriched: HashSet<String>,
    found: u32,
    started: bool,
    /// Set once the last event went out; the next poll ends the stream.
    ended: bool,
    /// The server is stopping (its shutdown sender is gone).
    stopping: bool,
    shutdown: tokio::sync::watch::Receiver<bool>,
    guard: CancelOnDrop,
    _open: GaugeGuard,
    /// Events up to this number only update the state (a reconnecting client has them).
    skip_to: u64,
    on_stop: OnStop,
}

/// The client's view of search `search_id`: `(event number, event)` pairs; the number is
/// absent on `reconnect`, which is not one of the search's events. When `shutdown` turns
/// true the stream ends as `mode.on_stop` says.
pub fn relay(
    bus: EventBus,
    search_id: SearchId,
    mut sub: Subscription,
    shutdown: tokio::sync::watch::Receiver<bool>,
    mode: RelayMode,
) -> impl Stream<Item = (Option<u64>, SearchEvent)> + Send {
    let replay = std::mem::take(&mut sub.replay).into();
    let state = State {
        replay,
        sub,
        last_id: 0,
        seen: HashSet::new(),
        enriched: HashSet::new(),
        found: 0,
        started: false,
        ended: false,
        stopping: false,
        shutdown,
        _open: GaugeGuard::new(&metrics().sse_streams_open),
        guard: CancelOnDrop {
            bus,
            search_id,
            finished: false,
            background: mode.background,
        },
        skip_to: mode.after,
        on_stop: mode.on_stop,
    };
    stream::unfold(state, |mut st| async move {
        if st.guard.finished || st.ended {
            return None;
        }
        loop {
            if st.stopping || *st.shutdown.borrow() {
                st.ended = true;
                let event = match st.on_stop {
                    OnStop::EndSearch => {
                        let message = SERVER_STOPPING.to_owned();
                        return Some(((Some(st.last_id + 1), SearchEvent::Error(SearchFailed { message })), st));
                    }
                    OnStop::HandOver { grace } => hand_over(&mut st.guard, grace).await,
                };
                return Some(((None, event), st));
            }
            let envelope = match st.replay.pop_front() {
                Some(e) => e,
                None => match tokio::select! {
                    received = tokio::time::timeout(SILENCE_LIMIT, st.sub.live.recv()) => received,
                    // Loop round to the shutdown check above; a dropped sender means the
                    // server is going away too.
                    changed = st.shutdown.changed() => {
                        st.stopping |= changed.is_err();
                        continue;
                    }
                } {
                    Ok(Ok(e)) => Arc::unwrap_or_clone(e),
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
                        return Some(((Some(st.last_id + 1), SearchEvent::Error(SearchFailed { message })), st));
                    }
                },
            };
            if envelope.id <= st.last_id {
                continue;
            }
            st.last_id = envelope.id;
            let event = match envelope.event {
                SearchEvent::Start(SearchStarted { .. }) if st.started => continue,
                SearchEvent::Start(SearchStarted { .. }) => {
                    st.started = true;
                    envelope.event
                }
                SearchEvent::BusinessFound(BusinessFound { name, total, lead, .. }) => {
                    if !st.seen.insert(lead.place_id.clone()) {
                        continue;
                    }
                    st.found += 1;
                    SearchEvent::BusinessFound(BusinessFound {
                        name,
                        found: st.found,
                        total: total.max(st.found),
                        lead,
                    })
                }
                SearchEvent::LeadEnriched(LeadEnriched { place_id, contacts }) => {
                    if !st.enriched.insert(place_id.clone()) {
                        continue;
                    }
                    SearchEvent::LeadEnriched(LeadEnriched { place_id, contacts })
                }
                progress @ SearchEvent::Progress(_) => progress,
                // A relay's own event, never a worker's: one on the bus is not for clients.
                SearchEvent::Reconnect(_) => continue,
                terminal => {
                    st.guard.finished = true;
                    terminal
                }
            };
            if envelope.id <= st.skip_to {
                if event.is_terminal() {
                    // The client saw the end already: nothing more to send.
                    return None;
                }
                continue;
            }
            return Some(((Some(envelope.id), event), st));
        }
    })
}

/// This server stops and the search goes on: one that does not run in the background is
/// detached on the bus first (before its client can hear `reconnect` and attach on
/// another process), so it is cancelled only if nobody comes back within `grace`.
async fn hand_over(guard: &mut CancelOnDrop, grace: Duration) -> SearchEvent {
    if !guard.background
        && let Err(e) = guard.bus.detach(&guard.search_id, grace).await
    {
        // The search then runs to its end unwatched rather than being cut off.
        tracing::warn!(search_id = %guard.search_id, error = %e, "could not detach the search from its stream");
    }
    // Not the client leaving: dropping the stream must not cancel the search.
    guard.finished = true;
    tracing::info!(search_id = %guard.search_id, background = guard.background, "server stopping; the client is told to reconnect");
    SearchEvent::Reconnect(SearchReconnect {
        search_id: guard.search_id.clone(),
        message: RECONNECT.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use futures_util::StreamExt;
    use leadgen_core::{bus::memory::MemoryBus, enrich::Contacts, lead::Lead};

    use super::*;

    fn lead(id: &str) -> Lead {
        Lead {
            name: id.into(),
            address: String::new(),
            phone: String::new(),
            website: format!("https://{id}.example"),
            place_id: id.into(),
            rating: None,
            review_count: None,
            contacts: None,
            ..Default::default()
        }
    }

    fn enriched(id: &str, email: &str) -> SearchEvent {
        SearchEvent::LeadEnriched(LeadEnriched {
            place_id: id.into(),
            contacts: Contacts {
                emails: vec![email.into()],
                ..Contacts::default()
            },
        })
    }

    #[tokio::test]
    async fn each_places_contacts_go_out_once_and_again_only_to_a_client_that_lacks_them() {
        let bus = EventBus::Memory(MemoryBus::new());
        let id: SearchId = "s-relay".into();
        let found = SearchEvent::BusinessFound(BusinessFound {
            name: "a".into(),
            found: 1,
            total: 1,
            lead: lead("a"),
        });
        // Any terminal event ends the stream; `error` needs no usage report.
        let complete = SearchEvent::Error(SearchFailed { message: "done".into() });
        // A retried enrichment job publishes its result twice.
        let events = [
            found,
            enriched("a", "hi@a.example"),
            enriched("a", "hi@a.example"),
            complete,
        ];
        bus.publish_all(&id, &events).await.expect("publish");
        let (_stop, shutdown) = tokio::sync::watch::channel(false);
        let read = |after| {
            let bus = bus.clone();
            let id = id.clone();
            let shutdown = shutdown.clone();
            async move {
                let sub = bus.subscribe(&id, 0).await.expect("subscribe");
                relay(
                    bus,
                    id,
                    sub,
                    shutdown,
                    RelayMode {
                        background: true,
                        after,
                        on_stop: OnStop::EndSearch,
                    },
                )
                .map(|(_, e)| e)
                .collect::<Vec<_>>()
                .await
            }
        };
        let all = read(0).await;
        let kinds: Vec<&str> = all
            .iter()
            .map(|e| match e {
                SearchEvent::BusinessFound(BusinessFound { .. }) => "business_found",
                SearchEvent::LeadEnriched(LeadEnriched { .. }) => "lead_enriched",
                SearchEvent::Error(SearchFailed { .. }) => "end",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["business_found", "lead_enriched", "end"]);
        // A client that had the lead (event 1) but not its contacts gets them.
        let later = read(1).await;
        assert!(
            matches!(later.first(), Some(SearchEvent::LeadEnriched(LeadEnriched { .. }))),
            "{later:?}"
        );
        assert_eq!(later.len(), 2);
    }

    /// A stopping server hands a search over: `reconnect` (no event number) after what the
    /// client had, the search kept (not cancelled as a client leaving would have it) and,
    /// unless it runs in the background, detached: cancelled once its grace is over.
    #[tokio::test]
    async fn a_stopping_server_tells_the_client_to_reconnect_and_detaches_a_foreground_search() {
        let bus = EventBus::Memory(MemoryBus::new());
        let grace = Duration::from_millis(200);
        for background in [false, true] {
            let id: SearchId = format!("s-stop-{background}").as_str().into();
            let found = SearchEvent::business_found(lead("a"), 1, 1);
            bus.publish_all(&id, &[found]).await.expect("publish");
            let (stop, shutdown) = tokio::sync::watch::channel(false);
            let sub = bus.subscribe(&id, 0).await.expect("subscribe");
            let mode = RelayMode {
                background,
                after: 0,
                on_stop: OnStop::HandOver { grace },
            };
            let mut events = Box::pin(relay(bus.clone(), id.clone(), sub, shutdown, mode));
            assert_eq!(events.next().await.map(|(n, _)| n), Some(Some(1)));
            stop.send_replace(true);
            let (number, last) = events.next().await.expect("a last event");
            assert_eq!(number, None, "not one of the search's numbered events");
            assert_eq!(
                last,
                SearchEvent::Reconnect(SearchReconnect {
                    search_id: id.clone(),
                    message: RECONNECT.into()
                })
            );
            assert!(events.next().await.is_none(), "the stream ends");
            drop(events);
            tokio::time::sleep(Duration::from_millis(50)).await;
            assert!(
                !bus.is_cancelled(&id).await.expect("read"),
                "background {background}: not cancelled on stop"
            );
            tokio::time::sleep(grace).await;
            assert_eq!(
                bus.is_cancelled(&id).await.expect("read"),
                !background,
                "background {background}: a foreground search nobody came back for is cancelled after the grace"
            );
        }
    }
}
