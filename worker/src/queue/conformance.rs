//! One conformance suite, run against both stores (in process, and Redis on a key prefix
//! of its own per test): the behaviour the fleet and fault tests rely on, pinned at the
//! store and through a real apalis worker on our backend.

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use apalis::prelude::*;
use apalis_core::error::AbortError;
use serde::{Deserialize, Serialize};

use super::{
    HandBack, InProcessStore, JobSource, RedisStore, Store, Wakeup,
    store::{Claimed, RETRY_STEP, Retried},
};

/// Runs each named case against a fresh in-process store and a fresh Redis store.
macro_rules! conformance {
    ($($case:ident),+ $(,)?) => {
        $(
            mod $case {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn in_process() {
                    super::$case(super::in_process_store()).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn redis() {
                    super::$case(super::redis_store().await).await;
                }
            }
        )+
    };
}

conformance!(
    jobs_run_in_the_order_pushed_one_per_claim,
    a_dead_workers_jobs_go_back_to_the_front,
    a_beating_worker_keeps_its_jobs_and_one_that_left_stays_out,
    an_acknowledged_job_is_gone,
    a_failed_job_is_due_again_later_then_given_up,
    a_clean_stop_returns_the_workers_jobs_to_the_front,
    a_job_finished_after_its_hand_back_does_not_run_again,
    the_lease_admits_one_push_a_period,
    the_oldest_job_says_how_long_it_waited,
    an_apalis_worker_on_our_backend_runs_settles_and_retries,
);

const QUEUE: &str = "probe.v1";

fn in_process_store() -> Store {
    Store::InProcess(InProcessStore::new(QUEUE))
}

fn redis_url() -> String {
    std::env::var("LEADGEN_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

fn test_prefix() -> String {
    format!("leadgen-test-{}", uuid::Uuid::new_v4().simple())
}

async fn redis_store() -> Store {
    let conn = super::connect(&redis_url()).await.expect("redis");
    Store::Redis(RedisStore::new(conn, &super::queue_name(&test_prefix(), QUEUE)))
}

async fn push(store: &Store, ids: &[&str]) {
    for id in ids {
        store.push(id, format!("\"{id}\"").as_bytes()).await.expect("push");
    }
}

/// The id `worker` claims next (`None`: nothing waits).
async fn next(store: &Store, worker: &str) -> Option<String> {
    store.claim(worker).await.expect("claim").map(|claimed| claimed.id)
}

async fn jobs_run_in_the_order_pushed_one_per_claim(store: Store) {
    push(&store, &["a", "b", "c"]).await;
    assert_eq!(store.depth().await.expect("depth"), 3);
    let first = store.claim("w1").await.expect("claim");
    assert_eq!(
        first,
        Some(Claimed {
            id: "a".into(),
            payload: b"\"a\"".to_vec(),
            attempts: 1,
        }),
        "the payload comes back as pushed, on its first attempt"
    );
    assert_eq!(
        next(&store, "w2").await.as_deref(),
        Some("b"),
        "another worker takes the next"
    );
    assert_eq!(next(&store, "w1").await.as_deref(), Some("c"));
    assert_eq!(next(&store, "w2").await, None);
    assert_eq!(store.depth().await.expect("depth"), 0, "claimed jobs are not waiting");
    assert_eq!(
        store.workers().await.expect("workers"),
        ["w1", "w2"],
        "a claim joins the fleet"
    );
}

async fn a_dead_workers_jobs_go_back_to_the_front(store: Store) {
    push(&store, &["a", "b", "c", "d"]).await;
    assert_eq!(next(&store, "dead").await.as_deref(), Some("a"));
    assert_eq!(next(&store, "dead").await.as_deref(), Some("b"));
    assert_eq!(next(&store, "alive").await.as_deref(), Some("c"));
    tokio::time::sleep(Duration::from_millis(300)).await;
    store.beat("alive").await.expect("beat");
    let (workers, jobs) = store
        .hand_back(HandBack::SilentFor(Duration::from_millis(200)))
        .await
        .expect("takeover");
    assert_eq!((workers, jobs), (1, 2), "the silent worker and its two jobs");
    assert_eq!(store.workers().await.expect("workers"), ["alive"]);
    // Ahead of `d`, which was waiting, in the order the dead worker took them.
    assert_eq!(next(&store, "alive").await.as_deref(), Some("a"));
    assert_eq!(next(&store, "alive").await.as_deref(), Some("b"));
    assert_eq!(next(&store, "alive").await.as_deref(), Some("d"));
}

async fn a_beating_worker_keeps_its_jobs_and_one_that_left_stays_out(store: Store) {
    push(&store, &["a"]).await;
    assert_eq!(next(&store, "w1").await.as_deref(), Some("a"));
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        store.beat("w1").await.expect("beat");
    }
    let taken = store
        .hand_back(HandBack::SilentFor(Duration::from_millis(200)))
        .await
        .expect("takeover");
    assert_eq!(taken, (0, 0), "a worker that beats, though it claims nothing, is alive");
    assert_eq!(store.hand_back(HandBack::Only("w1")).await.expect("leave"), (1, 1));
    store.beat("w1").await.expect("beat");
    assert!(
        store.workers().await.expect("workers").is_empty(),
        "a heartbeat after leaving does not rejoin the fleet"
    );
}

async fn an_acknowledged_job_is_gone(store: Store) {
    push(&store, &["a", "b"]).await;
    assert_eq!(next(&store, "w1").await.as_deref(), Some("a"));
    store.ack("w1", "a").await.expect("ack");
    assert_eq!(
        store.hand_back(HandBack::Only("w1")).await.expect("leave"),
        (1, 0),
        "an acknowledged job is no longer held"
    );
    assert_eq!(next(&store, "w1").await.as_deref(), Some("b"), "and never comes back");
    store.ack("w1", "b").await.expect("ack");
    assert_eq!(next(&store, "w1").await, None);
    assert_eq!(store.depth().await.expect("depth"), 0);
}

async fn a_failed_job_is_due_again_later_then_given_up(store: Store) {
    push(&store, &["a"]).await;
    assert_eq!(next(&store, "w1").await.as_deref(), Some("a"));
    assert_eq!(store.retry_within("w1", "a", 2).await.expect("retry"), Retried::Later);
    assert_eq!(store.depth().await.expect("depth"), 1, "a delayed job still waits");
    assert_eq!(next(&store, "w1").await, None, "not before its delay");
    tokio::time::sleep(RETRY_STEP + Duration::from_millis(100)).await;
    let again = store.claim("w1").await.expect("claim").expect("due again");
    assert_eq!((again.id.as_str(), again.attempts), ("a", 2), "its second attempt");
    assert_eq!(
        store.retry_within("w1", "a", 2).await.expect("retry"),
        Retried::GaveUp,
        "after its last attempt"
    );
    assert_eq!(store.depth().await.expect("depth"), 0);
    tokio::time::sleep(RETRY_STEP * 2 + Duration::from_millis(100)).await;
    assert_eq!(next(&store, "w1").await, None, "a job given up never runs again");
    assert_eq!(
        store.retry("w1", "a").await.expect("retry"),
        Retried::NotHeld,
        "a job the worker does not hold is left alone"
    );
}

async fn a_clean_stop_returns_the_workers_jobs_to_the_front(store: Store) {
    push(&store, &["a", "b"]).await;
    assert_eq!(next(&store, "stopping").await.as_deref(), Some("a"));
    assert_eq!(next(&store, "stopping").await.as_deref(), Some("b"));
    push(&store, &["c"]).await;
    assert_eq!(
        store.hand_back(HandBack::Only("stopping")).await.expect("leave"),
        (1, 2)
    );
    assert!(store.workers().await.expect("workers").is_empty(), "it left the fleet");
    let resumed = store.claim("other").await.expect("claim").expect("a job");
    assert_eq!(
        (resumed.id.as_str(), resumed.attempts),
        ("a", 2),
        "the handed-back job comes first, its attempts counted"
    );
    assert_eq!(next(&store, "other").await.as_deref(), Some("b"));
    assert_eq!(next(&store, "other").await.as_deref(), Some("c"));
}

async fn a_job_finished_after_its_hand_back_does_not_run_again(store: Store) {
    push(&store, &["a"]).await;
    assert_eq!(next(&store, "slow").await.as_deref(), Some("a"));
    store.hand_back(HandBack::Only("slow")).await.expect("takeover");
    // The worker was thought dead but finishes after all.
    store.ack("slow", "a").await.expect("ack");
    assert_eq!(next(&store, "other").await, None, "the finished job is skipped");
}

async fn the_lease_admits_one_push_a_period(store: Store) {
    let period = Duration::from_millis(400);
    assert!(store.take_lease(period).await.expect("lease"));
    assert!(!store.take_lease(period).await.expect("lease"), "not twice a period");
    tokio::time::sleep(period + Duration::from_millis(100)).await;
    assert!(store.take_lease(period).await.expect("lease"), "the next period");
    store.release_lease().await.expect("release");
    assert!(
        store.take_lease(period).await.expect("lease"),
        "a released lease is free"
    );
}

async fn the_oldest_job_says_how_long_it_waited(store: Store) {
    assert_eq!(store.oldest_age_secs().await.expect("age"), 0.0, "none waits");
    let id = super::store::new_job_id();
    store.push(&id, b"{}").await.expect("push");
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let age = store.oldest_age_secs().await.expect("age");
    assert!((1.0..5.0).contains(&age), "waited about a second: {age}");
}

/// What the probe handler does with a job.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Probe {
    Succeed,
    FailOnce,
    Abort,
}

impl leadgen_core::jobs::JobPayload for Probe {
    const QUEUE: &'static str = QUEUE;
}

#[derive(Clone, Default)]
struct Runs {
    succeed: Arc<AtomicUsize>,
    fail_once: Arc<AtomicUsize>,
    abort: Arc<AtomicUsize>,
}

async fn probe(job: Probe, runs: Data<Runs>) -> Result<(), BoxDynError> {
    match job {
        Probe::Succeed => {
            runs.succeed.fetch_add(1, Ordering::SeqCst);
            Ok(())
        }
        Probe::FailOnce => match runs.fail_once.fetch_add(1, Ordering::SeqCst) {
            0 => Err("briefly unavailable".into()),
            _ => Ok(()),
        },
        Probe::Abort => {
            runs.abort.fetch_add(1, Ordering::SeqCst);
            Err(Box::new(AbortError::new(std::io::Error::other("never again"))))
        }
    }
}

async fn an_apalis_worker_on_our_backend_runs_settles_and_retries(store: Store) {
    let wakeup = match &store {
        Store::InProcess(store) => store.wakeup(),
        Store::Redis(store) => Wakeup::subscribe(&redis_url(), super::pushed_channel(store.name())).expect("subscribe"),
    };
    let source = JobSource::<Probe> {
        store: store.clone(),
        wakeup,
        payload: std::marker::PhantomData,
    };
    let queue = super::JobQueue::<Probe> {
        store: store.clone(),
        payload: std::marker::PhantomData,
    };
    for job in [Probe::Succeed, Probe::FailOnce, Probe::Abort] {
        queue.push(job).await.expect("push");
    }
    let runs = Runs::default();
    let (stop, mut stopping) = tokio::sync::watch::channel(false);
    let worker = WorkerBuilder::new("conformance")
        .backend(source.consumer("conformance"))
        .concurrency(2)
        .data(runs.clone())
        .build(probe)
        .run_until(async move {
            let _ = stopping.wait_for(|stop| *stop).await;
            Ok::<(), std::io::Error>(())
        });
    let worker = tokio::spawn(worker);
    let settled = async {
        loop {
            let ran = runs.succeed.load(Ordering::SeqCst) == 1 && runs.fail_once.load(Ordering::SeqCst) == 2;
            if ran && queue.depth().await.expect("depth") == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), settled)
        .await
        .expect("every job ran, the failed one again after its delay");
    // Time for a wrongly retried job to run again.
    tokio::time::sleep(RETRY_STEP * 2 + Duration::from_millis(200)).await;
    let _ = stop.send(true);
    worker.abort();
    assert_eq!(runs.succeed.load(Ordering::SeqCst), 1, "a success runs once");
    assert_eq!(
        runs.fail_once.load(Ordering::SeqCst),
        2,
        "a failure runs again, once it succeeds no more"
    );
    assert_eq!(
        runs.abort.load(Ordering::SeqCst),
        1,
        "a permanent failure is never retried"
    );
    assert_eq!(
        store.hand_back(HandBack::Only("conformance")).await.expect("leave"),
        (1, 0),
        "every job was settled: the worker holds none"
    );
}

/// Redis only: a fleet that stopped leaves no key behind but what is shared and small,
/// and what a worker holds expires if nobody renews it.
#[tokio::test]
async fn redis_keys_stay_under_the_prefix_and_vanish_when_empty() {
    let prefix = test_prefix();
    let conn = super::connect(&redis_url()).await.expect("redis");
    let store = Store::Redis(RedisStore::new(conn.clone(), &super::queue_name(&prefix, QUEUE)));
    push(&store, &["a", "b"]).await;
    assert_eq!(next(&store, "w1").await.as_deref(), Some("a"));
    let mut redis = conn.clone();
    let held_ttl: i64 = ::redis::cmd("TTL")
        .arg(format!("{prefix}.{QUEUE}:held:w1"))
        .query_async(&mut redis)
        .await
        .expect("ttl");
    assert!(held_ttl > 0, "a worker's hold expires unless renewed: {held_ttl}");
    store.ack("w1", "a").await.expect("ack");
    assert_eq!(next(&store, "w1").await.as_deref(), Some("b"));
    assert_eq!(store.retry("w1", "b").await.expect("retry"), Retried::Later);
    let keys = |redis: &mut ::redis::aio::ConnectionManager| {
        let mut redis = redis.clone();
        let prefix = prefix.clone();
        async move {
            let mut keys: Vec<String> = ::redis::cmd("KEYS")
                .arg(format!("{prefix}*"))
                .query_async(&mut redis)
                .await
                .expect("keys");
            keys.sort();
            keys
        }
    };
    let queue = format!("{prefix}.{QUEUE}");
    assert_eq!(
        keys(&mut redis).await,
        [
            format!("{queue}:attempts"),
            format!("{queue}:delayed"),
            format!("{queue}:jobs"),
            format!("{queue}:workers"),
        ],
        "a delayed job, and the fleet"
    );
    tokio::time::sleep(RETRY_STEP * 2).await;
    assert_eq!(next(&store, "w1").await.as_deref(), Some("b"));
    store.ack("w1", "b").await.expect("ack");
    store.hand_back(HandBack::Only("w1")).await.expect("leave");
    assert!(keys(&mut redis).await.is_empty(), "nothing left once the fleet stopped");
}
