//! A rolling restart of the worker fleet, with real processes: while 20 searches run,
//! each `leadgen-worker` process gets SIGTERM in turn and a fresh one takes its place.
//! Every search completes, and every lead reaches its client exactly once.

use std::{
    collections::HashSet,
    path::PathBuf,
    process::{Child, Command, Stdio},
    time::Duration,
};

use futures_util::future::join_all;
use leadgen_testkit::places_sim::{MAX_RESULTS, PlacesSim};
use serde_json::json;

use crate::{
    search::env::{Mode, SearchEnv, parse_sse},
    support::{TEST_ENCRYPTION_KEY, TEST_JWT_SECRET},
};

const SEARCHES: usize = 20;
const WORKERS: usize = 3;

/// `target/<profile>/leadgen-worker`, next to this test's own `deps/` directory.
/// `./leadgen test` builds it just before the tests; a plain `cargo test` that finds none
/// builds it here (a nested cargo resolves features for this one package, so it may
/// rebuild dependencies: slow, but only the first time).
fn worker_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>");
    let binary = profile_dir.join("leadgen-worker");
    if !binary.exists() {
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "-q", "-p", "leadgen-worker", "--bin", "leadgen-worker"])
            .status()
            .expect("cargo build");
        assert!(status.success(), "building leadgen-worker failed");
    }
    binary
}

/// Starts a worker process and waits until it says it is taking jobs.
fn start_worker(env: &SearchEnv) -> Worker {
    let mut child = Command::new(worker_binary())
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", &env.app._db.url)
        .env("REDIS_URL", leadgen_testkit::db::redis_url())
        .env("LEADGEN_REDIS_PREFIX", env.prefix())
        .env("LEADGEN_ENCRYPTION_KEY", TEST_ENCRYPTION_KEY)
        .env("LEADGEN_JWT_SECRET", TEST_JWT_SECRET)
        .env("LEADGEN_PLACES_BASE_URL", &env.sim.base_url)
        .env("LEADGEN_PLACES_RPS", "1000")
        .env("LEADGEN_FREE_DAILY_LEADS", "0")
        .env("LEADGEN_WORKER_METRICS_LISTEN", "127.0.0.1:0")
        .env(
            "RUST_LOG",
            std::env::var("WORKER_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .stdout(Stdio::piped())
        .spawn()
        .expect("start leadgen-worker");
    let stdout = child.stdout.take().expect("stdout");
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let mut metrics = String::new();
        let echo = std::env::var_os("WORKER_LOG").is_some();
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if echo {
                eprintln!("[worker] {line}");
            }
            if let Some(url) = line.strip_prefix("leadgen-worker metrics on ") {
                metrics = url.trim().to_owned();
            }
            if line.contains("is taking jobs") {
                let _ = ready_tx.send(metrics.clone());
            }
        }
    });
    let metrics_url = ready_rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the worker starts taking jobs within 60 s");
    Worker {
        child: Some(child),
        metrics_url,
    }
}

/// A worker process and where it reports its metrics; killed if the test fails early.
struct Worker {
    child: Option<Child>,
    metrics_url: String,
}

impl Drop for Worker {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Worker {
    /// `leadgen_jobs_running` as the worker reports it now.
    async fn jobs_running(&self) -> f64 {
        let text = reqwest::get(&self.metrics_url)
            .await
            .expect("metrics")
            .text()
            .await
            .expect("text");
        text.lines()
            .find_map(|l| l.strip_prefix("leadgen_jobs_running "))
            .and_then(|v| v.trim().parse().ok())
            .expect("jobs_running sample")
    }
}

/// SIGTERM, then wait (up to the grace period a pod would get) for a clean exit.
async fn stop_gracefully(mut worker: Worker) {
    let mut child = worker.child.take().expect("a running worker");
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    for _ in 0..300 {
        if let Some(exit) = child.try_wait().expect("wait") {
            assert!(exit.success(), "the worker exits cleanly on SIGTERM: {exit}");
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    panic!("the worker did not exit within 30 s of SIGTERM");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn restarting_workers_one_by_one_loses_no_search_and_repeats_no_lead() {
    let env = SearchEnv::start(
        Mode::Distributed,
        // Slow pages make each search span several restarts.
        PlacesSim::builder().latency(Duration::from_millis(1_000)),
        0,
        vec![
            ("LEADGEN_PLACES_RPS", "1000".into()),
            // Twenty searches reserve more leads than the free daily allowance.
            ("LEADGEN_FREE_DAILY_LEADS", "0".into()),
        ],
    )
    .await;
    let mut workers: Vec<Worker> = (0..WORKERS).map(|_| start_worker(&env)).collect();

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
            stop_gracefully(old).await;
        }
        in_flight_at_stop
    };
    let (bodies, in_flight_at_stop) = tokio::join!(runs, restarts);
    assert!(
        in_flight_at_stop.iter().any(|n| *n > 0.0),
        "some worker was stopped in the middle of searches: {in_flight_at_stop:?}"
    );

    for ((kind, city), body) in searches.iter().zip(&bodies) {
        let events = parse_sse(body);
        let last = &events.last().expect("events").1;
        assert_eq!(last["type"], "complete", "{kind} in {city} ended with {last}");
        let leads: Vec<String> = events
            .iter()
            .filter(|(_, e)| e["type"] == "business_found")
            .map(|(_, e)| e["lead"]["placeId"].as_str().expect("place id").to_owned())
            .collect();
        let unique: HashSet<&String> = leads.iter().collect();
        assert_eq!(unique.len(), leads.len(), "{kind} in {city}: a lead was sent twice");
        let business_type = leadgen_core::catalogue::find(kind).expect("catalogue type");
        let expected: Vec<String> = env
            .sim
            .expected_places(&business_type.text_query(city), Some(kind))
            .iter()
            .take(MAX_RESULTS)
            .map(|p| p["id"].as_str().expect("id").to_owned())
            .collect();
        assert_eq!(leads, expected, "{kind} in {city}: every lead arrives, in order");
        let found: Vec<u64> = events
            .iter()
            .filter(|(_, e)| e["type"] == "business_found")
            .map(|(_, e)| e["found"].as_u64().expect("found"))
            .collect();
        assert_eq!(
            found,
            (1..=leads.len() as u64).collect::<Vec<_>>(),
            "numbered without gaps"
        );
    }
    for worker in workers {
        stop_gracefully(worker).await;
    }
}
