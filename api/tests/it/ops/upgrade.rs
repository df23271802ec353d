//! Upgrading a running release with searches in flight (#31 item 5), with real processes
//! on Postgres and Redis, as `helm upgrade` does it:
//!
//! 1. release N (the previous commit's binaries, built by `ops/release-n`, or the
//!    directory `LEADGEN_UPGRADE_FROM_BIN`) migrates a fresh database and runs two API
//!    processes and two workers (two slots each, so some searches wait in the queue);
//! 2. twelve background searches start through N's APIs; Google (the simulator) answers
//!    a page a second, so they are mid-flight or waiting in the queue during the upgrade;
//! 3. N+1's `leadgen-api migrate` runs (the chart's pre-upgrade hook);
//! 4. the APIs roll one by one (N+1 up and ready, then SIGTERM to an N): clients whose
//!    stream ended with "server stopping" reconnect to a live API with `Last-Event-ID`;
//!    four more searches start through N+1's API while N's workers still run;
//! 5. the workers roll one by one (N+1 up, then SIGTERM to an N with a 1 s drain, so it
//!    hands its running searches back mid-search and N+1 resumes them from N's
//!    checkpoints).
//!
//! Then every search completed with each of its leads exactly once, in Google's order;
//! each `complete` lists its leads once; the history says `complete` with the same count
//! for each; usage counts each search once and each lead once; nothing is left in the
//! search queue.
//!
//! Queue layout: N's queue keys are read from Redis while N runs. If N keeps its queue in
//! other keys than N+1's store (the table in `worker/src/queue/on_redis.rs`), a rolling
//! switch would strand what waits in the old keys; the test then does what
//! docs/operations.md prescribes for such a release: N's searches finish on N's workers
//! before the roll, the old keys are deleted after it, and N+1's searches run on N+1.
//! It says which path it took on stderr.

use std::{
    collections::{BTreeSet, HashMap},
    path::{Path, PathBuf},
    process::Stdio,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use leadgen_api::relay::SERVER_STOPPING;
use leadgen_core::{ids::UserId, session::SessionKeys};
use leadgen_testkit::{db::TestDatabase, places_sim::PlacesSim};
use serde_json::{Value, json};

use super::worker_process::{Launch, Target, WorkerProcess, assert_leads_once};
use crate::{
    search::env::KEY,
    support::{TEST_ENCRYPTION_KEY, TEST_JWT_SECRET},
};

/// Searches started on release N, before the upgrade: more than N's four slots take, so
/// some wait in the queue through the migration and the API roll.
const BEFORE: usize = 12;
/// Searches started through N+1's first API, while N's workers still run.
const DURING: usize = 4;
/// The search queue (its keys are `{prefix}.search.v1:...`).
const SEARCH_QUEUE: &str = "search.v1";
/// N+1's queue store: the keys in the table of `worker/src/queue/on_redis.rs`.
const STORE_DOC: &str = include_str!("../../../../worker/src/queue/on_redis.rs");

/// Where release N's `leadgen-api` and `leadgen-worker` are: `LEADGEN_UPGRADE_FROM_BIN`,
/// or what `ops/release-n` builds (cached under `.cache/upgrade`). Never skipped: no N,
/// no pass.
fn release_n() -> PathBuf {
    if let Some(dir) = std::env::var_os("LEADGEN_UPGRADE_FROM_BIN") {
        return dir.into();
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root");
    let out = std::process::Command::new(root.join("ops/release-n"))
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .expect("run ops/release-n");
    assert!(
        out.status.success(),
        "ops/release-n could not build release N ({}); this test needs it",
        out.status
    );
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    PathBuf::from(stdout.lines().last().expect("a directory").trim())
}

/// The N+1 `leadgen-api`: this build's.
pub(super) fn this_api() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_leadgen-api"))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("port")
        .local_addr()
        .expect("addr")
        .port()
}

/// What every process of either release is given.
pub(super) struct Deployment {
    pub db: TestDatabase,
    pub prefix: String,
    pub sim: PlacesSim,
}

impl Deployment {
    /// A fresh database, its own Redis prefix, and a simulator answering a page in `latency`.
    pub async fn new(latency: Duration) -> Self {
        Self {
            db: TestDatabase::postgres().await,
            prefix: format!("leadgen-test-{}", uuid::Uuid::new_v4().simple()),
            sim: PlacesSim::builder()
                .latency(latency)
                .start(std::net::SocketAddr::from(([127, 0, 0, 1], 0)))
                .await
                .expect("simulator"),
        }
    }

    pub fn vars(&self) -> Vec<(&'static str, String)> {
        vec![
            ("DATABASE_URL", self.db.url.clone()),
            ("REDIS_URL", leadgen_testkit::db::redis_url()),
            ("LEADGEN_REDIS_PREFIX", self.prefix.clone()),
            ("LEADGEN_ENCRYPTION_KEY", TEST_ENCRYPTION_KEY.into()),
            ("LEADGEN_JWT_SECRET", TEST_JWT_SECRET.into()),
            ("LEADGEN_PLACES_BASE_URL", self.sim.base_url.clone()),
            ("LEADGEN_PLACES_RPS", "1000".into()),
            ("LEADGEN_FREE_DAILY_LEADS", "0".into()),
            // 4 connections kept, not the default 16, as the in-process test apps keep
            // (support.rs): tests run side by side, and Postgres takes 100 clients in all.
            ("LEADGEN_DATABASE_CONNECTIONS", "4".into()),
            // Sign-in is not exercised: the test writes its session into the database.
            ("LEADGEN_OIDC_CLIENT_ID", "upgrade-test".into()),
            ("LEADGEN_OIDC_ISSUER", "http://127.0.0.1:9/".into()),
        ]
    }

    pub fn worker(&self, binary: PathBuf) -> WorkerProcess {
        let target = Target {
            database_url: &self.db.url,
            prefix: &self.prefix,
            places_url: &self.sim.base_url,
        };
        WorkerProcess::start_on(
            &target,
            Launch {
                extra: vec![
                    ("LEADGEN_WORKER_CONCURRENCY", "2".into()),
                    // Stopped mid-search, an N worker hands its searches back at once.
                    ("LEADGEN_WORKER_DRAIN_SECS", "1".into()),
                ],
                binary: Some(binary),
                ..Launch::default()
            },
        )
    }
}

/// `leadgen-api serve` of one release; killed if the test ends first.
pub(super) struct ApiProcess {
    child: tokio::process::Child,
    pub base: String,
}

impl ApiProcess {
    pub async fn start(binary: &Path, deployment: &Deployment) -> Self {
        Self::start_with(binary, deployment, &[]).await
    }

    /// [`ApiProcess::start`] with more environment variables (after the deployment's).
    pub async fn start_with(binary: &Path, deployment: &Deployment, extra: &[(&str, &str)]) -> Self {
        // Its readiness is asked with reqwest, which needs the process's TLS provider: a
        // test run alone (or each in its own process, as nextest runs them) has no other
        // test to have installed it.
        leadgen_core::install_crypto_provider();
        let port = free_port();
        let log = std::env::var_os("API_LOG").is_some();
        let mut command = tokio::process::Command::new(binary);
        command
            .arg("serve")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LEADGEN_LISTEN", format!("127.0.0.1:{port}"))
            .env("LEADGEN_PUBLIC_URL", format!("http://127.0.0.1:{port}"))
            .env("LEADGEN_WEB_DIR", "/nonexistent")
            .env("LEADGEN_METRICS_LISTEN", "off")
            .env("RUST_LOG", std::env::var("API_LOG").unwrap_or_else(|_| "warn".into()))
            .envs(deployment.vars())
            .envs(extra.iter().copied())
            .kill_on_drop(true)
            .stdout(if log { Stdio::inherit() } else { Stdio::null() });
        let child = command.spawn().expect("start leadgen-api");
        let api = Self {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let ready = reqwest::Client::new()
                .get(format!("{}/api/ready", api.base))
                .timeout(Duration::from_secs(3))
                .send()
                .await;
            if ready.is_ok_and(|r| r.status() == 200) {
                return api;
            }
            assert!(Instant::now() < deadline, "{} is ready within 60 s", binary.display());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGTERM, as Kubernetes stops a pod, and a clean exit within the grace period.
    pub async fn stop(mut self) {
        let pid = self.child.id().expect("running");
        let status = std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let exit = tokio::time::timeout(Duration::from_secs(30), self.child.wait())
            .await
            .expect("the API exits within 30 s of SIGTERM")
            .expect("wait");
        assert!(exit.success(), "the API exits cleanly on SIGTERM: {exit}");
    }
}

/// The API addresses a Service would route to now: an API leaves before it is stopped.
#[derive(Clone, Default)]
struct Endpoints(Arc<Mutex<Vec<String>>>);

impl Endpoints {
    fn add(&self, base: &str) {
        self.0.lock().expect("endpoints").push(base.to_owned());
    }
    fn remove(&self, base: &str) {
        self.0.lock().expect("endpoints").retain(|b| b != base);
    }
    /// One of them, turn by turn.
    fn pick(&self, turn: usize) -> String {
        let live = self.0.lock().expect("endpoints");
        live[turn % live.len()].clone()
    }
}

/// What one client saw of its search, over every connection it needed.
#[derive(Debug, Default)]
struct Followed {
    search_id: Option<String>,
    events: Vec<(u64, Value)>,
    /// Streams that ended with "server stopping" and were picked up again elsewhere.
    reconnects: usize,
}

/// Runs a background search as a client would: starts it on `first`, and whenever its
/// stream ends before `complete` or `error` (the API stopping: N+1 says `reconnect`, N
/// an `error` "server stopping"), reconnects to a live API with the last event's number.
/// N+1 names the search in the answer's `X-Search-Id` header; N does not, so a search
/// still queued on N has no id yet (a worker's `start` carries it): its client finds it
/// in the history, by what it asked for.
async fn follow(endpoints: Endpoints, first: String, token: String, body: Value) -> Followed {
    let http = reqwest::Client::new();
    let mut turn = 0;
    let mut followed = Followed::default();
    let mut last_id = 0u64;
    loop {
        let request = match &followed.search_id {
            None => http.post(format!("{first}/api/leads/search-stream")).json(&body),
            Some(id) => {
                turn += 1;
                let base = endpoints.pick(turn);
                let mut request = http.get(format!("{base}/api/leads/searches/{id}/events"));
                if last_id > 0 {
                    request = request.header("last-event-id", last_id.to_string());
                }
                request
            }
        };
        let mut response = match request.bearer_auth(&token).send().await {
            Ok(r) if r.status() == 200 => r,
            // An API between its SIGTERM and its exit refuses or answers 503: try another.
            Ok(r) if followed.search_id.is_some() && r.status() == 503 => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            Err(_) if followed.search_id.is_some() => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
            Ok(r) => panic!("{body}: answered {} {}", r.status(), r.text().await.unwrap_or_default()),
            Err(e) => panic!("{body}: {e}"),
        };
        if followed.search_id.is_none()
            && let Some(named) = response.headers().get("x-search-id").and_then(|v| v.to_str().ok())
        {
            followed.search_id = Some(named.to_owned());
        }
        let mut buffer = String::new();
        'stream: loop {
            let chunk = match response.chunk().await {
                Ok(Some(chunk)) => chunk,
                // The connection ended (or broke) without a last event: reconnect.
                Ok(None) | Err(_) => break 'stream,
            };
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let frame: String = buffer.drain(..end + 2).collect();
                let Some((id, event)) = crate::search::env::parse_sse(&frame).pop() else {
                    continue;
                };
                if event["type"] == "reconnect" || (event["type"] == "error" && event["message"] == SERVER_STOPPING) {
                    // Not one of the search's events (N numbered its "server stopping"
                    // with the stopping API's own next number).
                    followed.reconnects += 1;
                    break 'stream;
                }
                if event["type"] == "start"
                    && let Some(search_id) = event["searchId"].as_str()
                {
                    followed.search_id = Some(search_id.to_owned());
                }
                last_id = id;
                let terminal = event["type"] == "complete" || event["type"] == "error";
                followed.events.push((id, event));
                if terminal {
                    return followed;
                }
            }
        }
        if followed.search_id.is_none() {
            followed.search_id = Some(find_in_history(&endpoints, &token, &body).await);
        }
    }
}

/// The id of the search asked for with `body`, from the history of a live API.
async fn find_in_history(endpoints: &Endpoints, token: &str, body: &Value) -> String {
    for turn in 0..100 {
        let answer = reqwest::Client::new()
            .get(format!("{}/api/leads/searches?limit=100", endpoints.pick(turn)))
            .bearer_auth(token)
            .send()
            .await;
        if let Ok(answer) = answer
            && answer.status() == 200
        {
            let history: Value = answer.json().await.expect("history JSON");
            let found = history["searches"]
                .as_array()
                .expect("searches")
                .iter()
                .find(|e| e["businessType"] == body["businessType"] && e["location"] == body["location"]);
            return found
                .and_then(|e| e["id"].as_str())
                .expect("the search is in the history")
                .to_owned();
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("no live API answered the history");
}

/// Queue key shapes under `prefix`: `{kind}:{first part of the suffix}` (a worker's hold
/// `search.v1:held:{worker}` is `search.v1:held`).
async fn queue_key_shapes(redis: &mut redis::aio::MultiplexedConnection, prefix: &str) -> BTreeSet<String> {
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}.*"))
        .query_async(redis)
        .await
        .expect("KEYS");
    keys.iter()
        .filter_map(|key| {
            let (kind, _) = key.strip_prefix(prefix)?.strip_prefix('.')?.split_once(':')?;
            Some(format!("{kind}:{}", suffix_of(key, prefix)))
        })
        .collect()
}

/// The first part after the queue's name of a queue key (`ready` in
/// `{prefix}.search.v1:ready`, `held` in `...:held:{worker}`).
fn suffix_of<'a>(key: &'a str, prefix: &str) -> &'a str {
    key.strip_prefix(prefix)
        .and_then(|rest| rest.split_once(':'))
        .map_or("", |(_, suffix)| suffix.split(':').next().unwrap_or(suffix))
}

/// The key suffixes N+1's queue store uses, from the table in its source.
fn store_suffixes() -> BTreeSet<String> {
    STORE_DOC
        .lines()
        .filter_map(|line| line.strip_prefix("//! | `{queue}:"))
        .filter_map(|rest| rest.split(['`', ':']).next())
        .map(str::to_owned)
        .collect()
}

/// Signs a user in as the identity provider would, straight into the database N
/// migrated (without migrating it further), and returns a session token.
///
/// Written in plain SQL against the `users` and `sessions` tables as the first migration
/// made them (unchanged since): this checkout's store code would write N+1's shape (a
/// personal workspace, for one) into N's schema, which has no such table yet.
async fn sign_in(database_url: &str) -> String {
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(database_url)
        .await
        .expect("postgres");
    let user_id = uuid::Uuid::new_v4().to_string();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs() as i64;
    sqlx::query(
        "INSERT INTO users (id, issuer, subject, email, name, picture, onboarded, login_count, created_at, updated_at)
         VALUES ($1, 'https://id.example', 'upgrader', 'upgrader@example.com', 'upgrader', NULL, 1, 1, $2, $2)",
    )
    .bind(&user_id)
    .bind(now)
    .execute(&mut conn)
    .await
    .expect("user");
    let keys = SessionKeys::new(
        &secrecy::SecretBox::new(Box::new(TEST_JWT_SECRET.as_bytes().to_vec())),
        Duration::from_secs(3600),
    );
    let (token, claims) = keys.issue(&UserId::from(user_id.as_str())).expect("token");
    sqlx::query("INSERT INTO sessions (jti, user_id, issued_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, NULL)")
        .bind(&claims.jti)
        .bind(&claims.sub)
        .bind(claims.iat)
        .bind(claims.exp)
        .execute(&mut conn)
        .await
        .expect("session");
    token
}

/// The newest migration version in `migrations/postgres` (this checkout's, N+1's).
fn newest_migration() -> i64 {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations/postgres");
    std::fs::read_dir(dir)
        .expect("migrations")
        .filter_map(|e| e.ok()?.file_name().to_str()?.split('_').next()?.parse().ok())
        .max()
        .expect("a migration")
}

async fn applied_migration(database_url: &str) -> i64 {
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(database_url)
        .await
        .expect("postgres");
    sqlx::query_scalar("SELECT max(version) FROM _sqlx_migrations WHERE success")
        .fetch_one(&mut conn)
        .await
        .expect("_sqlx_migrations")
}

async fn get_json(base: &str, path: &str, token: &str) -> Value {
    let answer = reqwest::Client::new()
        .get(format!("{base}{path}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("answer");
    assert_eq!(answer.status(), 200, "GET {path}");
    answer.json().await.expect("JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn upgrading_a_running_release_loses_no_search_and_repeats_no_lead() {
    leadgen_core::install_crypto_provider();
    let old = release_n();
    let old_api = old.join("leadgen-api");
    let old_worker = old.join("leadgen-worker");
    let new_worker = super::worker_process::worker_binary();
    eprintln!("upgrade: release N from {}", old.display());

    let deployment = Deployment::new(Duration::from_millis(1_000)).await;
    let mut redis = redis::Client::open(leadgen_testkit::db::redis_url())
        .expect("redis url")
        .get_multiplexed_async_connection()
        .await
        .expect("redis");

    // Release N: its API migrates the empty database at start, as a first install does.
    let endpoints = Endpoints::default();
    let mut apis = vec![
        ApiProcess::start(&old_api, &deployment).await,
        ApiProcess::start(&old_api, &deployment).await,
    ];
    for api in &apis {
        endpoints.add(&api.base);
    }
    let mut workers = vec![deployment.worker(old_worker.clone()), deployment.worker(old_worker)];
    let n_schema = applied_migration(&deployment.db.url).await;
    let token = sign_in(&deployment.db.url).await;
    let saved = reqwest::Client::new()
        .post(format!("{}/api/user/api-key", apis[0].base))
        .bearer_auth(&token)
        .json(&json!({"api_key": KEY}))
        .send()
        .await
        .expect("save key");
    assert_eq!(saved.status(), 200, "N saves the Places key");

    let cities: Vec<String> = deployment.sim.cities().iter().map(|c| c.name.to_string()).collect();
    // Each search asks for something no other does (its client finds it by that).
    let search = |i: usize| {
        let kind = ["restaurant", "cafe", "dentist", "bakery"][i % 4];
        (kind.to_owned(), cities[i / 4].clone())
    };
    let mut runs = Vec::new();
    let start = |i: usize, first: String| {
        let (kind, city) = search(i);
        let body = json!({"businessType": kind, "location": city, "background": true});
        let task = tokio::spawn(follow(endpoints.clone(), first, token.clone(), body));
        (kind, city, task)
    };
    for i in 0..BEFORE {
        runs.push(start(i, apis[i % 2].base.clone()));
    }
    // Mid-flight: N's workers run searches and others wait in N's queue. N's queue
    // layout is read from Redis meanwhile (N+1's `ready` list is N's waiting line only
    // when the layouts agree).
    let ours = store_suffixes();
    let ready_key = format!("{}.{SEARCH_QUEUE}:ready", deployment.prefix);
    let mut waiting = 0i64;
    let deadline = Instant::now() + Duration::from_secs(30);
    let (n_shapes, foreign) = loop {
        let now_waiting: i64 = redis::cmd("LLEN")
            .arg(&ready_key)
            .query_async(&mut redis)
            .await
            .unwrap_or(0);
        waiting = waiting.max(now_waiting);
        let mut running = 0.0;
        for worker in &workers {
            running += worker.jobs_running().await;
        }
        let n_shapes = queue_key_shapes(&mut redis, &deployment.prefix).await;
        let foreign: Vec<String> = n_shapes
            .iter()
            .filter(|shape| !ours.contains(shape.split_once(':').map_or("", |(_, s)| s)))
            .cloned()
            .collect();
        if running > 0.0 && (waiting > 0 || !foreign.is_empty()) {
            break (n_shapes, foreign);
        }
        assert!(
            Instant::now() < deadline,
            "within 30 s N's workers run searches while more wait in its queue"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        n_shapes.iter().any(|s| s.starts_with(SEARCH_QUEUE)),
        "N's search queue is in Redis under the prefix: {n_shapes:?}"
    );
    let same_layout = foreign.is_empty();
    if same_layout {
        eprintln!("upgrade: N keeps its queue in N+1's keys ({n_shapes:?}): rolling with searches in flight");
    } else {
        // docs/operations.md: let N's searches finish on N's workers, then switch.
        eprintln!("upgrade: N's queue keys {foreign:?} are not N+1's: N's searches finish before the roll");
        let deadline = Instant::now() + Duration::from_secs(120);
        while !runs.iter().all(|(_, _, task)| task.is_finished()) {
            assert!(Instant::now() < deadline, "N finishes its searches within 120 s");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    // The pre-upgrade hook: N+1's migrations, while N serves.
    let migrate = tokio::process::Command::new(this_api())
        .arg("migrate")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(deployment.vars())
        .stdout(Stdio::null())
        .status()
        .await
        .expect("leadgen-api migrate");
    assert!(migrate.success(), "N+1's migrations apply to N's schema");
    assert_eq!(
        applied_migration(&deployment.db.url).await,
        newest_migration(),
        "the database is at N+1's schema (N left it at {n_schema})"
    );

    // The APIs, one by one: N+1 ready, then N out of the endpoints and stopped.
    for (i, slot) in apis.iter_mut().enumerate() {
        let new = ApiProcess::start(&this_api(), &deployment).await;
        endpoints.add(&new.base);
        let first_new = new.base.clone();
        let old = std::mem::replace(slot, new);
        endpoints.remove(&old.base);
        old.stop().await;
        if i == 0 {
            // Searches queued by N+1 while N's workers are the fleet.
            for j in 0..DURING {
                runs.push(start(BEFORE + j, first_new.clone()));
            }
        }
    }

    // The workers, one by one: N+1 taking jobs, then N stopped (its drain is 1 s, so it
    // hands back what it runs).
    let waiting_at_roll: i64 = redis::cmd("LLEN")
        .arg(&ready_key)
        .query_async(&mut redis)
        .await
        .unwrap_or(0);
    let mut in_flight_at_stop = Vec::new();
    for slot in workers.iter_mut() {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let old = std::mem::replace(slot, deployment.worker(new_worker.clone()));
        in_flight_at_stop.push(old.jobs_running().await);
        old.stop_gracefully().await;
    }
    if !same_layout {
        // The old keys hold nothing N+1 reads: delete them, as docs/operations.md says.
        let keys: Vec<String> = redis::cmd("KEYS")
            .arg(format!("{}.*", deployment.prefix))
            .query_async(&mut redis)
            .await
            .expect("KEYS");
        for key in keys {
            if !ours.contains(suffix_of(&key, &deployment.prefix)) {
                let _: () = redis::cmd("DEL").arg(&key).query_async(&mut redis).await.expect("DEL");
            }
        }
    }

    let mut followed = Vec::new();
    for (kind, city, task) in runs {
        let done = tokio::time::timeout(Duration::from_secs(120), task)
            .await
            .unwrap_or_else(|_| panic!("{kind} in {city} ends within 120 s of the upgrade"))
            .expect("client task");
        followed.push((kind, city, done));
    }
    let reconnects: Vec<usize> = followed.iter().map(|(_, _, f)| f.reconnects).collect();
    eprintln!(
        "upgrade: up to {waiting} searches waiting in N's queue at their start, {waiting_at_roll} when the workers rolled; \
         running on each N worker at its stop {in_flight_at_stop:?}; reconnects {reconnects:?}"
    );
    if same_layout {
        assert!(
            in_flight_at_stop.iter().any(|n| *n > 0.0),
            "an N worker was stopped in the middle of searches: {in_flight_at_stop:?}"
        );
        assert!(
            followed.iter().any(|(_, _, f)| f.reconnects > 0),
            "a client's stream was on a stopping N API and went on elsewhere"
        );
    }

    // Every lead once, in order, and `complete` lists each once.
    let mut leads_by_id = HashMap::new();
    for (kind, city, f) in &followed {
        assert_leads_once(&deployment.sim, kind, city, &f.events);
        let complete = &f.events.last().expect("events").1;
        let results: BTreeSet<&str> = complete["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| r["placeId"].as_str().expect("placeId"))
            .collect();
        let leads = f.events.iter().filter(|(_, e)| e["type"] == "business_found").count();
        assert_eq!(results.len(), leads, "{kind} in {city}: complete lists each lead once");
        leads_by_id.insert(f.search_id.clone().expect("id"), leads as i64);
    }

    // The history and the usage agree with what the clients received.
    let base = endpoints.pick(0);
    let history = get_json(&base, "/api/leads/searches?limit=100", &token).await;
    let entries = history["searches"].as_array().expect("searches");
    assert_eq!(entries.len(), BEFORE + DURING, "one history entry a search: {history}");
    for entry in entries {
        let id = entry["id"].as_str().expect("id");
        assert_eq!(entry["status"], "complete", "{entry}");
        assert_eq!(entry["leads"].as_i64(), leads_by_id.get(id).copied(), "{entry}");
    }
    let usage = get_json(&base, "/api/leads/usage", &token).await;
    assert_eq!(
        usage["data"]["usage"]["current"].as_u64(),
        Some((BEFORE + DURING) as u64),
        "each search counted once: {usage}"
    );
    assert_eq!(
        usage["data"]["usage"]["leadsToday"].as_i64(),
        Some(leads_by_id.values().sum::<i64>()),
        "each lead counted once: {usage}"
    );

    for worker in workers {
        worker.stop_gracefully().await;
    }
    for api in apis {
        api.stop().await;
    }
    let left: Vec<String> = queue_key_shapes(&mut redis, &deployment.prefix)
        .await
        .into_iter()
        .filter(|shape| shape.starts_with(SEARCH_QUEUE))
        .collect();
    assert!(
        left.is_empty(),
        "nothing waits or is held in the search queue: {left:?}"
    );
}
