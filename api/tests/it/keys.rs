//! Places API keys over HTTP: validation, masking, tenancy, and the live check against
//! the Places simulator.

use std::net::SocketAddr;

use leadgen_testkit::places_sim::PlacesSim;
use serde_json::json;

use crate::{
    both_backends,
    support::{Backend, TestApp},
};

const KEY: &str = "AIzaSyA_alice_0123456789abcdefghijklmno";

async fn app_with_sim(backend: Backend) -> (TestApp, PlacesSim) {
    let sim = PlacesSim::start(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("sim");
    let app = TestApp::start(backend, vec![("LEADGEN_PLACES_BASE_URL", sim.base_url.clone())]).await;
    (app, sim)
}

both_backends!(save_status_and_delete, |backend: Backend| async move {
    let (app, _sim) = app_with_sim(backend).await;
    let (_, token) = app.sign_in("alice").await;
    let (status, body) = app.get("/api/user/api-key/status", Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(
        body,
        json!({"api_key_status": {"has_key": false, "key_preview": null, "is_valid": null}})
    );

    let (status, body) = app
        .post(
            "/api/user/api-key",
            Some(&token),
            Some(json!({"api_key": format!("  {KEY} ")})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "API key saved successfully");
    let preview = body["api_key_status"]["key_preview"].as_str().expect("preview");
    assert!(preview.starts_with("AIza") && preview.ends_with("lmno"));
    assert!(
        !body.to_string().contains("0123456789"),
        "the key is never returned in full"
    );

    let (status, body) = app
        .post("/api/user/api-key", Some(&token), Some(json!({"api_key": ""})))
        .await;
    assert_eq!((status, body["message"].clone()), (200, json!("API key deleted")));
    assert_eq!(
        app.get("/api/user/api-key/status", Some(&token)).await.1["api_key_status"]["has_key"],
        false
    );
});

both_backends!(bad_input_gets_clear_errors, |backend: Backend| async move {
    let (app, _sim) = app_with_sim(backend).await;
    let (_, token) = app.sign_in("alice").await;
    let (status, body) = app
        .post("/api/user/api-key", Some(&token), Some(json!({"api_key": "hello"})))
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["error"], "invalid_api_key");
    assert!(
        body["message"]
            .as_str()
            .expect("message")
            .starts_with("Invalid API key format.")
    );

    let (status, body) = app
        .post("/api/user/api-key", Some(&token), Some(json!({"key": KEY})))
        .await;
    assert_eq!(status, 400, "a body without api_key is refused: {body}");
    assert_eq!(body["error"], "invalid_request");

    let (status, body) = app.post("/api/leads/test-api-key", Some(&token), None).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"], "no_api_key");
});

both_backends!(
    one_user_cannot_touch_another_users_key_or_profile,
    |backend: Backend| async move {
        let (app, _sim) = app_with_sim(backend).await;
        let (_, alice) = app.sign_in("alice").await;
        let (_, bob) = app.sign_in("bob").await;
        app.post("/api/user/api-key", Some(&alice), Some(json!({"api_key": KEY})))
            .await;

        assert_eq!(
            app.get("/api/user/api-key/status", Some(&bob)).await.1["api_key_status"]["has_key"],
            false
        );
        let (_, deleted) = app
            .post("/api/user/api-key", Some(&bob), Some(json!({"api_key": ""})))
            .await;
        assert_eq!(deleted["message"], "No API key was stored");
        assert_eq!(
            app.get("/api/user/api-key/status", Some(&alice)).await.1["api_key_status"]["has_key"],
            true
        );
        assert_eq!(
            app.post("/api/leads/test-api-key", Some(&bob), None).await.1["error"],
            "no_api_key"
        );
        assert_eq!(app.get("/api/auth/me", Some(&bob)).await.1["email"], "bob@example.com");
        app.post("/api/user/complete-onboarding", Some(&bob), None).await;
        assert_eq!(
            app.get("/api/auth/me", Some(&alice)).await.1["needsOnboarding"],
            true,
            "bob's onboarding is not alice's"
        );
    }
);

both_backends!(
    test_api_key_calls_places_and_records_validity,
    |backend: Backend| async move {
        let (app, sim) = app_with_sim(backend).await;
        let (_, token) = app.sign_in("alice").await;
        app.post("/api/user/api-key", Some(&token), Some(json!({"api_key": KEY})))
            .await;
        let (status, body) = app.post("/api/leads/test-api-key", Some(&token), None).await;
        assert_eq!((status, body["valid"].clone()), (200, json!(true)), "{body}");
        assert_eq!(
            app.get("/api/user/api-key/status", Some(&token)).await.1["api_key_status"]["is_valid"],
            true
        );
        assert_eq!(sim.stats().search_text_requests, 1, "one upstream call per test");

        for (key, expected) in [
            ("AIzaSyA_INVALIDKEY_456789abcdefghijklmno", "is not valid"),
            ("AIzaSyA_SERVICEDISABLED_9abcdefghijklmno", "overview?project=1234567"),
            ("AIzaSyA_BILLINGDISABLED_9abcdefghijklmno", "Billing is not enabled"),
            ("AIzaSyA_BLOCKED_0123456789abcdefghijklmno", "restricted"),
        ] {
            app.post("/api/user/api-key", Some(&token), Some(json!({"api_key": key})))
                .await;
            let (status, body) = app.post("/api/leads/test-api-key", Some(&token), None).await;
            assert_eq!(status, 400, "{key}: {body}");
            assert!(
                body["message"].as_str().expect("message").contains(expected),
                "{key}: {body}"
            );
            assert_eq!(
                app.get("/api/user/api-key/status", Some(&token)).await.1["api_key_status"]["is_valid"],
                false
            );
        }

        app.post(
            "/api/user/api-key",
            Some(&token),
            Some(json!({"api_key": "AIzaSyA_QUOTAZERO_0123456789abcdefghijklm"})),
        )
        .await;
        let (status, body) = app.post("/api/leads/test-api-key", Some(&token), None).await;
        assert_eq!(status, 503, "{body}");
        assert_eq!(body["error"], "quota_exhausted");
        assert_eq!(
            app.get("/api/user/api-key/status", Some(&token)).await.1["api_key_status"]["is_valid"],
            json!(null),
            "a passing quota problem says nothing about the key"
        );
    }
);

both_backends!(
    a_typed_key_is_checked_before_it_is_saved_and_nothing_is_stored,
    |backend: Backend| async move {
        let (app, sim) = app_with_sim(backend).await;
        let (_, token) = app.sign_in("typist").await;
        let (status, body) = app
            .post(
                "/api/leads/check-api-key",
                Some(&token),
                Some(json!({"apiKey": format!("  {KEY} ")})),
            )
            .await;
        assert_eq!((status, body["valid"].clone()), (200, json!(true)), "{body}");
        assert_eq!(sim.stats().search_text_requests, 1, "one free upstream call");
        let (status, body) = app
            .post(
                "/api/leads/check-api-key",
                Some(&token),
                Some(json!({"apiKey": "AIzaSyA_INVALIDKEY_456789abcdefghijklmno"})),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert!(
            body["message"].as_str().expect("message").contains("is not valid"),
            "{body}"
        );
        let (status, body) = app
            .post(
                "/api/leads/check-api-key",
                Some(&token),
                Some(json!({"apiKey": "not-a-key"})),
            )
            .await;
        assert_eq!(
            (status, body["error"].clone()),
            (400, json!("invalid_api_key")),
            "{body}"
        );
        assert_eq!(
            sim.stats().search_text_requests,
            2,
            "a malformed key never reaches Google"
        );
        // Nothing was saved or recorded.
        let (_, status) = app.get("/api/user/api-key/status", Some(&token)).await;
        assert_eq!(status["api_key_status"]["has_key"], false, "{status}");
    }
);
