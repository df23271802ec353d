//! Redis does not grow with use (#12 item 5): after a few hundred searches, the keys
//! that never expire are the same, and hold no more memory, than after the first one;
//! everything a search leaves (its events, checkpoint, cancel flag, the key's rate
//! limit) expires within the replay buffer's lifetime.

use std::{collections::BTreeMap, time::Duration};

use leadgen_core::bus::REPLAY_TTL;
use leadgen_testkit::places_sim::PlacesSim;

use crate::search::env::{Mode, SearchEnv};

/// Searches run, 20 at a time.
const SEARCHES: usize = 200;

/// The keys under `prefix` that never expire, with their memory, and the longest TTL of
/// the others (and how many there are).
async fn snapshot(redis: &mut redis::aio::MultiplexedConnection, prefix: &str) -> (BTreeMap<String, u64>, i64, usize) {
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}*"))
        .query_async(redis)
        .await
        .expect("keys");
    let (mut lasting, mut longest, mut expiring) = (BTreeMap::new(), 0, 0);
    for key in keys {
        // A schedule's lease (`{queue}:once`, one key a scheduled job kind, expiring after
        // its period, as long as an hour) is the fleet's, not something searches leave.
        if key.ends_with(":once") {
            continue;
        }
        let ttl: i64 = redis::cmd("TTL").arg(&key).query_async(redis).await.expect("ttl");
        if ttl == -1 {
            let bytes: Option<u64> = redis::cmd("MEMORY")
                .arg("USAGE")
                .arg(&key)
                .query_async(redis)
                .await
                .expect("memory usage");
            lasting.insert(key, bytes.unwrap_or(0));
        } else if ttl >= 0 {
            longest = longest.max(ttl);
            expiring += 1;
        }
    }
    (lasting, longest, expiring)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundreds_of_searches_leave_only_what_expires() {
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder().rpm_quota(0),
        2,
        vec![
            ("LEADGEN_FREE_MONTHLY_SEARCHES", "100000".into()),
            ("LEADGEN_FREE_DAILY_LEADS", "0".into()),
            ("LEADGEN_PLACES_RPS", "1000".into()),
            // 200 searches in seconds from one user: past the API's own rate limit.
            ("LEADGEN_RATE_LIMIT_PER_USER", "0".into()),
        ],
    )
    .await;
    let city = env.dense_city("restaurant", 60);
    let client = redis::Client::open(leadgen_testkit::db::redis_url()).expect("client");
    let mut redis = client.get_multiplexed_async_connection().await.expect("redis");
    // Housekeeping deletes a finished job's data within a second.
    let settle = || tokio::time::sleep(Duration::from_millis(2_000));

    let (status, _) = env.stream("restaurant", &city).await;
    assert_eq!(status, 200);
    settle().await;
    let (baseline, _, _) = snapshot(&mut redis, env.prefix()).await;

    for _ in 0..SEARCHES / 20 {
        let batch = (0..20).map(|_| env.stream("restaurant", &city));
        for (status, events) in futures_util::future::join_all(batch).await {
            assert_eq!(status, 200);
            assert_eq!(events.last().map(|(_, e)| e["type"].clone()), Some("complete".into()));
        }
    }
    settle().await;
    let (lasting, longest, expiring) = snapshot(&mut redis, env.prefix()).await;
    assert_eq!(
        lasting.keys().collect::<Vec<_>>(),
        baseline.keys().collect::<Vec<_>>(),
        "the keys that never expire are the same after {SEARCHES} more searches"
    );
    let (before, after): (u64, u64) = (baseline.values().sum(), lasting.values().sum());
    eprintln!(
        "redis hygiene: lasting keys {} ({before} B before, {after} B after), {expiring} expiring, longest TTL {longest} s",
        lasting.len()
    );
    assert!(
        after <= before + 512,
        "lasting keys hold {after} bytes after {SEARCHES} searches, {before} after one"
    );
    assert!(
        longest <= REPLAY_TTL.as_secs() as i64,
        "every key a search leaves expires within {} s (longest: {longest} s)",
        REPLAY_TTL.as_secs()
    );
    // Per search at most its events, checkpoint and cancel flag (a search's channel is no
    // key), plus the key's rate limit.
    assert!(expiring <= 3 * (SEARCHES + 1) + 1, "{expiring} expiring keys");
}
