//! The workers prune expired sessions, abandoned sign-ins (#25) and audit events past their
//! retention (#28) on a schedule, in both modes: embedded (one worker, SQLite, in-process
//! queue) and distributed (two workers, Postgres, Redis, sharing one job a period through
//! a lease).

use std::{collections::HashMap, time::Duration};

use leadgen_core::{
    config::Config,
    session::{Claims, ISSUER},
    store::{LoginAttempt, Store},
    time::now_unix,
    user::ProviderIdentity,
};
use leadgen_testkit::db::TestDatabase;
use leadgen_worker::{WorkerSettings, wiring::Services};
use sqlx::Connection;
use tokio::task::JoinHandle;

use crate::{
    search::env::Mode,
    support::{TEST_ENCRYPTION_KEY, TEST_JWT_SECRET},
};

/// The services one worker process builds, on `db` (and Redis under `prefix` when
/// distributed).
async fn services(mode: Mode, db: &TestDatabase, prefix: &str) -> Services {
    let mut vars = HashMap::from([
        ("DATABASE_URL", db.url.clone()),
        ("LEADGEN_ENCRYPTION_KEY", TEST_ENCRYPTION_KEY.to_owned()),
        ("LEADGEN_JWT_SECRET", TEST_JWT_SECRET.to_owned()),
    ]);
    if matches!(mode, Mode::Distributed) {
        vars.insert("REDIS_URL", leadgen_testkit::db::redis_url());
        vars.insert("LEADGEN_REDIS_PREFIX", prefix.to_owned());
    }
    let config = Config::from_lookup(|name| vars.get(name).cloned()).expect("config");
    Services::build(config).await.expect("services")
}

/// Starts a worker of `services` whose schedule queues the pruning at once, then hourly.
async fn start_worker(services: &mut Services, name: &str) -> JoinHandle<()> {
    let mut deps = services.worker_deps();
    let schedule = &mut std::sync::Arc::get_mut(&mut deps).expect("not shared yet").prune;
    schedule.first_after = Duration::ZERO;
    let sources = services.job_sources().await.expect("job sources");
    let settings = WorkerSettings {
        name: name.to_owned(),
        concurrency: 2,
        drain: Duration::from_secs(1),
    };
    tokio::spawn(async move {
        let _ = leadgen_worker::run(&settings, deps, sources, std::future::pending()).await;
    })
}

/// Session ids and sign-in states in the database, sorted.
async fn rows(url: &str) -> (Vec<String>, Vec<String>) {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await.expect("connect");
    let sessions = sqlx::query_scalar("SELECT jti FROM sessions ORDER BY jti")
        .fetch_all(&mut conn)
        .await
        .expect("sessions");
    let sign_ins = sqlx::query_scalar("SELECT state FROM login_attempts ORDER BY state")
        .fetch_all(&mut conn)
        .await
        .expect("sign-ins");
    let _ = conn.close().await;
    (sessions, sign_ins)
}

/// The targets of the audit events left.
async fn audit_targets(url: &str) -> Vec<String> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await.expect("connect");
    let targets = sqlx::query_scalar("SELECT target FROM audit_events ORDER BY target")
        .fetch_all(&mut conn)
        .await
        .expect("audit events");
    let _ = conn.close().await;
    targets
}

/// Sessions expired two days ago, an hour ago and live; sign-ins new and an hour old
/// (in that order: saving a sign-in drops the expired ones); audit events of now and of
/// two years ago.
async fn seed(store: &Store) {
    let user = store
        .upsert_user_on_sign_in(&ProviderIdentity {
            issuer: "https://id.example".into(),
            subject: "pruned".into(),
            email: "pruned@example.com".into(),
            name: None,
            picture: None,
            email_verified: true,
        })
        .await
        .expect("user");
    let now = now_unix();
    for (jti, exp) in [
        ("expired-long-ago", now - 2 * 86_400),
        ("expired-recently", now - 3_600),
        ("live", now + 3_600),
    ] {
        store
            .create_session(&Claims {
                sub: user.id.to_string(),
                jti: jti.into(),
                iat: exp - 7_200,
                exp,
                iss: ISSUER.into(),
            })
            .await
            .expect("session");
    }
    for (state, created_at) in [("pending", now), ("abandoned", now - 3_600)] {
        store
            .save_login_attempt(&LoginAttempt {
                state: state.into(),
                pkce_verifier: "verifier".into(),
                nonce: "nonce".into(),
                feature: None,
                created_at,
            })
            .await
            .expect("sign-in");
    }
    let workspace = leadgen_core::ids::WorkspaceId::personal(&user.id);
    for target in ["recent", "two-years-old"] {
        store
            .insert_audit_event(
                &workspace,
                Some(&user.id),
                leadgen_core::audit::Action::KeySaved,
                target,
                &serde_json::json!({}),
            )
            .await
            .expect("audit event");
    }
    let plan = leadgen_core::search::tiling::Remembered {
        fetches: vec![],
        unfetched: vec![],
    };
    for area in ["fresh-plan", "month-old-plan"] {
        let key = leadgen_core::search::PlanKey {
            query: "dentists".into(),
            area: area.into(),
        };
        store
            .remember_area_plan(&workspace, &key, &plan, 30)
            .await
            .expect("area plan");
    }
}

/// The area digests of the plans left.
async fn plan_areas(url: &str) -> Vec<String> {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await.expect("connect");
    let areas = sqlx::query_scalar("SELECT area_digest FROM area_plans ORDER BY area_digest")
        .fetch_all(&mut conn)
        .await
        .expect("area plans");
    let _ = conn.close().await;
    areas
}

crate::both_modes!(
    expired_sessions_and_sign_ins_are_pruned_on_a_schedule,
    |mode: Mode| async move {
        let db = match mode {
            Mode::Embedded => TestDatabase::sqlite(),
            Mode::Distributed => TestDatabase::postgres().await,
        };
        let prefix = format!("leadgen-test-{}", uuid::Uuid::new_v4().simple());
        let mut first = services(mode, &db, &prefix).await;
        seed(&first.store).await;
        {
            sqlx::any::install_default_drivers();
            let mut conn = sqlx::AnyConnection::connect(&db.url).await.expect("connect");
            sqlx::query("UPDATE audit_events SET at = at - 2 * 365 * 86400 WHERE target = 'two-years-old'")
                .execute(&mut conn)
                .await
                .expect("age an event");
            sqlx::query(
                "UPDATE area_plans SET planned_at = planned_at - 31 * 86400 WHERE area_digest = 'month-old-plan'",
            )
            .execute(&mut conn)
            .await
            .expect("age a plan");
            let _ = conn.close().await;
        }
        let seeded = rows(&db.url).await;
        assert_eq!(seeded.0, ["expired-long-ago", "expired-recently", "live"]);
        assert_eq!(seeded.1, ["abandoned", "pending"]);

        let mut workers = vec![start_worker(&mut first, "prune-a").await];
        let mut second = None;
        if matches!(mode, Mode::Distributed) {
            // A second worker process: both schedules tick at start.
            let mut other = services(mode, &db, &prefix).await;
            workers.push(start_worker(&mut other, "prune-b").await);
            second = Some(other);
        }
        let mut left = rows(&db.url).await;
        let mut audit = audit_targets(&db.url).await;
        let mut plans = plan_areas(&db.url).await;
        for _ in 0..200 {
            if left.0.len() == 2 && left.1.len() == 1 && audit.len() == 1 && plans.len() == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            left = rows(&db.url).await;
            audit = audit_targets(&db.url).await;
            plans = plan_areas(&db.url).await;
        }
        assert_eq!(plans, ["fresh-plan"], "area plans past the memory's 30 days are gone");
        assert_eq!(audit, ["recent"], "audit events past the retention (365 days) are gone");
        assert_eq!(
            left.0,
            ["expired-recently", "live"],
            "sessions expired over a day ago are gone; the rest stay"
        );
        assert_eq!(left.1, ["pending"], "abandoned sign-ins are gone");

        if matches!(mode, Mode::Distributed) {
            // The fleet's lease on the period is held (one job for both workers).
            let client = redis::Client::open(leadgen_testkit::db::redis_url()).expect("client");
            let mut redis = client.get_multiplexed_async_connection().await.expect("redis");
            let ttl: i64 = redis::cmd("PTTL")
                .arg(format!("{prefix}.prune.v1:once"))
                .query_async(&mut redis)
                .await
                .expect("ttl");
            assert!(ttl > 0, "the lease expires, within the period: {ttl} ms");
        }
        for worker in workers {
            worker.abort();
        }
        drop(second);
        first.store.close().await;
    }
);
