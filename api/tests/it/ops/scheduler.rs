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
