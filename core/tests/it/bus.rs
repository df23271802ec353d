//! The replay window is a setting (`LEADGEN_RESULTS_REPLAY_MINUTES`): both buses keep a
//! search's events, checkpoint and cancel flag for that long after its last event, and no
//! longer.

use std::time::Duration;

use leadgen_core::{
    bus::{EventBus, REPLAY_TTL, memory::MemoryBus, redis::RedisBus},
    ids::SearchId,
    lead::{SearchEvent, SearchFailed},
};

fn event(text: &str) -> SearchEvent {
    SearchEvent::Error(SearchFailed { message: text.into() })
}

/// Every Redis key under `prefix` with its seconds to live, then deletes them (each test
/// has a prefix of its own).
async fn keys_with_ttl(url: &str, prefix: &str) -> Vec<(String, i64)> {
    let mut conn = redis::Client::open(url)
        .expect("client")
        .get_multiplexed_async_connection()
        .await
        .expect("redis");
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query_async(&mut conn)
        .await
        .expect("keys");
    let mut found = Vec::new();
    for key in keys {
        let ttl: i64 = redis::cmd("TTL").arg(&key).query_async(&mut conn).await.expect("ttl");
        found.push((key, ttl));
    }
    if !found.is_empty() {
        let names: Vec<&str> = found.iter().map(|(key, _)| key.as_str()).collect();
        let _: () = redis::cmd("DEL")
            .arg(&names)
            .query_async(&mut conn)
            .await
            .expect("clean up");
    }
    found
}

#[tokio::test]
async fn the_memory_bus_forgets_a_search_after_its_configured_window() {
    let bus = EventBus::Memory(MemoryBus::new()).with_replay_ttl(Duration::from_millis(200));
    assert_eq!(bus.replay_ttl(), Duration::from_millis(200));
    let search: SearchId = "s-memory".into();
    bus.publish(&search, &event("one")).await.expect("publish");
    assert_eq!(
        bus.replay(&search, 0).await.expect("replay").len(),
        1,
        "kept inside the window"
    );
    tokio::time::sleep(Duration::from_millis(350)).await;
    // Another search's activity sweeps expired ones.
    bus.publish(&"s-other".into(), &event("two")).await.expect("publish");
    assert!(
        bus.replay(&search, 0).await.expect("replay").is_empty(),
        "gone after the window"
    );
}

#[tokio::test]
async fn the_redis_bus_expires_every_key_of_a_search_after_its_configured_window() {
    let prefix = format!("test-bus-{}", uuid::Uuid::new_v4().simple());
    let url = leadgen_testkit::db::redis_url();
    let bus = EventBus::Redis(Box::new(RedisBus::connect(&url, &prefix).await.expect("bus")))
        .with_replay_ttl(Duration::from_secs(120));
    assert_eq!(
        EventBus::Redis(Box::new(RedisBus::connect(&url, &prefix).await.expect("bus"))).replay_ttl(),
        REPLAY_TTL
    );
    let search: SearchId = "s-redis".into();
    bus.publish_page(&search, &[event("one")], "after-page-1")
        .await
        .expect("page");
    bus.publish(&search, &event("two")).await.expect("publish");
    bus.cancel(&search).await.expect("cancel");

    let keys = keys_with_ttl(&url, &prefix).await;
    assert_eq!(keys.len(), 3, "events, checkpoint and cancel flag: {keys:?}");
    for (key, ttl) in &keys {
        assert!(
            (100..=120).contains(ttl),
            "{key} expires after the configured 120 s, not {ttl} s"
        );
    }
}

/// A search whose listener's API process stopped (`detach`) counts as cancelled once its
/// grace period is over, unless a client attached again; Redis' expiry decides, and the
/// marks expire like the search's other keys.
#[tokio::test]
async fn the_redis_bus_cancels_a_detached_search_after_its_grace_unless_a_client_attached() {
    let prefix = format!("test-bus-{}", uuid::Uuid::new_v4().simple());
    let url = leadgen_testkit::db::redis_url();
    let bus = EventBus::Redis(Box::new(RedisBus::connect(&url, &prefix).await.expect("bus")))
        .with_replay_ttl(Duration::from_secs(120));
    let (left, back, at_once): (SearchId, SearchId, SearchId) = ("s-left".into(), "s-back".into(), "s-now".into());
    for search in [&left, &back] {
        bus.detach(search, Duration::from_millis(300)).await.expect("detach");
    }
    bus.detach(&at_once, Duration::ZERO).await.expect("detach");
    assert!(!bus.is_cancelled(&left).await.expect("read"), "within the grace period");
    assert!(
        bus.is_cancelled(&at_once).await.expect("read"),
        "no grace: cancelled at once"
    );
    bus.attach(&back).await.expect("attach");
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert!(bus.is_cancelled(&left).await.expect("read"), "nobody came back");
    assert!(
        !bus.is_cancelled(&back).await.expect("read"),
        "a client attached again in time"
    );

    let keys = keys_with_ttl(&url, &prefix).await;
    assert_eq!(
        keys.len(),
        2,
        "the two searches left behind keep one mark each: {keys:?}"
    );
    for (key, ttl) in &keys {
        assert!(
            (100..=121).contains(ttl),
            "{key} expires with the search's other keys, not {ttl} s"
        );
    }
}

/// A stream of a search ending on one process while another stream of the same search
/// starts there (a browser reconnecting): the new stream receives the search's events.
/// Run many times on two threads, the two at once: the decision to unsubscribe the ended
/// stream's channel once raced the new stream's subscribe, and Redis could receive the
/// UNSUBSCRIBE last, leaving the new stream silent until it timed out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_that_starts_as_another_of_its_search_ends_still_hears_it() {
    let prefix = format!("test-bus-{}", uuid::Uuid::new_v4().simple());
    let url = leadgen_testkit::db::redis_url();
    let bus = EventBus::Redis(Box::new(RedisBus::connect(&url, &prefix).await.expect("bus")));
    for round in 0..200 {
        let search: SearchId = format!("s-{round}").into();
        let ended = bus.subscribe(&search, 0).await.expect("subscribe");
        let (leaving, joining) = (bus.clone(), bus.clone());
        let (left, joined) = (search.clone(), search.clone());
        let leave = tokio::spawn(async move {
            drop(ended);
            leaving.release(&left).await;
        });
        let join = tokio::spawn(async move { joining.subscribe(&joined, 0).await.expect("subscribe") });
        leave.await.expect("leave");
        let mut new = join.await.expect("join");
        bus.publish(&search, &event("heard")).await.expect("publish");
        let heard = tokio::time::timeout(Duration::from_secs(2), new.live.recv()).await;
        assert!(
            matches!(heard, Ok(Ok(_))),
            "round {round}: the new stream heard nothing ({heard:?})"
        );
        drop(new);
        bus.release(&search).await;
    }
    keys_with_ttl(&url, &prefix).await;
}
