//! Search-pipeline benchmarks. Needs Postgres and Redis (like the tests):
//!
//!     cargo bench -p leadgen-api --bench pipeline
//!
//! Prints a Markdown report (copied into docs/benchmarks.md):
//! (a) pipeline overhead: time to the first `business_found` minus the simulator's
//!     first-page latency, p50/p99, distributed mode;
//! (b) searches and leads per second, many users at once, zero-latency simulator, through
//!     the queue versus calling the Places client in-process, and their ratio;
//! (c) concurrent SSE streams one API process holds, and its RSS at 1k, 5k, 10k;
//! (d) billable Places requests per 1,000 leads.
//! Sizes can be lowered for a quick look: BENCH_QUICK=1.

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use futures_util::StreamExt;
use leadgen_api::{app, auth, state::AppState};
use leadgen_core::{
    bus::{EventBus, redis::RedisBus},
    config::Config,
    places::{PlacesClient, SearchTextRequest},
    usage::UsageService,
    user::ProviderIdentity,
};
use leadgen_testkit::{
    db::{TestDatabase, redis_url},
    places_sim::{PlacesSim, Sku},
};
use leadgen_worker::{KeyRateGate, WorkerDeps, queue};
use poem::{
    Server,
    listener::{Acceptor, Listener, TcpListener},
};
use serde_json::json;

const ENCRYPTION_KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
const JWT_SECRET: &str = "bench-session-secret-of-at-least-32-bytes";

fn quick() -> bool {
    std::env::var_os("BENCH_QUICK").is_some()
}

struct Stack {
    base: String,
    sim: PlacesSim,
    state: AppState,
    tokens: Vec<String>,
    _db: TestDatabase,
    vars: Vec<(&'static str, String)>,
}

fn key_for(i: usize) -> String {
    format!("AIzaSyBench{i:028}")
}

async fn stack(sim_latency: Duration, users: usize, workers: usize, serve: bool) -> Stack {
    let sim = PlacesSim::builder()
        .latency(sim_latency)
        .rpm_quota(0)
        .start(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("sim");
    let db = TestDatabase::postgres().await;
    let prefix = format!("leadgen-bench-{}", uuid::Uuid::new_v4().simple());
    let vars: Vec<(&'static str, String)> = vec![
        ("DATABASE_URL", db.url.clone()),
        ("REDIS_URL", redis_url()),
        ("LEADGEN_REDIS_PREFIX", prefix.clone()),
        ("LEADGEN_ENCRYPTION_KEY", ENCRYPTION_KEY.into()),
        ("LEADGEN_JWT_SECRET", JWT_SECRET.into()),
        ("LEADGEN_PLACES_BASE_URL", sim.base_url.clone()),
        ("LEADGEN_FREE_DAILY_LEADS", "0".into()),
        ("LEADGEN_FREE_MONTHLY_SEARCHES", "1000000000".into()),
        ("LEADGEN_PLACES_RPS", "10000".into()),
        ("LEADGEN_WORKER_CONCURRENCY", "64".into()),
        ("LEADGEN_WEB_DIR", "/nonexistent".into()),
        ("RUST_LOG", "warn".into()),
    ];
    let config = Config::from_lookup(|n| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| v.clone())).expect("config");
    let state = AppState::build(config).await.expect("state");
    let mut tokens = Vec::new();
    for i in 0..users {
        let user = state
            .store
            .upsert_user_on_sign_in(&ProviderIdentity {
                issuer: "https://bench.example".into(),
                subject: format!("user{i}"),
                email: format!("user{i}@bench.example"),
                name: None,
                picture: None,
            })
            .await
            .expect("user");
        state.keys.save(&user.id, &key_for(i)).await.expect("key");
        tokens.push(auth::start_session(&state, &user.id).await.expect("session"));
    }
    for w in 0..workers {
        let url = redis_url();
        let conn = redis::aio::ConnectionManager::new(redis::Client::open(url.as_str()).expect("client"))
            .await
            .expect("redis");
        let deps = Arc::new(WorkerDeps {
            store: state.store.clone(),
            keys: state.keys.clone(),
            places: state.places.clone(),
            bus: EventBus::Redis(Box::new(RedisBus::connect(&url, &prefix).await.expect("bus"))),
            usage: UsageService::new(state.store.clone(), state.config.usage_limits),
            gate: KeyRateGate::fleet(state.config.places_rps, conn, &prefix),
        });
        let source = queue::redis_source(&url, &prefix).await.expect("queue");
        tokio::spawn(async move {
            let settings = leadgen_worker::WorkerSettings {
                name: format!("bench-{w}"),
                concurrency: 64,
                drain: std::time::Duration::from_secs(25),
            };
            let _ = leadgen_worker::run(&settings, deps, source, std::future::pending()).await;
        });
    }
    let mut base = String::new();
    if serve {
        let acceptor = TcpListener::bind("127.0.0.1:0").into_acceptor().await.expect("bind");
        let addr = acceptor.local_addr()[0].as_socket_addr().copied().expect("addr");
        base = format!("http://{addr}");
        let app = app::build(state.clone());
        tokio::spawn(async move {
            let _ = Server::new_with_acceptor(acceptor).run(app).await;
        });
    }
    Stack {
        base,
        sim,
        state,
        tokens,
        _db: db,
        vars,
    }
}

/// Runs one streamed search; returns (time to first business_found, leads).
async fn one_search(http: &reqwest::Client, base: &str, token: &str, city: &str) -> (Option<Duration>, u64) {
    let start = Instant::now();
    let resp = http
        .post(format!("{base}/api/leads/search-stream"))
        .bearer_auth(token)
        .json(&json!({"businessType": "restaurant", "location": city}))
        .send()
        .await
        .expect("send");
    assert!(resp.status().is_success(), "{}", resp.status());
    let mut body = resp.bytes_stream();
    let mut buffer = String::new();
    let mut first = None;
    let mut leads = 0;
    while let Some(chunk) = body.next().await {
        buffer.push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            if frame.contains("\"type\":\"business_found\"") {
                first.get_or_insert_with(|| start.elapsed());
                leads += 1;
            } else if frame.contains("\"type\":\"complete\"") || frame.contains("\"type\":\"error\"") {
                return (first, leads);
            }
        }
    }
    (first, leads)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

async fn overhead(users: usize) -> String {
    let latency = Duration::from_millis(50);
    let s = stack(latency, users, 2, true).await;
    let http = reqwest::Client::new();
    let city = "Austin";
    for t in &s.tokens {
        one_search(&http, &s.base, t, city).await; // warm-up: connections, caches
    }
    let n = if quick() { 40 } else { 200 };
    let samples = Arc::new(tokio::sync::Mutex::new(Vec::new()));
    let per_user = n / s.tokens.len();
    let tasks: Vec<_> = s
        .tokens
        .iter()
        .map(|t| {
            let (http, base, t, samples) = (http.clone(), s.base.clone(), t.clone(), samples.clone());
            tokio::spawn(async move {
                for _ in 0..per_user {
                    let (first, _) = one_search(&http, &base, &t, city).await;
                    let first = first.expect("a lead");
                    samples
                        .lock()
                        .await
                        .push((first.as_secs_f64() - latency.as_secs_f64()) * 1000.0);
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("task");
    }
    let mut v = samples.lock().await.clone();
    v.sort_by(|a, b| a.partial_cmp(b).expect("number"));
    format!(
        "| (a) pipeline overhead to first lead (simulator first page = 50 ms; {} searches, {users} user(s) at once) | p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms |\n",
        v.len(),
        percentile(&v, 0.5),
        percentile(&v, 0.99),
        v.last().copied().unwrap_or_default()
    )
}

async fn throughput() -> (String, String) {
    let users = if quick() { 16 } else { 32 };
    let seconds = if quick() { 5 } else { 15 };
    let s = stack(Duration::ZERO, users, 2, true).await;
    let http = reqwest::Client::new();
    let cities: Vec<String> = s.sim.cities().iter().map(|c| c.name.to_string()).collect();
    let run_for = Duration::from_secs(seconds);

    // Through the queue: users stream searches back to back.
    s.sim.reset();
    let (searches, leads) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let started = Instant::now();
    let tasks: Vec<_> = s
        .tokens
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let (http, base, t, cities) = (http.clone(), s.base.clone(), t.clone(), cities.clone());
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
    let queued_sps = searches.load(Ordering::Relaxed) as f64 / elapsed;
    let queued_lps = leads.load(Ordering::Relaxed) as f64 / elapsed;
    let stats = s.sim.stats();
    let total_leads = leads.load(Ordering::Relaxed) as f64;
    let billable = stats.billable_requests as f64;
    let enterprise = stats.billable(Sku::TextSearchEnterprise) as f64;

    // Direct: the same searches as Places client calls in this process, no queue or bus.
    let client = PlacesClient::new(&url::Url::parse(&s.sim.base_url).expect("url")).expect("client");
    let (d_searches, d_leads) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
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
    let direct_sps = d_searches.load(Ordering::Relaxed) as f64 / elapsed;
    let direct_lps = d_leads.load(Ordering::Relaxed) as f64 / elapsed;
    let table = format!(
        "| (b) queued: API + Redis queue + 2 workers + pub/sub + SSE ({users} users, {seconds} s, zero-latency simulator) | {queued_sps:.1} searches/s, {queued_lps:.0} leads/s |\n\
         | (b) direct: Places client in-process, same searches | {direct_sps:.1} searches/s, {direct_lps:.0} leads/s |\n\
         | (b) queued / direct | {:.2} |\n",
        queued_sps / direct_sps
    );
    let billing = format!(
        "| (d) billable Places requests per 1,000 leads | {:.1} (all Text Search Enterprise: {:.1}) |\n",
        billable / total_leads * 1000.0,
        enterprise / total_leads * 1000.0
    );
    (table, billing)
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

async fn streams() -> String {
    let targets: Vec<usize> = if quick() {
        vec![200, 1000]
    } else {
        vec![1000, 5000, 10000]
    };
    let max = *targets.last().expect("targets");
    // No workers: every search stays queued and its stream open, with keep-alives.
    let s = stack(Duration::ZERO, 50, 0, false).await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("port")
        .local_addr()
        .expect("addr")
        .port();
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_leadgen-api"));
    cmd.arg("serve")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default());
    for (k, v) in &s.vars {
        cmd.env(k, v);
    }
    cmd.env("LEADGEN_LISTEN", format!("127.0.0.1:{port}"))
        .env("LEADGEN_OIDC_CLIENT_ID", "bench");
    cmd.kill_on_drop(true)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let child = cmd.spawn().expect("leadgen-api");
    let pid = child.id().expect("pid");
    let base = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("client");
    for _ in 0..100 {
        if http.get(format!("{base}/api/health")).send().await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
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
        out.push_str(&overhead(1).await);
        out.push_str(&overhead(4).await);
        let (table, billing) = throughput().await;
        out.push_str(&table);
        out.push_str(&streams().await);
        out.push_str(&billing);
        println!("\n{out}");
    });
}
