//! Search-pipeline benchmarks, on the shape users deploy: release builds, one
//! `leadgen-api serve` process and separate `leadgen-worker` processes. Needs Postgres and
//! Redis (like the tests):
//!
//!     cargo bench -p leadgen-api --bench pipeline
//!
//! Prints a Markdown report (copied into docs/benchmarks.md):
//! (a) upstream first page to first lead: time to the first `business_found` minus the
//!     simulator's first-page latency, p50/p99/max, one user searching back to back and
//!     four at once, one worker process;
//! (b) searches and leads per second, many users at once, zero-latency simulator, through
//!     the queue (two worker processes) versus calling the Places client in-process, their
//!     ratio, and the CPU milliseconds a search takes in each process (the API, the
//!     workers, Postgres' backends, Redis, and this process: clients and simulator);
//! (c) concurrent SSE streams one API process holds, and its RSS at 1k, 5k, 10k;
//! (d) billable Places requests per 1,000 leads.
//! Sizes can be lowered for a quick look: BENCH_QUICK=1. BENCH_ONLY=latency|throughput|
//! streams runs one part.

#[path = "common/mod.rs"]
mod common;

use std::{
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use common::{cpu, key_for, one_search, percentile, quick, rss_kib, stack, stack_with, start_api, start_worker};
use leadgen_core::places::{PlacesClient, SearchTextRequest};
use leadgen_testkit::db::redis_url;
use leadgen_testkit::places_sim::{PlacesSim, Sku};
use serde_json::json;

/// The simulator's latency for every page (the first page's is what (a) subtracts).
const PAGE_LATENCY: Duration = Duration::from_millis(100);

/// Search slots of each worker process.
const SLOTS: usize = 64;

fn only(part: &str) -> bool {
    std::env::var("BENCH_ONLY").map_or(true, |o| o == part)
}

async fn overhead(users: usize) -> String {
    // The worker as deployed by default: 4 slots, each key paced at 10 requests a second
    // (BENCH_PLACES_RPS changes the pace, to tell the key's pacing from our overhead).
    let rps = std::env::var("BENCH_PLACES_RPS").unwrap_or_else(|_| "10".to_owned());
    let extra = vec![("LEADGEN_PLACES_RPS", rps)];
    let s = stack_with(PlacesSim::builder(), PAGE_LATENCY, users, 0, false, extra).await;
    let (_api, base) = start_api(&s).await;
    let _worker = start_worker(
        &s,
        std::env::var("BENCH_SLOTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(4),
    )
    .await;
    let http = reqwest::Client::new();
    let city = "Austin";
    for t in &s.tokens {
        let (first, _) = one_search(&http, &base, t, city).await; // warm-up: connections, caches
        if std::env::var_os("BENCH_TRACE").is_some() {
            eprintln!("warm-up: {:?}", first);
        }
    }
    // The first searches run side by side after the start are measured apart: the
    // sequential warm-up above leaves some of the processes' resources single (one
    // connection of each kind in use so far), and that round's first leads are a start-up
    // cost, not what a running fleet shows.
    let cold_round = if users > 1 {
        let round: Vec<_> = s
            .tokens
            .iter()
            .map(|t| {
                let (http, base, t) = (http.clone(), base.clone(), t.clone());
                tokio::spawn(async move { one_search(&http, &base, &t, city).await.0 })
            })
            .collect();
        let mut worst: f64 = 0.0;
        for task in round {
            let first = task.await.expect("task").expect("a lead");
            worst = worst.max((first.as_secs_f64() - PAGE_LATENCY.as_secs_f64()) * 1000.0);
        }
        format!("; the first round side by side after the start: worst {worst:.1} ms")
    } else {
        String::new()
    };
    let n = if quick() { 40 } else { 200 };
    let samples = Arc::new(tokio::sync::Mutex::new(Vec::new()));
    let per_user = n / s.tokens.len();
    let began = Instant::now();
    let tasks: Vec<_> = s
        .tokens
        .iter()
        .map(|t| {
            let (http, base, t, samples) = (http.clone(), base.clone(), t.clone(), samples.clone());
            tokio::spawn(async move {
                for _ in 0..per_user {
                    let (first, _) = one_search(&http, &base, &t, city).await;
                    let first = first.expect("a lead");
                    let ms = (first.as_secs_f64() - PAGE_LATENCY.as_secs_f64()) * 1000.0;
                    if std::env::var_os("BENCH_TRACE").is_some() {
                        let now = std::time::SystemTime::now()
                            .duration_since(std::time::UNIX_EPOCH)
                            .unwrap_or_default();
                        eprintln!(
                            "{:.3} s (unix {:.3}): {ms:.1} ms",
                            began.elapsed().as_secs_f64(),
                            now.as_secs_f64()
                        );
                    }
                    samples.lock().await.push(ms);
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("task");
    }
    let mut v = samples.lock().await.clone();
    v.sort_by(|a, b| a.partial_cmp(b).expect("number"));
    let over_a_second = v.iter().filter(|&&ms| ms > 1000.0).count();
    format!(
        "| (a) upstream first page to first lead ({} searches, {users} user(s) at once, each stream read to its end; 1 worker process) | p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms ({over_a_second} over 1 s){cold_round} |\n",
        v.len(),
        percentile(&v, 0.5),
        percentile(&v, 0.99),
        v.last().copied().unwrap_or_default()
    )
}

/// The components that stand for what is not ours in production: Google (the simulator)
/// and the users' browsers (the clients), both in this process.
const STAND_INS: &str = "clients and simulator";

/// "11.4 ms: 88 quick searches a second a core; 0.5 of direct needs at most 4.3 ms".
///
/// When both phases keep the same cores busy, queued / direct is the inverse ratio of the
/// CPU a search takes in all: Sd / (Sq + O), with Sd and Sq the stand-ins' CPU a direct
/// and a queued search and O our side's. So 0.5 needs O <= 2 Sd - Sq: the ratio follows
/// the stand-ins' cost as much as ours (a dearer simulator raises it). O, and what one
/// core of it carries, is the figure to size a deployment with (docs/benchmarks.md).
fn our_side_line(queued: &[(&str, f64)], direct: &[(&str, f64)]) -> String {
    let stand_ins = |phase: &[(&str, f64)]| -> f64 {
        phase
            .iter()
            .filter(|(name, _)| *name == STAND_INS)
            .map(|(_, ms)| ms)
            .sum()
    };
    let ours: f64 = queued
        .iter()
        .filter(|(name, _)| *name != STAND_INS)
        .map(|(_, ms)| ms)
        .sum();
    let half_needs = 2.0 * stand_ins(direct) - stand_ins(queued);
    format!(
        "{ours:.1} ms: {:.0} quick searches a second a core; 0.5 of direct needs at most {half_needs:.1} ms",
        1000.0 / ours.max(0.001)
    )
}

/// "API 2.1 ms, workers 3.4 ms, ... (total 19.0 ms)": CPU milliseconds a search.
fn cpu_line(by_component: &[(&str, f64)]) -> String {
    let total: f64 = by_component.iter().map(|(_, ms)| ms).sum();
    let parts: Vec<String> = by_component
        .iter()
        .map(|(name, ms)| format!("{name} {ms:.1} ms"))
        .collect();
    format!("{} (total {total:.1} ms)", parts.join(", "))
}

async fn throughput() -> (String, String) {
    let users = if quick() { 16 } else { 32 };
    let seconds = if quick() { 5 } else { 15 };
    let s = stack(Duration::ZERO, users, 0, false).await;
    let (api, base) = start_api(&s).await;
    let workers = (start_worker(&s, SLOTS).await, start_worker(&s, SLOTS).await);
    let http = reqwest::Client::new();
    let cities: Vec<String> = s.sim.cities().iter().map(|c| c.name.to_string()).collect();
    let run_for = Duration::from_secs(seconds);
    // Where the CPU goes: this process is the load generator and the simulator (Google).
    let mut cpu = cpu::Components {
        named: vec![
            ("API", api.id().into_iter().collect()),
            (
                "workers",
                [workers.0.id(), workers.1.id()].into_iter().flatten().collect(),
            ),
            ("Postgres", cpu::postgres_processes(&s._db.url).await),
            ("Redis", cpu::redis_pid(&redis_url()).await.into_iter().collect()),
            (STAND_INS, vec![std::process::id()]),
        ],
    };

    // Through the queue: users stream searches back to back.
    s.sim.reset();
    let (searches, leads) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let before = cpu.snapshot();
    let started = Instant::now();
    let tasks: Vec<_> = s
        .tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (http, base, t, cities) = (http.clone(), base.clone(), t.clone(), cities.clone());
            let (searches, leads) = (searches.clone(), leads.clone());
            tokio::spawn(async move {
                let mut k = i;
                while started.elapsed() < run_for {
                    let (_, n) = one_search(&http, &base, &t, &cities[k % cities.len()]).await;
                    searches.fetch_add(1, Ordering::Relaxed);
                    leads.fetch_add(n, Ordering::Relaxed);
                    k += 1;
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("task");
    }
    let elapsed = started.elapsed().as_secs_f64();
    cpu.add("Postgres", cpu::postgres_processes(&s._db.url).await);
    let queued_cpu = cpu.ms_per(&before, &cpu.snapshot(), searches.load(Ordering::Relaxed) as f64);
    let queued_sps = searches.load(Ordering::Relaxed) as f64 / elapsed;
    let queued_lps = leads.load(Ordering::Relaxed) as f64 / elapsed;
    let stats = s.sim.stats();
    let total_leads = leads.load(Ordering::Relaxed) as f64;
    let billable = stats.billable_requests as f64;
    let enterprise = stats.billable(Sku::TextSearchEnterprise) as f64;

    // Direct: the same searches as Places client calls in this process, no queue or bus.
    let client = PlacesClient::new(&url::Url::parse(&s.sim.base_url).expect("url")).expect("client");
    let (d_searches, d_leads) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let before = cpu.snapshot();
    let started = Instant::now();
    let tasks: Vec<_> = (0..users)
        .map(|i| {
            let (client, cities) = (client.clone(), cities.clone());
            let (d_searches, d_leads) = (d_searches.clone(), d_leads.clone());
            tokio::spawn(async move {
                let key = key_for(i);
                let mut k = i;
                while started.elapsed() < run_for {
                    let mut request = SearchTextRequest {
                        text_query: format!("Restaurant in {}", cities[k % cities.len()]),
                        included_type: Some("restaurant".into()),
                        page_size: 20,
                        page_token: None,
                        location_restriction: None,
                        min_rating: None,
                    };
                    for _ in 0..3 {
                        let page = client.search_text(&key, &request).await.expect("page");
                        d_leads.fetch_add(page.places.len() as u64, Ordering::Relaxed);
                        match page.next_page_token {
                            Some(t) => request.page_token = Some(t),
                            None => break,
                        }
                    }
                    d_searches.fetch_add(1, Ordering::Relaxed);
                    k += 1;
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("task");
    }
    let elapsed = started.elapsed().as_secs_f64();
    let direct_cpu = cpu.ms_per(&before, &cpu.snapshot(), d_searches.load(Ordering::Relaxed) as f64);
    let direct_sps = d_searches.load(Ordering::Relaxed) as f64 / elapsed;
    let direct_lps = d_leads.load(Ordering::Relaxed) as f64 / elapsed;
    let table = format!(
        "| (b) queued: API process + Redis queue + 2 worker processes + pub/sub + SSE ({users} users, {seconds} s, zero-latency simulator) | {queued_sps:.1} searches/s, {queued_lps:.0} leads/s |\n\
         | (b) direct: Places client in-process, same searches | {direct_sps:.1} searches/s, {direct_lps:.0} leads/s |\n\
         | (b) queued / direct | {:.2} |\n\
         | (b) CPU a queued search, by component | {} |\n\
         | (b) CPU a direct search, by component | {} |\n\
         | (b) our side's CPU a queued search (all but the clients and simulator) | {} |\n",
        queued_sps / direct_sps,
        cpu_line(&queued_cpu),
        cpu_line(&direct_cpu),
        our_side_line(&queued_cpu, &direct_cpu),
    );
    let billing = format!(
        "| (d) billable Places requests per 1,000 leads | {:.1} (all Text Search Enterprise: {:.1}) |\n",
        billable / total_leads * 1000.0,
        enterprise / total_leads * 1000.0
    );
    (table, billing)
}

async fn streams() -> String {
    let targets: Vec<usize> = if quick() {
        vec![200, 1000]
    } else {
        vec![1000, 5000, 10000]
    };
    let max = *targets.last().expect("targets");
    // No workers: every search stays queued and its stream open, with keep-alives.
    let mut s = stack(Duration::ZERO, 50, 0, false).await;
    // 50 users hold every stream: lift the per-user cap (20 a process by default) so the
    // measure is the server's memory, not its refusals.
    let per_user = max.div_ceil(s.tokens.len()) + 1;
    s.vars.push(("LEADGEN_MAX_STREAMS_PER_USER", per_user.to_string()));
    let (child, base) = start_api(&s).await;
    let pid = child.id().expect("pid");
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("client");
    let idle = rss_kib(pid);
    let mut open = Vec::with_capacity(max);
    let mut report = format!("| (c) API process RSS, idle | {:.1} MB |\n", idle as f64 / 1024.0);
    let started = Instant::now();
    let mut opened = 0;
    for target in targets {
        while opened < target {
            let batch = (target - opened).min(200);
            let futures = (0..batch).map(|j| {
                let http = http.clone();
                let base = base.clone();
                let token = s.tokens[(opened + j) % s.tokens.len()].clone();
                async move {
                    http.post(format!("{base}/api/leads/search-stream"))
                        .bearer_auth(token)
                        .json(&json!({"businessType": "cafe", "location": "Austin"}))
                        .send()
                        .await
                }
            });
            for resp in futures_util::future::join_all(futures).await {
                let resp = resp.expect("stream opened");
                assert!(resp.status().is_success(), "{}", resp.status());
                open.push(resp);
            }
            opened += batch;
        }
        tokio::time::sleep(Duration::from_secs(2)).await;
        let rss = rss_kib(pid);
        report.push_str(&format!(
            "| (c) API process RSS with {target} open streams | {:.1} MB ({:.1} KB per stream over idle) |\n",
            rss as f64 / 1024.0,
            (rss.saturating_sub(idle)) as f64 / target as f64
        ));
    }
    report.push_str(&format!(
        "| (c) time to open {max} streams (200 at a time) | {:.1} s |\n",
        started.elapsed().as_secs_f64()
    ));
    drop(open);
    drop(child);
    let _ = &s.state;
    report
}

fn main() {
    leadgen_core::install_crypto_provider();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut out = String::from("| measure | result |\n|---|---|\n");
        if only("latency") {
            out.push_str(&overhead(1).await);
            out.push_str(&overhead(4).await);
        }
        let mut billing = String::new();
        if only("throughput") {
            let (table, bill) = throughput().await;
            out.push_str(&table);
            billing = bill;
        }
        if only("streams") {
            out.push_str(&streams().await);
        }
        out.push_str(&billing);
        println!("\n{out}");
    });
}
