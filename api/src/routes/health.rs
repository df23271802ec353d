//! Liveness and readiness: `/api/health`, `/api/ready`.

use poem::web::Data;
use poem_openapi::{ApiResponse, Enum, Object, OpenApi, payload::Json};

use super::ApiTags;
use crate::state::AppState;

/// How long readiness waits for each of the store and Redis before calling it down:
/// a probe answered late counts as failed anyway, and "down" is the truthful answer.
const READY_CHECK_LIMIT: std::time::Duration = std::time::Duration::from_millis(1500);

/// Liveness.
#[derive(Debug, Object)]
pub struct Health {
    /// Always `ok`: the process answers.
    pub status: LivenessStatus,
    /// Server version.
    pub version: String,
}

/// What `GET /api/health` says: the process is up (readiness is `GET /api/ready`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum LivenessStatus {
    /// The process answers.
    Ok,
}

/// Whether this instance takes traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum ReadinessStatus {
    /// Every dependency answers.
    Ready,
    /// One does not (see which).
    NotReady,
}

/// Readiness of each dependency.
#[derive(Debug, Object)]
pub struct Readiness {
    /// Whether it takes traffic.
    pub status: ReadinessStatus,
    /// The store answers.
    pub store: bool,
    /// The job queue answers (Redis, or in-process in embedded mode).
    pub queue: bool,
    /// The event bus answers (Redis, or in-process in embedded mode).
    pub bus: bool,
    /// The server is stopping (SIGTERM): it finishes what it has and takes nothing new.
    pub stopping: bool,
}

/// Answer of `GET /api/ready`.
#[derive(ApiResponse)]
pub enum ReadyResponse {
    /// Every dependency answers.
    #[oai(status = 200)]
    Ready(Json<Readiness>),
    /// At least one dependency does not answer.
    #[oai(status = 503)]
    NotReady(Json<Readiness>),
}

/// Health operations.
pub struct HealthApi;

#[OpenApi(tag = "ApiTags::Health")]
impl HealthApi {
    /// Liveness
    #[oai(path = "/health", method = "get", operation_id = "get_health")]
    async fn get_health(&self) -> Json<Health> {
        Json(Health {
            status: LivenessStatus::Ok,
            version: env!("CARGO_PKG_VERSION").into(),
        })
    }

    /// Readiness: store, queue and bus reachable, and not stopping
    #[oai(path = "/ready", method = "get", operation_id = "get_ready")]
    async fn get_ready(&self, state: Data<&AppState>) -> ReadyResponse {
        // A store that cannot be reached makes the pool retry until its acquire time-out
        // (10 s): a probe must answer well before that, so each check has its own limit.
        let store = matches!(
            tokio::time::timeout(READY_CHECK_LIMIT, state.store.ping()).await,
            Ok(Ok(()))
        );
        // Queue and bus share the Redis connection in distributed mode; in embedded mode
        // both live in this process and are reachable whenever it answers.
        let redis_ok = match &state.redis {
            Some(conn) => {
                let mut conn = conn.clone();
                let command = redis::cmd("PING");
                let ping = command.query_async::<String>(&mut conn);
                matches!(tokio::time::timeout(READY_CHECK_LIMIT, ping).await, Ok(Ok(_)))
            }
            None => true,
        };
        let metrics = leadgen_core::telemetry::metrics::metrics();
        metrics.dependency("store", store);
        if state.redis.is_some() {
            metrics.dependency("redis", redis_ok);
        }
        let stopping = state.is_stopping();
        let all = store && redis_ok && !stopping;
        let body = Json(Readiness {
            status: if all {
                ReadinessStatus::Ready
            } else {
                ReadinessStatus::NotReady
            },
            store,
            queue: redis_ok,
            bus: redis_ok,
            stopping,
        });
        if all {
            ReadyResponse::Ready(body)
        } else {
            ReadyResponse::NotReady(body)
        }
    }
}
