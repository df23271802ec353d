//! Faults survived, with real processes (issue #12): a `leadgen-api serve` process and a
//! `leadgen-worker` process against a Redis server of the test's own, restarted in the
//! middle of a search; and against Postgres reached through a proxy the test cuts and
//! restores (what the API sees when Postgres stops and starts again).

use std::{
    net::SocketAddr,
    process::{Child, Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use leadgen_testkit::places_sim::PlacesSim;
use serde_json::{Value, json};
use tokio::{net::TcpListener, sync::Mutex, task::JoinSet};

use super::worker_process::{Launch, WorkerProcess};
use crate::{
    search::env::{Mode, SearchEnv, parse_sse},
    support::{TEST_ENCRYPTION_KEY, TEST_JWT_SECRET},
};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("port")
        .local_addr()
        .expect("addr")
        .port()
}

/// A `redis-server` of the test's own (nothing on disk), so restarting it disturbs no
/// other test.
struct RedisServer {
    port: u16,
    child: Option<Child>,
}

impl RedisServer {
    fn start(port: u16) -> Self {
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server (Debian's redis-server package)");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server listens within 10 s");
            std::thread::sleep(Duration::from_millis(20));
        }
        Self {
            port,
            child: Some(child),
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills it at once (SIGKILL: its data is gone, as after a crash).
    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A TCP proxy to Postgres that can be cut: while cut, its open connections are dropped
/// and nothing listens on its port (connections are refused), as when the server stops.
struct CuttableProxy {
    port: u16,
    target: SocketAddr,
    links: Arc<Mutex<JoinSet<()>>>,
    accept: std::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl CuttableProxy {
    async fn start(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let proxy = Self {
            port,
            target,
            links: Arc::new(Mutex::new(JoinSet::new())),
            accept: std::sync::Mutex::new(None),
        };
        proxy.serve(listener);
        proxy
    }

    fn serve(&self, listener: TcpListener) {
        let (links, target) = (self.links.clone(), self.target);
        let task = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                links.lock().await.spawn(async move {
                    if let Ok(mut server) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
            }
        });
        *self.accept.lock().expect("accept") = Some(task);
    }

    async fn cut(&self) {
        if let Some(task) = self.accept.lock().expect("accept").take() {
            task.abort();
        }
        self.links.lock().await.abort_all();
        // The listener is closed once its task is gone.
        let deadline = Instant::now() + Duration::from_secs(5);
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
            assert!(Instant::now() < deadline, "the proxy stops listening");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn restore(&self) {
        let listener = TcpListener::bind(("127.0.0.1", self.port))
            .await
            .expect("listen again on the same port");
        self.serve(listener);
    }
}

impl Drop for CuttableProxy {
    fn drop(&mut self) {
        if let Some(task) = self.accept.lock().expect("accept").take() {
            task.abort();
        }
    }
}

/// `leadgen-api serve` as a process; killed when dropped.
struct ApiProcess {
    /// Killed when dropped.
    _child: tokio::process::Child,
    base: String,
}

impl ApiProcess {
    async fn start(vars: &[(&str, String)]) -> Self {
        let port = free_port();
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_leadgen-api"));
        command
            .arg("serve")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LEADGEN_LISTEN", format!("127.0.0.1:{port}"))
            .env("LEADGEN_PUBLIC_URL", format!("http://127.0.0.1:{port}"))
            .env("LEADGEN_WEB_DIR", "/nonexistent")
            .env("LEADGEN_METRICS_LISTEN", "off")
            .env("LEADGEN_ENCRYPTION_KEY", TEST_ENCRYPTION_KEY)
            .env("LEADGEN_JWT_SECRET", TEST_JWT_SECRET)
            // 4 connections kept, not 16: tests run side by side (see upgrade.rs' vars).
            .env("LEADGEN_DATABASE_CONNECTIONS", "4")
            .env("RUST_LOG", std::env::var("API_LOG").unwrap_or_else(|_| "warn".into()))
            .kill_on_drop(true)
            .stdout(if std::env::var_os("API_LOG").is_some() {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        for (k, v) in vars {
            command.env(k, v);
        }
        let child = command.spawn().expect("leadgen-api");
        let base = format!("http://127.0.0.1:{port}");
        let api = Self { _child: child, base };
        let deadline = Instant::now() + Duration::from_secs(60);
        while api.ready().await != Some(200) {
            assert!(Instant::now() < deadline, "leadgen-api is ready within 60 s");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        api
    }

    /// `/api/ready`'s status, if it answered within 3 s.
    async fn ready(&self) -> Option<u16> {
        let http = reqwest::Client::new();
        let answer = http
            .get(format!("{}/api/ready", self.base))
            .timeout(Duration::from_secs(3))
            .send()
            .await
            .ok()?;
        Some(answer.status().as_u16())
    }

    /// GET with the token: (status, JSON), or `None` if it took over 12 s.
    async fn get(&self, path: &str, token: &str) -> Option<(u16, Value)> {
        let http = reqwest::Client::new();
        let answer = http
            .get(format!("{}{path}", self.base))
            .bearer_auth(token)
            .timeout(Duration::from_secs(12))
            .send()
            .await
            .ok()?;
        let status = answer.status().as_u16();
        Some((status, answer.json().await.unwrap_or(Value::Null)))
    }

    /// Runs a streamed search; returns its events (or what the stream carried before it
    /// ended), giving up after `limit`.
    async fn search(&self, token: &str, body: &Value, limit: Duration) -> Vec<(u64, Value)> {
        let http = reqwest::Client::new();
        let run = async {
            let answer = http
                .post(format!("{}/api/leads/search-stream", self.base))
                .bearer_auth(token)
                .json(body)
                .send()
                .await
                .expect("the search is accepted");
            assert_eq!(answer.status(), 200);
            answer.text().await.unwrap_or_default()
        };
        let text = tokio::time::timeout(limit, run)
            .await
            .expect("the stream ends: nothing hangs");
        parse_sse(&text)
    }
}

/// Polls `check` until it is true, at most `limit`; returns how long it took.
async fn within<F, Fut>(limit: Duration, mut check: F) -> Option<Duration>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while start.elapsed() < limit {
        if check().await {
            return Some(start.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    None
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn redis_restarted_mid_search_the_processes_reconnect_and_nothing_hangs() {
    let mut redis = RedisServer::start(free_port());
    // The in-process app only prepares the database (user, key); the API and the worker
    // under test are processes.
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder().latency(Duration::from_millis(700)),
        0,
        vec![("REDIS_URL", redis.url())],
    )
    .await;
    let vars = vec![
        ("DATABASE_URL", env.app._db.url.clone()),
        ("REDIS_URL", redis.url()),
        ("LEADGEN_REDIS_PREFIX", env.prefix().to_owned()),
        ("LEADGEN_PLACES_BASE_URL", env.sim.base_url.clone()),
    ];
    let api = ApiProcess::start(&vars).await;
    let worker = WorkerProcess::start(
        &env,
        Launch {
            extra: vec![("REDIS_URL", redis.url())],
            ..Launch::default()
        },
    );
    let city = env.dense_city("cafe", 45);
    let body = json!({"businessType": "cafe", "location": city});

    // Mid-search (its first page is on its way), Redis dies and comes back empty a second
    // later on the same port.
    let search = api.search(&env.token, &body, Duration::from_secs(90));
    let restart = async {
        tokio::time::sleep(Duration::from_millis(1_000)).await;
        redis.kill();
        tokio::time::sleep(Duration::from_millis(1_000)).await;
        redis = RedisServer::start(redis.port);
        Instant::now()
    };
    let (events, back_at) = tokio::join!(search, restart);
    eprintln!(
        "the search running across the restart ended with {}",
        events.last().map(|e| e.1.to_string()).unwrap_or_default()
    );
    // The search ended by itself: complete, or a plain-words error (never silence).
    let last = &events.last().expect("the stream said something").1;
    match last["type"].as_str() {
        Some("complete") => {}
        Some("error") => {
            let message = last["message"].as_str().unwrap_or_default();
            assert!(
                message.len() > 20 && !message.contains("redis"),
                "a clear message: {message}"
            );
        }
        other => panic!("the stream ended without an outcome ({other:?}): {events:?}"),
    }

    // Both processes are back within 5 s of Redis: the API is ready and a new search runs
    // on the worker to its end, every lead once.
    let ready_after = within(Duration::from_secs(5), || async { api.ready().await == Some(200) })
        .await
        .expect("the API is ready again within 5 s of Redis");
    let after = api.search(&env.token, &body, Duration::from_secs(60)).await;
    let last = &after.last().expect("events").1;
    assert_eq!(last["type"], "complete", "a search after the restart completes: {last}");
    let results = last["results"].as_array().expect("results");
    let ids: std::collections::HashSet<&str> = results.iter().filter_map(|r| r["placeId"].as_str()).collect();
    assert_eq!(ids.len(), results.len(), "every lead once");
    assert_eq!(
        results.len(),
        env.sim.world().places_for(&city, "cafe").len().min(60),
        "every lead"
    );
    eprintln!(
        "ready {ready_after:?} after Redis came back; second search done {:?} after",
        back_at.elapsed()
    );
    worker.stop_gracefully().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_stopped_and_started_readiness_fails_requests_say_so_and_it_recovers() {
    let env = SearchEnv::start(Mode::Distributed, PlacesSim::builder(), 0, vec![]).await;
    let proxy = CuttableProxy::start(SocketAddr::from(([127, 0, 0, 1], 5432))).await;
    let proxied = env
        .app
        ._db
        .url
        .replace("127.0.0.1:5432", &format!("127.0.0.1:{}", proxy.port));
    assert_ne!(proxied, env.app._db.url, "the database is reached through the proxy");
    let api = ApiProcess::start(&[
        ("DATABASE_URL", proxied),
        ("REDIS_URL", leadgen_testkit::db::redis_url()),
        ("LEADGEN_REDIS_PREFIX", env.prefix().to_owned()),
        ("LEADGEN_PLACES_BASE_URL", env.sim.base_url.clone()),
    ])
    .await;
    let (status, usage) = api.get("/api/leads/usage", &env.token).await.expect("an answer");
    assert_eq!(status, 200, "{usage}");

    proxy.cut().await;
    // Readiness says so promptly, so the load balancer stops sending traffic.
    within(Duration::from_secs(5), || async { api.ready().await == Some(503) })
        .await
        .expect("/api/ready answers 503 within 5 s while Postgres is down");
    // A request that needs the store gets a clear error, not a hang.
    let started = Instant::now();
    let (status, answer) = api
        .get("/api/leads/usage", &env.token)
        .await
        .expect("an answer within 12 s while Postgres is down");
    assert_eq!(
        status, 503,
        "unavailable (retry later) while the store is down: {answer}"
    );
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty() && !m.contains("sqlx")),
        "a plain message: {answer}"
    );
    eprintln!("answered {status} in {:?} while Postgres was down", started.elapsed());

    proxy.restore().await;
    let recovered = within(Duration::from_secs(5), || async {
        api.ready().await == Some(200)
            && api
                .get("/api/leads/usage", &env.token)
                .await
                .is_some_and(|(status, _)| status == 200)
    })
    .await
    .expect("ready and serving within 5 s of Postgres coming back, by itself");
    eprintln!("recovered {recovered:?} after Postgres came back");
    drop(api);
}

/// Google's answers go bad: a burst of 5xx is retried with back-off and the user sees
/// nothing of it; a storm that does not pass, and a quota storm (429), end the search
/// with their specific message, in bounded time, in both modes.
mod upstream_storms {
    use super::*;
    use crate::both_modes;

    both_modes!(a_burst_of_server_errors_is_absorbed, |mode: Mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder().fault_rate(0.35).seed(7), 1, vec![]).await;
        let city = env.dense_city("bakery", 45);
        let (_, events) = env.stream("bakery", &city).await;
        let last = &events.last().expect("events").1;
        assert_eq!(last["type"], "complete", "{last}");
        assert_eq!(
            last["results"].as_array().expect("results").len(),
            env.sim.world().places_for(&city, "bakery").len().min(60),
            "every lead despite a third of Google's answers failing"
        );
    });

    both_modes!(
        a_storm_that_does_not_pass_ends_with_its_message,
        |mode: Mode| async move {
            let env = SearchEnv::start(mode, PlacesSim::builder().fault_rate(1.0), 1, vec![]).await;
            let city = env.dense_city("bakery", 1);
            let started = Instant::now();
            let (_, events) = env.stream("bakery", &city).await;
            let last = &events.last().expect("events").1;
            assert_eq!(last["type"], "error", "{last}");
            let message = last["message"].as_str().expect("message");
            assert!(
                message.starts_with("Google Places"),
                "Google's failure, in words: {message}"
            );
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "gave up in {:?}",
                started.elapsed()
            );
        }
    );

    both_modes!(a_quota_storm_ends_with_the_quota_message, |mode: Mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder().rpm_quota(1), 1, vec![]).await;
        let city = env.dense_city("bakery", 45);
        let started = Instant::now();
        let (_, events) = env.stream("bakery", &city).await;
        let last = &events.last().expect("events").1;
        assert_eq!(last["type"], "error", "{last}");
        assert!(
            last["message"]
                .as_str()
                .expect("message")
                .contains("quota is exhausted"),
            "{last}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "gave up in {:?}",
            started.elapsed()
        );
    });
}
