//! The saved searches' scheduler across real worker processes (issue #29 item 4): two
//! `leadgen-worker` processes, each queueing a scheduling tick every second, and a saved
//! search due every minute. Each minute starts exactly one run, not one per worker or per
//! tick. (Racing ticks in one process and a missed window are tested in
//! `saved_searches.rs`; this is the deployed shape.)

use std::time::Duration;

use leadgen_core::time::now_unix;
use leadgen_testkit::places_sim::PlacesSim;
use serde_json::{Value, json};

use super::worker_process::{Launch, WorkerProcess};
use crate::search::env::{Mode, SearchEnv};

/// The history's runs of saved search `id`, as `(search id, started at)`, oldest first.
async fn runs(env: &SearchEnv, id: &str) -> Vec<(String, chrono::DateTime<chrono::Utc>)> {
    let (status, page) = env.app.get("/api/leads/searches?limit=100", Some(&env.token)).await;
    assert_eq!(status, 200, "{page}");
    let mut runs: Vec<_> = page["searches"]
        .as_array()
        .expect("searches")
        .iter()
        .filter(|s| s["savedSearchId"] == id)
        .map(|s| {
            let started = s["startedAt"].as_str().expect("startedAt");
            (
                s["id"].as_str().expect("id").to_owned(),
                chrono::DateTime::parse_from_rfc3339(started)
                    .expect("RFC 3339")
                    .to_utc(),
            )
        })
        .collect();
    runs.sort_by_key(|(_, at)| *at);
    runs
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_worker_processes_start_one_run_a_minute() {
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder(),
        0,
        vec![
            ("LEADGEN_MONITOR_MIN_INTERVAL_MINUTES", "1".into()),
            ("LEADGEN_FREE_DAILY_LEADS", "0".into()),
        ],
    )
    .await;
    let every_second = || Launch {
        extra: vec![("LEADGEN_SCHEDULER_TICK_SECS", "1".into())],
        ..Launch::default()
    };
    let _first = WorkerProcess::start(&env, every_second());
    let _second = WorkerProcess::start(&env, every_second());

    let city = env.dense_city("dentist", 5);
    let (status, saved) = env
        .app
        .post(
            "/api/leads/saved-searches",
            Some(&env.token),
            Some(json!({
                "name": "Every minute",
                "search": {"businessType": "dentist", "location": city},
                "schedule": {"cron": "* * * * *", "timeZone": "UTC"},
            })),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    let id = saved["id"].as_str().expect("id").to_owned();

    // Two minute boundaries pass; each worker ticks about 60 times a minute meanwhile.
    let created = now_unix();
    let first_due = (created / 60 + 1) * 60;
    let second_due = first_due + 60;
    let settle = 8;
    tokio::time::sleep(Duration::from_secs((second_due + settle - created) as u64)).await;

    let runs = runs(&env, &id).await;
    let minutes: Vec<i64> = runs.iter().map(|(_, at)| at.timestamp() / 60 * 60).collect();
    assert_eq!(
        minutes,
        vec![first_due, second_due],
        "one run in each minute, started in the minute it was due: {runs:?}"
    );
    // Each run is a search like any other: the workers ran it to its end.
    for (search, _) in &runs {
        let (status, item) = env
            .app
            .get(&format!("/api/leads/searches/{search}"), Some(&env.token))
            .await;
        assert_eq!(status, 200, "{item}");
        assert_ne!(item["status"], Value::from("queued"), "{item}");
    }
    let (_, after) = env
        .app
        .get(&format!("/api/leads/saved-searches/{id}"), Some(&env.token))
        .await;
    assert_eq!(after["lastSearchId"].as_str(), runs.last().map(|(s, _)| s.as_str()));
}

/// Waits up to `limit` for `check`, polling every 200 ms; whether it held.
async fn eventually<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = std::time::Instant::now();
    while start.elapsed() < limit {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    false
}

/// With KEDA's `minReplicas: 0` no worker runs, so no worker's timer queues the scheduler's
/// ticks; the API queues one when a saved search is due (and only then), and that waiting
/// job is what KEDA scales the fleet up on (its trigger lists `schedule.v1:ready`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fleet_scaled_to_zero_is_woken_when_a_monitor_is_due() {
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder(),
        0,
        vec![
            ("LEADGEN_SCHEDULER_TICK_SECS", "1".into()),
            ("LEADGEN_FREE_DAILY_LEADS", "0".into()),
        ],
    )
    .await;
    let url = leadgen_testkit::db::redis_url();
    let mut redis = redis::aio::ConnectionManager::new(redis::Client::open(url.as_str()).expect("client"))
        .await
        .expect("redis");
    let ready = format!("{}.{}:ready", env.prefix(), leadgen_core::jobs::SCHEDULE_QUEUE);
    let waiting = |redis: redis::aio::ConnectionManager| {
        let ready = ready.clone();
        async move {
            let mut redis = redis;
            let n: u64 = redis::cmd("LLEN")
                .arg(&ready)
                .query_async(&mut redis)
                .await
                .expect("llen");
            n
        }
    };

    // Nothing due: the API queues nothing, so an idle fleet stays at zero.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(waiting(redis.clone()).await, 0, "no tick without a due monitor");

    let (_, me) = env.app.get("/api/auth/me", Some(&env.token)).await;
    let user = leadgen_core::ids::UserId::from(me["id"].as_str().expect("user id").to_owned());
    let workspace = leadgen_core::ids::WorkspaceId::personal(&user);
    let city = env.dense_city("dentist", 5);
    let request = json!({"businessType": "dentist", "location": city}).to_string();
    let search = json!({"business_type": "dentist", "location": city}).to_string();
    let saved = env
        .app
        .state
        .store
        .create_saved_search(
            &workspace,
            &user,
            &leadgen_core::store::SavedSearchFields {
                name: "Due while the fleet sleeps",
                request: &request,
                search: &search,
                client: None,
                schedule: Some(("* * * * *", "UTC")),
                only_new: false,
                delivery: "{}",
                paused: false,
                next_run_at: Some(now_unix() - 5),
            },
        )
        .await
        .expect("saved");
    assert!(
        eventually(Duration::from_secs(10), || {
            let redis = redis.clone();
            async { waiting(redis).await >= 1 }
        })
        .await,
        "the API queued a tick for the due monitor"
    );

    // The worker KEDA starts runs the waiting tick: the monitor's run starts.
    let _worker = WorkerProcess::start(
        &env,
        Launch {
            extra: vec![("LEADGEN_SCHEDULER_TICK_SECS", "1".into())],
            ..Launch::default()
        },
    );
    let store = &env.app.state.store;
    assert!(
        eventually(Duration::from_secs(30), || async {
            store
                .saved_search_runs(&workspace, &saved.id, 10)
                .await
                .expect("runs")
                .len()
                == 1
        })
        .await,
        "the woken worker started the run"
    );
    let _: () = redis::cmd("PING").query_async(&mut redis).await.expect("ping");
}
