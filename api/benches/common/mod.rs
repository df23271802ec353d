//! What the benchmarks share: a stack (simulator, Postgres, Redis, signed-in users), one
//! streamed search as a client runs it, and small measuring helpers.

#![allow(dead_code)]

pub mod cpu;

use std::{
    net::SocketAddr,
    path::PathBuf,
    process::Stdio,
    sync::Arc,
    time::{Duration, Instant},
};

use futures_util::StreamExt;
use leadgen_api::{app, auth, state::AppState};
use leadgen_core::{
    bus::{EventBus, redis::RedisBus},
    config::Config,
    ids::WorkspaceId,
    usage::UsageService,
    user::ProviderIdentity,
};
use leadgen_testkit::{
    db::{TestDatabase, redis_url},
    places_sim::PlacesSim,
};
use leadgen_worker::{KeyRateGate, WorkerDeps};
use poem::{
    Server,
    listener::{Acceptor, Listener, TcpListener},
};
use serde_json::json;
use tokio::process::{Child, Command};

pub const ENCRYPTION_KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
pub const JWT_SECRET: &str = "bench-session-secret-of-at-least-32-bytes";

pub fn quick() -> bool {
    std::env::var_os("BENCH_QUICK").is_some()
}

pub struct Stack {
    pub base: String,
    pub sim: PlacesSim,
    pub state: AppState,
    pub tokens: Vec<String>,
    pub _db: TestDatabase,
    pub vars: Vec<(&'static str, String)>,
}

pub fn key_for(i: usize) -> String {
    format!("AIzaSyBench{i:028}")
}

pub async fn stack(sim_latency: Duration, users: usize, workers: usize, serve: bool) -> Stack {
    stack_with(PlacesSim::builder(), sim_latency, users, workers, serve, Vec::new()).await
}

/// [`stack`] with a simulator built from `sim` and more settings (`extra`).
pub async fn stack_with(
    sim: leadgen_testkit::places_sim::PlacesSimBuilder,
    sim_latency: Duration,
    users: usize,
    workers: usize,
    serve: bool,
    extra: Vec<(&'static str, String)>,
) -> Stack {
    let sim = sim
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
        ("LEADGEN_AGGREGATE_BASE_URL", sim.base_url.clone()),
        ("LEADGEN_FREE_DAILY_LEADS", "0".into()),
        ("LEADGEN_FREE_MONTHLY_SEARCHES", "1000000000".into()),
        ("LEADGEN_PLACES_RPS", "10000".into()),
        ("LEADGEN_WORKER_CONCURRENCY", "64".into()),
        // Hundreds of simulated users from one address, on purpose.
        ("LEADGEN_RATE_LIMIT_PER_USER", "0".into()),
        ("LEADGEN_RATE_LIMIT_PER_IP", "0".into()),
        ("LEADGEN_WEB_DIR", "/nonexistent".into()),
        (
            "RUST_LOG",
            std::env::var("BENCH_RUST_LOG").unwrap_or_else(|_| "warn".into()),
        ),
    ]
    .into_iter()
    .chain(extra)
    .collect();
    let config =
        Config::from_lookup(|n| vars.iter().rev().find(|(k, _)| *k == n).map(|(_, v)| v.clone())).expect("config");
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
                email_verified: true,
            })
            .await
            .expect("user");
        state
            .keys
            .save(&WorkspaceId::personal(&user.id), &key_for(i))
            .await
            .expect("key");
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
            aggregate: state.aggregate.clone(),
            fetch_missing: state.config.places.completeness_fetch_missing,
            plan_memory_days: state.config.places.plan_memory_days,
            bus: EventBus::Redis(Box::new(RedisBus::connect(&url, &prefix).await.expect("bus"))),
            usage: UsageService::new(state.store.clone(), state.config.usage_limits),
            gate: KeyRateGate::fleet(state.config.places.rps, conn, &prefix),
            prices: state.config.places.prices,
            vault: state.vault.clone(),
            outbound: leadgen_worker::wiring::webhook_client(&state.config),
            webhooks: state.queues.webhook.clone(),
            webhook_schedule: state.config.webhooks,
            crawler: leadgen_worker::wiring::crawler(&state.config),
            enrich_queue: leadgen_worker::jobs::registry::redis(&url, &prefix)
                .await
                .expect("queue")
                .enrich,
            deliveries: state.queues.delivery.clone(),
            sheets: state.sheets.clone(),
            mailer: state
                .config
                .mail
                .as_ref()
                .map(|m| leadgen_core::delivery::Mailer::new(m).expect("mailer")),
            prune: leadgen_worker::jobs::prune::PruneSchedule::new(state.queues.prune.clone()),
            searches: state.queues.search.clone(),
            schedule: leadgen_worker::jobs::schedule::ScheduleTimer::new(state.queues.schedule.clone()),
        });
        let sources = leadgen_worker::jobs::registry::redis_sources(&url, &prefix)
            .await
            .expect("queue");
        tokio::spawn(async move {
            let settings = leadgen_worker::WorkerSettings {
                name: format!("bench-{w}"),
                concurrency: 64,
                drain: std::time::Duration::from_secs(25),
            };
            let _ = leadgen_worker::run(&settings, deps, sources, std::future::pending()).await;
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
pub async fn one_search(http: &reqwest::Client, base: &str, token: &str, city: &str) -> (Option<Duration>, u64) {
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

pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_owned))
        .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        .unwrap_or(0)
}

/// `leadgen-api serve` (this package's release binary) on a free port, with the stack's
/// settings; answers the child and its base URL once it is healthy.
pub async fn start_api(s: &Stack) -> (tokio::process::Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("port")
        .local_addr()
        .expect("addr")
        .port();
    // BENCH_API_WRAPPER runs the API under a tool (e.g. `heaptrack` to see where a
    // stream's memory goes).
    let mut cmd = match std::env::var("BENCH_API_WRAPPER") {
        Ok(wrapper) => {
            let mut cmd = tokio::process::Command::new(wrapper);
            cmd.arg(env!("CARGO_BIN_EXE_leadgen-api"));
            cmd
        }
        Err(_) => tokio::process::Command::new(env!("CARGO_BIN_EXE_leadgen-api")),
    };
    cmd.arg("serve")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default());
    for (k, v) in &s.vars {
        cmd.env(k, v);
    }
    // The API's Postgres pool, to compare sizes (default: the API's own, 16).
    if let Ok(connections) = std::env::var("LEADGEN_DATABASE_CONNECTIONS") {
        cmd.env("LEADGEN_DATABASE_CONNECTIONS", connections);
    }
    cmd.env("LEADGEN_LISTEN", format!("127.0.0.1:{port}"))
        .env("LEADGEN_OIDC_CLIENT_ID", "bench")
        .env("LEADGEN_METRICS_LISTEN", "off")
        .kill_on_drop(true)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // BENCH_API_LOG=<file> keeps the API's log (with RUST_LOG set, every statement and its
    // time), to see where a slow request waited.
    if let Ok(path) = std::env::var("BENCH_API_LOG") {
        let log = std::fs::File::create(path).expect("API log file");
        cmd.stdout(log.try_clone().expect("log")).stderr(log);
        if let Ok(filter) = std::env::var("RUST_LOG") {
            cmd.env("RUST_LOG", filter);
        }
    }
    let child = cmd.spawn().expect("leadgen-api");
    let base = format!("http://127.0.0.1:{port}");
    for _ in 0..200 {
        if reqwest::get(format!("{base}/api/health")).await.is_ok() {
            return (child, base);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("leadgen-api did not start");
}

/// `target/release/leadgen-worker` beside this benchmark, built (or brought up to date)
/// once per run: a stale binary would measure old worker code.
pub fn worker_binary() -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let exe = std::env::current_exe().expect("bench path");
    let dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>");
    let binary = dir.join("leadgen-worker");
    BUILT.call_once(|| {
        let status = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "--release", "-q", "-p", "leadgen-worker"])
            .status()
            .expect("cargo build");
        assert!(status.success(), "building leadgen-worker failed");
    });
    binary
}

/// A `leadgen-worker` process running `slots` searches at once, up once it says so.
pub async fn start_worker(s: &Stack, slots: usize) -> Child {
    let mut cmd = Command::new(worker_binary());
    cmd.env_clear().env("PATH", std::env::var("PATH").unwrap_or_default());
    for (k, v) in &s.vars {
        cmd.env(k, v);
    }
    cmd.env("LEADGEN_WORKER_CONCURRENCY", slots.to_string())
        .env("LEADGEN_WORKER_METRICS_LISTEN", "off")
        .kill_on_drop(true)
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().expect("leadgen-worker");
    let mut lines = tokio::io::AsyncBufReadExt::lines(tokio::io::BufReader::new(child.stdout.take().expect("stdout")));
    while let Ok(Some(line)) = lines.next_line().await {
        if line.contains("is taking jobs") {
            // BENCH_WORKER_LOG=path keeps the workers' logs (RUST_LOG as in the stack).
            let mut log = std::env::var_os("BENCH_WORKER_LOG")
                .and_then(|path| std::fs::OpenOptions::new().create(true).append(true).open(path).ok());
            tokio::spawn(async move {
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some(log) = log.as_mut() {
                        let _ = std::io::Write::write_all(log, format!("{line}\n").as_bytes());
                    }
                }
            });
            return child;
        }
    }
    panic!("leadgen-worker did not start");
}
