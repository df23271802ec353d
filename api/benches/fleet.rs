//! The worker fleet as users deploy it: release builds, one `leadgen-api` process and N
//! separate `leadgen-worker` processes, Postgres and Redis, the Places simulator at 300 ms
//! a page. Needs Postgres and Redis (like the tests):
//!
//!     cargo bench -p leadgen-api --bench fleet
//!
//! Prints a Markdown report (copied into docs/benchmarks.md):
//! (a) throughput against processes x concurrency: users run searches back to back for a
//!     minute; searches and leads a minute, time to `complete`, worker memory;
//! (b) takeover: 2 workers x 4 slots, 40 searches at once, one worker killed with SIGKILL;
//!     when its searches resume, how many Google requests were repeated, when all finish.
//! BENCH_QUICK=1 shortens the runs (15 s); BENCH_REPEAT=N runs each fleet N times;
//! BENCH_ONLY=takeover runs (b) alone.

#[path = "common/mod.rs"]
mod common;

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use common::{percentile, quick, rss_kib, stack, start_api, start_worker};
use futures_util::StreamExt;
use serde_json::json;

/// Google's page latency in the simulator.
const PAGE_LATENCY: Duration = Duration::from_millis(300);

/// One streamed search; the instant of each event, and the leads. `started` counts
/// searches whose first event arrived.
async fn timed_search(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    kind: &str,
    city: &str,
    started: &AtomicUsize,
) -> (Vec<Instant>, u64) {
    let resp = http
        .post(format!("{base}/api/leads/search-stream"))
        .bearer_auth(token)
        .json(&json!({"businessType": kind, "location": city}))
        .send()
        .await
        .expect("send");
    assert!(resp.status().is_success(), "{}", resp.status());
    let mut body = resp.bytes_stream();
    let (mut buffer, mut times, mut leads) = (String::new(), Vec::new(), 0);
    while let Some(chunk) = body.next().await {
        buffer.push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            if !frame.contains("data:") {
                continue;
            }
            times.push(Instant::now());
            if times.len() == 1 {
                started.fetch_add(1, Ordering::SeqCst);
            }
            if frame.contains("\"type\":\"business_found\"") {
                leads += 1;
            } else if frame.contains("\"type\":\"complete\"") {
                return (times, leads);
            } else if frame.contains("\"type\":\"error\"") {
                panic!("search failed: {frame}");
            }
        }
    }
    (times, leads)
}

const KINDS: [&str; 4] = ["restaurant", "cafe", "dentist", "bakery"];

async fn throughput(processes: usize, slots: usize, users: usize, run_for: Duration) -> String {
    let s = stack(PAGE_LATENCY, users, 0, false).await;
    let (_api, base) = start_api(&s).await;
    let mut workers = Vec::new();
    for _ in 0..processes {
        workers.push(start_worker(&s, slots).await);
    }
    let http = reqwest::Client::new();
    let cities: Vec<String> = s.sim.cities().iter().map(|c| c.name.to_string()).collect();
    let samples = Arc::new(tokio::sync::Mutex::new(Vec::new()));
    let started = Instant::now();
    let tasks: Vec<_> = s
        .tokens
        .iter()
        .enumerate()
        .map(|(i, token)| {
            let (http, base, token, cities, samples) = (
                http.clone(),
                base.clone(),
                token.clone(),
                cities.clone(),
                samples.clone(),
            );
            tokio::spawn(async move {
                let mut k = i;
                while started.elapsed() < run_for {
                    let begun = Instant::now();
                    let (_, leads) = timed_search(
                        &http,
                        &base,
                        &token,
                        KINDS[k % KINDS.len()],
                        &cities[k % cities.len()],
                        &AtomicUsize::new(0),
                    )
                    .await;
                    samples.lock().await.push((begun.elapsed().as_secs_f64(), leads));
                    k += 1;
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("user");
    }
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    let samples = samples.lock().await.clone();
    let leads: u64 = samples.iter().map(|(_, n)| n).sum();
    let mut times: Vec<f64> = samples.iter().map(|(t, _)| *t).collect();
    times.sort_by(|a, b| a.partial_cmp(b).expect("number"));
    let rss: u64 = workers.iter().filter_map(|w| w.id()).map(rss_kib).sum();
    format!(
        "| {processes} x {slots} | {users} | {:.0} | {:.0} | {:.2} s | {:.2} s | {:.1} MB |\n",
        samples.len() as f64 / minutes,
        leads as f64 / minutes,
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        rss as f64 / 1024.0 / processes as f64
    )
}

async fn takeover() -> String {
    const SEARCHES: usize = 40;
    let s = stack(PAGE_LATENCY, SEARCHES, 0, false).await;
    let (_api, base) = start_api(&s).await;
    let mut doomed = start_worker(&s, 4).await;
    let _survivor = start_worker(&s, 4).await;
    let http = reqwest::Client::new();
    let cities: Vec<String> = s.sim.cities().iter().map(|c| c.name.to_string()).collect();
    let started = Arc::new(AtomicUsize::new(0));
    let runs: Vec<_> = s
        .tokens
        .iter()
        .enumerate()
        .map(|(i, token)| {
            let (http, base, token, started) = (http.clone(), base.clone(), token.clone(), started.clone());
            let (kind, city) = (KINDS[i % KINDS.len()], cities[(i / KINDS.len()) % cities.len()].clone());
            tokio::spawn(async move { timed_search(&http, &base, &token, kind, &city, &started).await })
        })
        .collect();
    // Once both workers run searches (8 slots), mid-way through a page.
    for _ in 0..400 {
        if started.load(Ordering::SeqCst) >= 8 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    tokio::time::sleep(PAGE_LATENCY + PAGE_LATENCY / 2).await;
    let repeated_before = s.sim.stats().repeated_requests;
    doomed.start_kill().expect("SIGKILL");
    let killed = Instant::now();
    let mut resumed = Vec::new();
    let mut running_at_kill = 0;
    let mut last = killed;
    for run in runs {
        let (times, _) = run.await.expect("search");
        last = last.max(*times.last().expect("events"));
        let before = times.iter().rev().find(|t| **t < killed);
        let after = times.iter().find(|t| **t > killed);
        if let (Some(before), Some(after)) = (before, after) {
            running_at_kill += 1;
            // A search the dead worker held goes quiet until another worker resumes it;
            // one on the survivor keeps its page rhythm (0.3 s).
            if after.duration_since(*before) > PAGE_LATENCY * 3 {
                resumed.push(after.duration_since(killed).as_secs_f64());
            }
        }
    }
    let repeated = s.sim.stats().repeated_requests - repeated_before;
    resumed.sort_by(|a, b| a.partial_cmp(b).expect("number"));
    let worst = resumed.last().copied().unwrap_or_default();
    if resumed.is_empty() {
        resumed.push(0.0);
    }
    format!(
        "| (b) SIGKILL one of 2 workers (4 slots each) with {SEARCHES} searches in flight or queued | {running_at_kill} running at the kill, {} of them on the killed worker; their next event {:.1} s (p50) / {:.1} s (max) after the kill; all {SEARCHES} complete {:.1} s after it; {repeated} Google requests repeated (those in flight at the kill) |\n",
        resumed.len(),
        percentile(&resumed, 0.5),
        worst,
        last.duration_since(killed).as_secs_f64()
    )
}

fn main() {
    leadgen_core::install_crypto_provider();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let run_for = Duration::from_secs(if quick() { 15 } else { 60 });
    let repeat: usize = std::env::var("BENCH_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    rt.block_on(async {
        let mut out = format!(
            "(a) {} s a run, simulator {} ms a page\n\n| fleet (processes x concurrency) | users | searches/min | leads/min | p50 to complete | p99 to complete | RSS per worker |\n|---|---|---|---|---|---|---|\n",
            run_for.as_secs(),
            PAGE_LATENCY.as_millis()
        );
        let only_takeover = std::env::var("BENCH_ONLY").is_ok_and(|v| v == "takeover");
        let fleets: &[(usize, usize, usize)] = if only_takeover {
            &[]
        } else {
            &[(1, 4, 48), (2, 4, 48), (4, 4, 48), (4, 16, 128)]
        };
        for &(processes, slots, users) in fleets {
            for _ in 0..repeat {
                let row = throughput(processes, slots, users, run_for).await;
                eprint!("{row}");
                out.push_str(&row);
            }
        }
        out.push_str("\n| measure | result |\n|---|---|\n");
        out.push_str(&takeover().await);
        println!("\n{out}");
    });
}
