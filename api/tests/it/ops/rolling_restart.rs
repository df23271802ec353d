//! A rolling restart of the worker fleet, with real processes: while 20 searches run,
//! each `leadgen-worker` process gets SIGTERM in turn and a fresh one takes its place.
//! Every search completes, and every lead reaches its client exactly once.

use std::time::Duration;

use futures_util::future::join_all;
use serde_json::json;

use super::worker_process::{Launch, WorkerProcess, assert_every_lead_once, slow_distributed_env};
use crate::search::env::{SearchEnv, parse_sse};

const SEARCHES: usize = 20;
const WORKERS: usize = 3;

fn start_worker(env: &SearchEnv) -> WorkerProcess {
    WorkerProcess::start(env, Launch::default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn restarting_workers_one_by_one_loses_no_search_and_repeats_no_lead() {
    let env = slow_distributed_env().await;
    let mut workers: Vec<WorkerProcess> = (0..WORKERS).map(|_| start_worker(&env)).collect();

    // Twenty searches over a few cities and types, each with a known answer.
    let cities: Vec<String> = env.sim.cities().iter().map(|c| c.name.to_string()).collect();
    let searches: Vec<(String, String)> = (0..SEARCHES)
        .map(|i| {
            let kind = ["restaurant", "cafe", "dentist", "bakery"][i % 4];
            (kind.to_owned(), cities[i % cities.len()].clone())
        })
        .collect();
    let runs = join_all(searches.iter().map(|(kind, city)| {
        let request = env
            .app
            .client
            .post("/api/leads/search-stream")
            .header("authorization", format!("Bearer {}", env.token))
            .body_json(&json!({"businessType": kind, "location": city}));
        async move {
            let resp = request.send().await;
            assert_eq!(resp.0.status(), 200);
            tokio::time::timeout(Duration::from_secs(90), resp.0.into_body().into_string())
                .await
                .expect("the search ends")
                .expect("body")
        }
    }));
    let restarts = async {
        // Begin once the searches are running, so the first stop lands mid-search.
        for _ in 0..150 {
            let mut running = 0.0;
            for worker in workers.iter() {
                running += worker.jobs_running().await;
            }
            if running > 0.0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut in_flight_at_stop = Vec::new();
        for slot in workers.iter_mut() {
            tokio::time::sleep(Duration::from_millis(300)).await;
            let old = std::mem::replace(slot, start_worker(&env));
            in_flight_at_stop.push(old.jobs_running().await);
            old.stop_gracefully().await;
        }
        in_flight_at_stop
    };
    let (bodies, in_flight_at_stop) = tokio::join!(runs, restarts);
    assert!(
        in_flight_at_stop.iter().any(|n| *n > 0.0),
        "some worker was stopped in the middle of searches: {in_flight_at_stop:?}"
    );

    for ((kind, city), body) in searches.iter().zip(&bodies) {
        assert_every_lead_once(&env, kind, city, &parse_sse(body));
    }
    for worker in workers {
        worker.stop_gracefully().await;
    }
}
