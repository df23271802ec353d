//! The worker fleet as Kubernetes runs it: each `leadgen-worker` in its own PID and UTS
//! namespace (PID 1, its own hostname), as in a pod. Two pods share the queue; one is
//! killed with SIGKILL mid-search and its searches resume elsewhere from their
//! checkpoints, within seconds, with no lead sent twice and no page asked for again that
//! the dead pod had received; one is stopped with SIGTERM mid-search and hands its
//! searches back; and stopped pods leave nothing behind in Redis.

use std::{
    collections::HashSet,
    time::{Duration, Instant},
};

use futures_util::future::join_all;
use redis::AsyncCommands;

use super::worker_process::{Launch, WorkerProcess, assert_every_lead_once, pods_unavailable, slow_distributed_env};
use crate::search::env::SearchEnv;

/// Searches one pod runs at once.
const SLOTS: usize = 4;

/// Distinct (type, city) searches of three full pages each, so that no two searches send
/// Google the same request (a repeat then means a page asked for twice).
fn distinct_searches(env: &SearchEnv, n: usize) -> Vec<(String, String)> {
    let kinds = [
        "restaurant",
        "cafe",
        "dentist",
        "bakery",
        "bar",
        "gym",
        "hair_care",
        "lawyer",
        "florist",
        "pharmacy",
    ];
    let mut found = Vec::new();
    for kind in kinds {
        for city in env.sim.cities() {
            if env.sim.world().places_for(city.name, kind).len() >= 60 {
                found.push((kind.to_owned(), city.name.to_string()));
            }
        }
    }
    assert!(
        found.len() >= n,
        "the simulator's world has {} dense searches",
        found.len()
    );
    found.truncate(n);
    found
}

/// The names registered in the fleet now.
async fn fleet(redis: &mut redis::aio::MultiplexedConnection, prefix: &str) -> Vec<String> {
    redis
        .zrange(format!("{prefix}.search.v1:workers"), 0, -1)
        .await
        .expect("workers set")
}

/// Polls `check` every 100 ms for up to `limit`; true once it holds.
async fn eventually<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pods_share_the_queue_survive_sigkill_and_leave_nothing_behind() {
    if let Some(why) = pods_unavailable() {
        // Kubernetes-like namespaces need root; CI runs as root.
        eprintln!("SKIPPED pods_share_the_queue_survive_sigkill_and_leave_nothing_behind: {why}");
        return;
    }
    let env = slow_distributed_env().await;
    let prefix = env.prefix().to_owned();
    let mut redis = redis::Client::open(leadgen_testkit::db::redis_url())
        .expect("redis url")
        .get_multiplexed_async_connection()
        .await
        .expect("redis");
    let pod = |hostname: &'static str, name: Option<&'static str>| Launch {
        pod_hostname: Some(hostname),
        name,
        extra: vec![
            ("LEADGEN_WORKER_CONCURRENCY", SLOTS.to_string()),
            ("LEADGEN_WORKER_DRAIN_SECS", "1".into()),
        ],
        log: None,
        binary: None,
    };

    // Two pods: one named by the chart (the pod name), one by itself.
    let pod_a = WorkerProcess::start(&env, pod("pod-a", Some("leadgen-worker-5d8f9-aaaaa")));
    let pod_b = WorkerProcess::start(&env, pod("pod-b", None));
    assert_eq!(pod_a.name, "leadgen-worker-5d8f9-aaaaa");
    assert!(
        pod_b.name.starts_with("pod-b-1-"),
        "PID 1 in its own namespace, named by hostname, pid and a random suffix: {}",
        pod_b.name
    );
    let both = [pod_a.name.clone(), pod_b.name.clone()];
    assert!(
        eventually(Duration::from_secs(10), || {
            let mut r = redis.clone();
            let (prefix, both) = (prefix.clone(), both.clone());
            async move {
                let names = fleet(&mut r, &prefix).await;
                both.iter().all(|n| names.contains(n))
            }
        })
        .await,
        "both pods register, though each is PID 1"
    );

    let searches = distinct_searches(&env, 4 * SLOTS);
    let (first_wave, second_wave) = searches.split_at(2 * SLOTS);

    // Wave 1: both pods take searches; pod A is killed in the middle of its second pages.
    let runs = join_all(first_wave.iter().map(|(kind, city)| env.stream(kind, city)));
    let chaos = async {
        let mut both_busy = false;
        for _ in 0..150 {
            if pod_a.jobs_running().await > 0.0 && pod_b.jobs_running().await > 0.0 {
                both_busy = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(both_busy, "both pods take searches from the one queue");
        // Every first page answered and published: a restart from scratch would ask again.
        assert!(
            eventually(Duration::from_secs(20), || async {
                env.sim.stats().billable_requests >= first_wave.len() as u64
            })
            .await
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
        let running_on_a = pod_a.jobs_running().await as u64;
        assert!(running_on_a > 0, "pod A is mid-search when it dies");
        pod_a.signal("KILL");
        let killed = Instant::now();
        let a_name = pod_a.name.clone();
        let exit = pod_a.wait_exit(Duration::from_secs(5)).await;
        assert!(!exit.success(), "SIGKILL: {exit}");
        // The replacement pod, as a Deployment would start one.
        let pod_c = WorkerProcess::start(&env, pod("pod-c", None));
        let taken_over = eventually(Duration::from_secs(15), || {
            let mut r = redis.clone();
            let (prefix, a_name) = (prefix.clone(), a_name.clone());
            async move { !fleet(&mut r, &prefix).await.contains(&a_name) }
        })
        .await;
        assert!(taken_over, "the dead pod's searches are taken over");
        (running_on_a, killed.elapsed(), pod_c)
    };
    let (bodies, (running_on_a, takeover, pod_c)) = tokio::join!(runs, chaos);
    assert!(
        takeover < Duration::from_secs(10),
        "a dead pod's searches go back to the queue within 10 s of its death: {takeover:?}"
    );
    for ((kind, city), (status, events)) in first_wave.iter().zip(&bodies) {
        assert_eq!(*status, 200);
        assert_every_lead_once(&env, kind, city, events);
    }
    let stats = env.sim.stats();
    // Each search on the dead pod had at most one request in flight, whose answer died
    // with it; every page it had received is not asked for again.
    assert!(
        stats.repeated_requests <= running_on_a,
        "{} repeated Google requests; {running_on_a} searches were running on the killed pod",
        stats.repeated_requests
    );
    let repeated_after_kill = stats.repeated_requests;
    eprintln!(
        "pods: takeover {takeover:?} after SIGKILL; {running_on_a} searches on the killed pod; {} repeated requests",
        stats.repeated_requests
    );

    // Wave 2 (as many searches as pods B and C have slots, so both run some): pod B is
    // stopped with SIGTERM in the middle of searches; its drain time (1 s)
    // ends before they do, so it hands them back and pod C finishes them.
    let billed_before = stats.billable_requests;
    let runs = join_all(second_wave.iter().map(|(kind, city)| env.stream(kind, city)));
    let stop = async {
        assert!(
            eventually(Duration::from_secs(20), || async {
                pod_b.jobs_running().await > 0.0
                    && env.sim.stats().billable_requests >= billed_before + second_wave.len() as u64
            })
            .await,
            "pod B runs some of the second wave"
        );
        let running_on_b = pod_b.jobs_running().await as u64;
        let b_name = pod_b.name.clone();
        pod_b.signal("TERM");
        let exit = pod_b.wait_exit(Duration::from_secs(15)).await;
        assert!(exit.success(), "SIGTERM: a clean exit, {exit}");
        let names = fleet(&mut redis.clone(), &prefix).await;
        assert!(
            !names.contains(&b_name),
            "a stopped pod deregisters as it exits: {names:?}"
        );
        let metadata: bool = redis
            .clone()
            .exists(format!("{prefix}.search.v1:workers:metadata:{b_name}"))
            .await
            .expect("exists");
        assert!(!metadata, "and leaves no metadata behind");
        running_on_b
    };
    let (bodies, running_on_b) = tokio::join!(runs, stop);
    for ((kind, city), (status, events)) in second_wave.iter().zip(&bodies) {
        assert_eq!(*status, 200);
        assert_every_lead_once(&env, kind, city, events);
    }
    let repeated = env.sim.stats().repeated_requests - repeated_after_kill;
    assert!(
        repeated <= running_on_b,
        "{repeated} repeated requests; {running_on_b} searches were handed back by the stopped pod"
    );

    // Let pod C's housekeeping run once more (it deletes finished jobs' data), then stop it.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let c_name = pod_c.name.clone();
    pod_c.stop_gracefully().await;
    assert_redis_is_clean(&mut redis, &prefix, &[&both[0], &both[1], &c_name]).await;
}

/// Nothing of the fleet is left: no registration, no worker's keys, no entry outside the
/// prefix, and no key under the prefix that names a worker, a job or a search without an
/// expiry.
async fn assert_redis_is_clean(redis: &mut redis::aio::MultiplexedConnection, prefix: &str, names: &[&str]) {
    let queue = format!("{prefix}.search.v1");
    assert!(fleet(redis, prefix).await.is_empty(), "no registration left");
    let outside: Option<f64> = redis
        .zscore("core:apalis:queues:list", format!("{queue}:workers"))
        .await
        .expect("zscore");
    assert_eq!(outside, None, "no entry for this queue outside the prefix");
    let keys: Vec<String> = redis.keys(format!("{prefix}*")).await.expect("keys");
    let mut lasting = HashSet::new();
    for key in &keys {
        let ttl: i64 = redis.ttl(key).await.expect("ttl");
        if ttl == -1 {
            lasting.insert(key.clone());
        }
    }
    for key in &lasting {
        let per_item = key.contains(":meta:")
            || key.contains(":inflight:")
            || key.contains(":workers:metadata:")
            || key.contains(":search:")
            || names.iter().any(|n| key.contains(n));
        assert!(
            !per_item,
            "{key} names a worker, job or search and never expires (all: {lasting:?})"
        );
    }
}
