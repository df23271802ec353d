//! Liveness, readiness in both modes, the API docs, and errors for unknown routes.

use serde_json::json;

use crate::support::{Backend, TestApp};

#[tokio::test]
async fn distributed_mode_is_ready_with_postgres_and_redis() {
    let app = TestApp::start(Backend::Postgres, vec![("REDIS_URL", leadgen_testkit::db::redis_url())]).await;
    assert!(!app.state.config.is_embedded());
    let (status, body) = app.get("/api/ready", None).await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!({"status": "ready", "store": true, "queue": true, "bus": true, "stopping": false})
    );
}

#[tokio::test]
async fn an_unreachable_redis_stops_start_up_with_a_clear_message() {
    leadgen_core::install_crypto_provider();
    let db = leadgen_testkit::db::TestDatabase::sqlite();
    let vars = [
        ("DATABASE_URL", db.url.clone()),
        ("REDIS_URL", "redis://127.0.0.1:1".to_owned()),
        ("LEADGEN_ENCRYPTION_KEY", crate::support::TEST_ENCRYPTION_KEY.to_owned()),
        ("LEADGEN_JWT_SECRET", crate::support::TEST_JWT_SECRET.to_owned()),
    ];
    let config =
        leadgen_core::config::Config::from_lookup(|n| vars.iter().find(|(k, _)| *k == n).map(|(_, v)| v.clone()))
            .expect("config");
    let err = leadgen_api::state::AppState::build(config)
        .await
        .err()
        .expect("must fail");
    assert!(
        format!("{err:#}").contains("connecting to Redis at redis://127.0.0.1:1"),
        "{err:#}"
    );
}

#[tokio::test]
async fn health_docs_and_unknown_routes() {
    let app = TestApp::start(Backend::Sqlite, vec![]).await;
    let (status, body) = app.get("/api/health", None).await;
    assert_eq!((status, body["status"].clone()), (200, json!("ok")));
    assert_eq!(app.get("/api/ready", None).await.1["status"], "ready");

    let (status, spec) = app.get("/api/openapi.json", None).await;
    assert_eq!(status, 200);
    assert!(spec["paths"]["/api/user/api-key"]["post"]["operationId"] == "save_api_key");
    let docs = app.client.get("/api/docs/").send().await;
    assert_eq!(docs.0.status().as_u16(), 200);

    let (status, body) = app.get("/api/no-such-thing", None).await;
    assert_eq!(status, 404);
    assert_eq!(body, json!({"error": "not_found", "message": "Not found"}));
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let app = TestApp::start(Backend::Sqlite, vec![]).await;
    for path in [
        "/api/health",
        "/api/leads/usage",
        "/no/such/page",
        "/auth/success?token=x",
    ] {
        let resp = app.client.get(path).send().await;
        let headers = resp.0.headers();
        assert_eq!(headers["referrer-policy"], "no-referrer", "{path}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
        let csp = headers["content-security-policy"].to_str().expect("csp");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("script-src 'self' 'unsafe"),
            "{path}: {csp}"
        );
    }
    // The map (#30 item 5) may fetch from its style's origin, and from no other.
    let csp = app.client.get("/dashboard").send().await;
    let csp = csp.0.headers()["content-security-policy"]
        .to_str()
        .expect("csp")
        .to_owned();
    let directive = |name: &str| {
        csp.split(';')
            .map(str::trim)
            .find(|d| d.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} in {csp}"))
            .to_owned()
    };
    assert_eq!(
        directive("connect-src"),
        "connect-src 'self' https://tiles.openfreemap.org"
    );
    assert!(
        directive("img-src").ends_with(" https://tiles.openfreemap.org"),
        "{csp}"
    );
    assert_eq!(directive("worker-src"), "worker-src 'self'");

    // The interactive docs run an inline script: they may not be framed, nothing more.
    let resp = app.client.get("/api/docs").send().await;
    assert_eq!(resp.0.headers()["content-security-policy"], "frame-ancestors 'none'");
}

#[tokio::test]
async fn the_policy_lets_the_map_reach_its_styles_origin_only() {
    let app = TestApp::start(
        Backend::Sqlite,
        vec![(
            "LEADGEN_MAP_STYLE_URL",
            "https://maps.agency.example:8443/style.json".into(),
        )],
    )
    .await;
    let resp = app.client.get("/dashboard").send().await;
    let csp = resp.0.headers()["content-security-policy"]
        .to_str()
        .expect("csp")
        .to_owned();
    assert!(
        csp.contains("connect-src 'self' https://maps.agency.example:8443;"),
        "{csp}"
    );
    assert!(!csp.contains("openfreemap"), "{csp}");

    let app = TestApp::start(Backend::Sqlite, vec![("LEADGEN_MAP_STYLE_URL", "none".into())]).await;
    let resp = app.client.get("/dashboard").send().await;
    let csp = resp.0.headers()["content-security-policy"]
        .to_str()
        .expect("csp")
        .to_owned();
    assert!(csp.contains("connect-src 'self';"), "{csp}");
    assert!(csp.contains("img-src 'self' data: https:;"), "{csp}");
}
