//! Failures: each upstream error becomes its specific message; bad requests and limits
//! are refused before anything is queued; a departing client cancels its search.

use std::time::Duration;

use leadgen_testkit::places_sim::PlacesSim;
use serde_json::json;

use super::env::{KEY, Mode, SearchEnv};
use crate::both_modes;

both_modes!(
    each_upstream_error_produces_its_specific_message,
    |mode: Mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let city = env.dense_city("cafe", 1);
        for (key, expected) in [
            (
                "AIzaSyA_INVALIDKEY_456789abcdefghijklmno",
                "Your Google Places API key is not valid",
            ),
            (
                "AIzaSyA_SERVICEDISABLED_9abcdefghijklmno",
                "Enable it at https://console.developers.google.com/apis/api/places.googleapis.com/overview?project=",
            ),
            (
                "AIzaSyA_BILLINGDISABLED_9abcdefghijklmno",
                "Billing is not enabled for your Google Cloud project",
            ),
            ("AIzaSyA_QUOTAZERO_0123456789abcdefghijklm", "quota is exhausted"),
        ] {
            env.save_key(key).await;
            let (status, events) = env.stream("cafe", &city).await;
            assert_eq!(status, 200);
            let types: Vec<&str> = events.iter().map(|(_, e)| e["type"].as_str().expect("type")).collect();
            assert_eq!(types, vec!["start", "error"], "{key}");
            let message = events[1].1["message"].as_str().expect("message");
            assert!(message.contains(expected), "{key}: {message}");
        }
        // Google answered none of them: none counts toward the month.
        let (_, usage) = env.app.get("/api/leads/usage", Some(&env.token)).await;
        assert_eq!(usage["data"]["usage"]["current"].as_u64(), Some(0), "{usage}");
        // One that Google answered does count.
        env.save_key(KEY).await;
        let (_, events) = env.stream("cafe", &city).await;
        assert_eq!(events.last().expect("events").1["type"], "complete");
        let (_, usage) = env.app.get("/api/leads/usage", Some(&env.token)).await;
        assert_eq!(usage["data"]["usage"]["current"].as_u64(), Some(1), "{usage}");
    }
);

both_modes!(
    a_flaky_upstream_is_retried_without_the_user_noticing,
    |mode: Mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        env.save_key("AIzaSyA_FLAKY_0123456789abcdefghijklmnopq").await;
        let city = env.dense_city("bakery", 45);
        let (_, events) = env.stream("bakery", &city).await;
        let last = &events.last().expect("events").1;
        assert_eq!(last["type"], "complete", "{last}");
        assert!(last["results"].as_array().expect("results").len() >= 45);
    }
);

#[tokio::test]
async fn bad_requests_are_refused_before_anything_is_queued() {
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder(), 0, vec![]).await;
    for (body, status, message) in [
        (
            json!({"location": "Austin"}),
            400,
            "Please select a business type and enter a location",
        ),
        (
            json!({"businessType": "cafe", "location": "   "}),
            400,
            "Please select a business type and enter a location",
        ),
        (
            json!({"businessType": "spaceship", "location": "Austin"}),
            400,
            "Business type 'spaceship' is not a Google place type",
        ),
        (
            json!({"businessType": "cafe", "location": "x".repeat(201)}),
            400,
            "The location is too long",
        ),
    ] {
        let (got, answer) = env
            .app
            .post("/api/leads/search-stream", Some(&env.token), Some(body.clone()))
            .await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(
            answer["message"].as_str().expect("message").starts_with(message),
            "{body}: {answer}"
        );
    }
    env.app
        .post("/api/user/api-key", Some(&env.token), Some(json!({"api_key": ""})))
        .await;
    let (status, answer) = env
        .app
        .post(
            "/api/leads/search",
            Some(&env.token),
            Some(json!({"businessType": "cafe", "location": "Austin"})),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["message"],
        "Please add your Google Places API key in Settings before searching"
    );
    assert_eq!(env.app.post("/api/leads/search", None, Some(json!({}))).await.0, 401);
    assert_eq!(env.sim.stats().search_text_requests, 0, "nothing reached Google");
}

#[tokio::test]
async fn an_exhausted_allowance_is_refused_before_any_upstream_call() {
    let env = SearchEnv::start(
        Mode::Embedded,
        PlacesSim::builder(),
        0,
        vec![("LEADGEN_FREE_MONTHLY_SEARCHES", "1".into())],
    )
    .await;
    let city = env.dense_city("cafe", 1);
    assert_eq!(
        env.stream("cafe", &city).await.1.last().expect("events").1["type"],
        "complete"
    );
    let before = env.sim.stats().search_text_requests;
    let (status, answer) = env
        .app
        .post(
            "/api/leads/search-stream",
            Some(&env.token),
            Some(json!({"businessType": "cafe", "location": city})),
        )
        .await;
    assert_eq!(status, 429);
    assert!(
        answer["message"]
            .as_str()
            .expect("message")
            .contains("searches included this month"),
        "{answer}"
    );
    assert_eq!(env.sim.stats().search_text_requests, before);
    let (_, usage) = env.app.get("/api/leads/usage", Some(&env.token)).await;
    assert_eq!(usage["data"]["status"]["isOverLimit"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_leaves_cancels_its_search() {
    let env = SearchEnv::start(
        Mode::Embedded,
        PlacesSim::builder().latency(Duration::from_millis(400)),
        0,
        vec![],
    )
    .await;
    let city = env.dense_city("restaurant", 60);
    let resp = env
        .app
        .client
        .post("/api/leads/search-stream")
        .header("authorization", format!("Bearer {}", env.token))
        .body_json(&json!({"businessType": "restaurant", "location": city}))
        .send()
        .await;
    assert_eq!(resp.0.status().as_u16(), 200);
    let mut body = resp.0.into_body().into_bytes_stream();
    use futures_util::StreamExt;
    // Read until the start event has arrived (it may follow other bytes), then hang up.
    let mut seen = String::new();
    while !seen.contains("\"start\"") {
        let chunk = body.next().await.expect("more of the stream").expect("bytes");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(!seen.contains("\"complete\""), "hung up before the end");
    drop(body);

    let searches: Vec<_> = (0..50).collect();
    let mut status = String::new();
    for _ in searches {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let row: Option<(String,)> = sqlx::query_as("SELECT status FROM searches")
            .fetch_optional(&sqlx::SqlitePool::connect(&env.app._db.url).await.expect("db"))
            .await
            .expect("query");
        status = row.map(|r| r.0).unwrap_or_default();
        if status != "queued" && status != "running" {
            break;
        }
    }
    assert_eq!(status, "cancelled");
    assert!(
        env.sim.stats().requests_for(KEY) < 3,
        "the remaining pages were never fetched"
    );
}

#[tokio::test]
async fn any_google_place_type_is_offered_and_searched_as_google_lists_it() {
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder(), 1, vec![]).await;
    let (status, types) = env.app.get("/api/leads/business-types", Some(&env.token)).await;
    assert_eq!(status, 200, "{types}");
    let google = types["googleTypes"].as_array().expect("googleTypes");
    let of = |value: &str| google.iter().find(|t| t["value"] == value).cloned();
    assert_eq!(
        of("indian_restaurant"),
        Some(json!({"value": "indian_restaurant", "label": "Indian Restaurant", "textOnly": false}))
    );
    // A type the catalogue lists keeps the catalogue's label.
    assert_eq!(of("rv_park").expect("rv_park")["label"], "RV Park");
    assert!(of("spaceport").is_none());
    assert_eq!(types["groups"].as_array().expect("groups").len(), 13);

    // The simulator, like Google, refuses an `includedType` outside Table A: a search
    // that completes was sent one Google accepts.
    env.save_key(KEY).await;
    let city = env.dense_city("cafe", 1);
    for value in ["vegan_restaurant", "electrician"] {
        let (status, events) = env.stream(value, &city).await;
        assert_eq!(status, 200, "{value}");
        let last = &events.last().expect("events").1;
        assert_eq!(last["type"], "complete", "{value}: {last}");
        assert_eq!(last["search"]["businessType"], value);
    }
}
