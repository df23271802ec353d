//! A search test environment: simulator, app, and (distributed) workers.

use std::{net::SocketAddr, sync::Arc};

use leadgen_core::{
    bus::{EventBus, redis::RedisBus},
    usage::UsageService,
};
use leadgen_testkit::places_sim::{PlacesSim, PlacesSimBuilder};
use leadgen_worker::{KeyRateGate, WorkerDeps};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use crate::support::{Backend, TestApp};

/// A well-formed key the simulator accepts.
pub const KEY: &str = "AIzaSyTest0123456789abcdefghijklmnopqr";

#[derive(Clone, Copy, Debug)]
pub enum Mode {
    Embedded,
    Distributed,
}

pub struct SearchEnv {
    pub sim: PlacesSim,
    pub app: TestApp,
    pub token: String,
    prefix: String,
    workers: std::sync::Mutex<Vec<JoinHandle<()>>>,
}

impl SearchEnv {
    pub async fn start(mode: Mode, sim: PlacesSimBuilder, workers: usize, extra: Vec<(&'static str, String)>) -> Self {
        let sim = sim
            .start(SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .expect("simulator");
        let prefix = format!("leadgen-test-{}", uuid::Uuid::new_v4().simple());
        let mut vars = vec![
            ("LEADGEN_PLACES_BASE_URL", sim.base_url.clone()),
            // Tests count what Google was asked step by step: an estimate's probes that
            // went on after it answered would land in the next step's count. The tests
            // of those probes turn them on.
            ("LEADGEN_PROBE_AFTER_ESTIMATE_SECS", "0".to_owned()),
        ];
        let backend = match mode {
            Mode::Embedded => Backend::Sqlite,
            Mode::Distributed => {
                vars.push(("REDIS_URL", leadgen_testkit::db::redis_url()));
                vars.push(("LEADGEN_REDIS_PREFIX", prefix.clone()));
                Backend::Postgres
            }
        };
        // Last, so a test can replace any of the above (a Redis of its own, say).
        vars.extend(extra);
        let app = TestApp::start(backend, vars).await;
        let (_user_id, token) = app.sign_in("searcher").await;
        let env = Self {
            sim,
            app,
            token,
            prefix,
            workers: std::sync::Mutex::new(Vec::new()),
        };
        env.save_key(KEY).await;
        if matches!(mode, Mode::Distributed) {
            for _ in 0..workers {
                env.spawn_worker().await;
            }
        }
        env
    }

    /// Starts one more worker with its own Redis connections, as a separate process would.
    pub async fn spawn_worker(&self) {
        self.spawn_worker_until(std::future::pending()).await;
    }

    /// Starts a worker that shuts down (gracefully) when `shutdown` resolves.
    pub async fn spawn_worker_until(&self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) {
        let state = &self.app.state;
        let url = leadgen_testkit::db::redis_url();
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
            bus: EventBus::Redis(Box::new(RedisBus::connect(&url, &self.prefix).await.expect("bus"))),
            usage: UsageService::new(state.store.clone(), state.config.usage_limits),
            gate: KeyRateGate::fleet(state.config.places.rps, conn, &self.prefix),
            prices: state.config.places.prices,
            vault: state.vault.clone(),
            outbound: leadgen_worker::wiring::webhook_client(&state.config),
            webhooks: state.queues.webhook.clone(),
            webhook_schedule: state.config.webhooks,
            crawler: leadgen_worker::wiring::crawler(&state.config),
            enrich_queue: leadgen_worker::jobs::registry::redis(&url, &self.prefix)
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
        let sources = leadgen_worker::jobs::registry::redis_sources(&url, &self.prefix)
            .await
            .expect("queue");
        let mut workers = self.workers.lock().expect("workers");
        let settings = leadgen_worker::WorkerSettings {
            name: format!("test-worker-{}", workers.len()),
            concurrency: 8,
            drain: std::time::Duration::from_secs(25),
        };
        workers.push(tokio::spawn(async move {
            let _ = leadgen_worker::run(&settings, deps, sources, shutdown).await;
        }));
    }

    pub async fn save_key(&self, key: &str) {
        let (status, body) = self
            .app
            .post("/api/user/api-key", Some(&self.token), Some(json!({"api_key": key})))
            .await;
        assert_eq!(status, 200, "{body}");
    }

    /// Runs a streamed search to its end and returns (status, events).
    pub async fn stream(&self, business_type: &str, location: &str) -> (u16, Vec<(u64, Value)>) {
        self.stream_body(json!({"businessType": business_type, "location": location}))
            .await
    }

    /// Runs a streamed search of any body to its end and returns (status, events).
    pub async fn stream_body(&self, body: Value) -> (u16, Vec<(u64, Value)>) {
        let resp = self
            .app
            .client
            .post("/api/leads/search-stream")
            .header("authorization", format!("Bearer {}", self.token))
            .body_json(&body)
            .send()
            .await;
        let status = resp.0.status().as_u16();
        let text = tokio::time::timeout(std::time::Duration::from_secs(120), resp.0.into_body().into_string())
            .await
            .expect("the stream ends")
            .expect("body");
        if status != 200 {
            return (
                status,
                vec![(0, serde_json::from_str(&text).unwrap_or(Value::String(text)))],
            );
        }
        (status, parse_sse(&text))
    }

    /// A city with at least `n` places of `place_type`.
    pub fn dense_city(&self, place_type: &str, n: usize) -> String {
        self.sim
            .cities()
            .iter()
            .map(|c| c.name.to_string())
            .find(|name| self.sim.world().places_for(name, place_type).len() >= n)
            .expect("a city dense enough")
    }
}

impl SearchEnv {
    /// The Redis key prefix of this environment's queue and bus.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The workspace this environment's user searches in (their personal one).
    pub async fn workspace(&self) -> leadgen_core::ids::WorkspaceId {
        let (status, body) =
            crate::workspaces::call(&self.app, "GET", "/api/workspaces", &self.token, None, None).await;
        assert_eq!(status, 200, "{body}");
        leadgen_core::ids::WorkspaceId::from(body["workspaces"][0]["id"].as_str().expect("id").to_owned())
    }

    /// `POST /api/leads/estimate` as this environment's user.
    pub async fn estimate(&self, body: Value) -> (u16, Value) {
        self.app
            .post("/api/leads/estimate", Some(&self.token), Some(body))
            .await
    }

    /// Workers started so far (killed ones included).
    pub fn worker_count(&self) -> usize {
        self.workers.lock().expect("workers").len()
    }

    /// Kills worker `i` as a crash would: its task stops wherever it is.
    pub fn kill_worker(&self, i: usize) {
        self.workers.lock().expect("workers")[i].abort();
    }
}

impl Drop for SearchEnv {
    fn drop(&mut self) {
        for worker in self.workers.lock().expect("workers").iter() {
            worker.abort();
        }
    }
}

/// Splits an SSE body into (id, data JSON) pairs; comments (keep-alives) are skipped.
pub fn parse_sse(text: &str) -> Vec<(u64, Value)> {
    text.split("\n\n")
        .filter_map(|frame| {
            let mut id = None;
            let mut data = String::new();
            for line in frame.lines() {
                if let Some(v) = line.strip_prefix("id:") {
                    id = v.trim().parse().ok();
                } else if let Some(v) = line.strip_prefix("data:") {
                    data.push_str(v.trim_start());
                }
            }
            (!data.is_empty()).then(|| (id.unwrap_or(0), serde_json::from_str(&data).expect("event JSON")))
        })
        .collect()
}

/// Defines `name::embedded` and `name::distributed` from `|mode| async move { ... }`.
#[macro_export]
macro_rules! both_modes {
    ($name:ident, $body:expr) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn embedded() {
                ($body)($crate::search::env::Mode::Embedded).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn distributed() {
                ($body)($crate::search::env::Mode::Distributed).await;
            }
        }
    };
}

/// The place ids of a stream's `business_found` events, in order.
pub fn found_ids(events: &[(u64, Value)]) -> Vec<String> {
    events
        .iter()
        .filter(|(_, e)| e["type"] == "business_found")
        .map(|(_, e)| e["lead"]["placeId"].as_str().expect("placeId").to_owned())
        .collect()
}

/// A stream's last event of `kind`; panics, showing the stream, when there is none.
pub fn last_of<'a>(events: &'a [(u64, Value)], kind: &str) -> &'a Value {
    &events
        .iter()
        .rev()
        .find(|(_, e)| e["type"] == kind)
        .unwrap_or_else(|| panic!("a {kind} event in {events:?}"))
        .1
}
