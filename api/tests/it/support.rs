//! Builds an app on a fresh database and signs users in.

use std::collections::HashMap;

use leadgen_api::{app, auth, state::AppState};
use leadgen_core::{config::Config, user::ProviderIdentity};
use leadgen_testkit::db::TestDatabase;
use poem::{EndpointExt, endpoint::BoxEndpoint, test::TestClient};
use serde_json::Value;

/// Test master key and session secret (tests only).
pub const TEST_ENCRYPTION_KEY: &str = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=";
pub const TEST_JWT_SECRET: &str = "test-session-secret-of-at-least-32-bytes!";

#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// An app on its own database.
pub struct TestApp {
    pub state: AppState,
    pub client: TestClient<BoxEndpoint<'static>>,
    /// Kept so the database lives as long as the app.
    pub _db: TestDatabase,
}

/// Settings on top of the defaults.
pub type Vars = Vec<(&'static str, String)>;

impl TestApp {
    pub async fn start(backend: Backend, extra: Vars) -> Self {
        leadgen_core::install_crypto_provider();
        // Logs only when asked for (RUST_LOG=...), shown with the failing test's output.
        if std::env::var_os("RUST_LOG").is_some() {
            let _ = tracing_subscriber::fmt()
                .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
                .with_test_writer()
                .try_init();
        }
        let db = match backend {
            Backend::Sqlite => TestDatabase::sqlite(),
            Backend::Postgres => TestDatabase::postgres().await,
        };
        let mut vars: HashMap<&str, String> = HashMap::from([
            ("DATABASE_URL", db.url.clone()),
            ("LEADGEN_ENCRYPTION_KEY", TEST_ENCRYPTION_KEY.to_owned()),
            ("LEADGEN_JWT_SECRET", TEST_JWT_SECRET.to_owned()),
            ("LEADGEN_PUBLIC_URL", "http://127.0.0.1:8080".to_owned()),
            ("LEADGEN_WEB_DIR", "/nonexistent".to_owned()),
        ]);
        // A test's API keeps 4 connections rather than the default 16: each opens in about
        // 90 ms here, paid at every test's start.
        vars.entry("LEADGEN_DATABASE_CONNECTIONS").or_insert("4".to_owned());
        vars.extend(extra);
        // The simulator speaks the Places Aggregate API too: a test that points Places at
        // it gets the completeness meter from it, never Google's.
        if let Some(places) = vars.get("LEADGEN_PLACES_BASE_URL").cloned() {
            vars.entry("LEADGEN_AGGREGATE_BASE_URL").or_insert(places);
        }
        let config = Config::from_lookup(|name| vars.get(name).cloned()).expect("config");
        let state = AppState::build(config).await.expect("state");
        let endpoint = app::build(state.clone()).map_to_response().boxed();
        Self {
            client: TestClient::new(endpoint),
            state,
            _db: db,
        }
    }

    /// Signs in a user with this subject (as if through the provider) and returns a token.
    pub async fn sign_in(&self, subject: &str) -> (leadgen_core::ids::UserId, String) {
        let user = self
            .state
            .store
            .upsert_user_on_sign_in(&ProviderIdentity {
                issuer: "https://id.example".into(),
                subject: subject.into(),
                email: format!("{subject}@example.com"),
                name: Some(subject.into()),
                picture: None,
                email_verified: true,
            })
            .await
            .expect("user");
        let token = auth::start_session(&self.state, &user.id).await.expect("session");
        (user.id, token)
    }

    /// Serves the whole application on `listener` as the binary does (our hyper server,
    /// its limits), until the test ends.
    pub fn serve_on(&self, listener: tokio::net::TcpListener) {
        let endpoint = app::build(self.state.clone());
        let limits = leadgen_api::server::ServerLimits::from_config(
            &self.state.config.server.http_limits,
            std::time::Duration::from_secs(1),
        );
        tokio::spawn(leadgen_api::server::serve(
            listener,
            endpoint,
            std::future::pending(),
            limits,
        ));
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut req = self.client.get(path);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        read(req.send().await).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Option<Value>) -> (u16, Value) {
        let mut req = self.client.post(path);
        if let Some(t) = token {
            req = req.header("authorization", format!("Bearer {t}"));
        }
        if let Some(b) = body {
            req = req.body_json(&b);
        }
        read(req.send().await).await
    }
}

/// A listener bound now on loopback, and its port (for settings that name our port).
pub async fn reserve_port() -> (tokio::net::TcpListener, u16) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("addr").port();
    (listener, port)
}

async fn read(resp: poem::test::TestResponse) -> (u16, Value) {
    let status = resp.0.status().as_u16();
    let text = resp.0.into_body().into_string().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// Defines `name::sqlite` and `name::postgres` from `|backend| async move { ... }`.
#[macro_export]
macro_rules! both_backends {
    ($name:ident, $body:expr) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test]
            async fn sqlite() {
                ($body)($crate::support::Backend::Sqlite).await;
            }

            #[tokio::test]
            async fn postgres() {
                ($body)($crate::support::Backend::Postgres).await;
            }
        }
    };
}
