//! Refusals name the field and the rule, never a parser's text (#26 item 8).

use serde_json::{Value, json};

use crate::support::{Backend, TestApp};

#[tokio::test]
async fn unreadable_bodies_and_parameters_are_refused_in_plain_words() {
    let app = TestApp::start(Backend::Sqlite, vec![]).await;
    let (_, token) = app.sign_in("plain").await;
    let cases = [
        (
            json!({"businessType": "restaurant", "location": "x".repeat(5400)}),
            "Location is at most 400 characters.",
        ),
        (
            json!({"businessType": "restaurant", "location": "Austin", "minReviews": 1e20}),
            "minReviews must be a whole number from 0 to 1000000.",
        ),
        (
            json!({"businessType": "restaurant", "location": "Austin", "coverage": "everything"}),
            "Coverage must be one of \"quick\", \"full\".",
        ),
        (
            json!({"businessType": "restaurant", "location": 5}),
            "Location must be text.",
        ),
    ];
    for (body, expected) in cases {
        for path in ["/api/leads/search", "/api/leads/estimate", "/api/leads/search-stream"] {
            let (status, answer) = app.post(path, Some(&token), Some(body.clone())).await;
            assert_eq!(status, 400, "{path}");
            assert_eq!(
                answer,
                json!({"error": "invalid_request", "message": expected}),
                "{path} {body}"
            );
        }
    }
    let resp = app
        .client
        .post("/api/user/tokens")
        .header("authorization", format!("Bearer {token}"))
        .content_type("application/json")
        .body("{not json")
        .send()
        .await;
    let answer: Value = serde_json::from_str(&resp.0.into_body().into_string().await.expect("body")).expect("json");
    let message = answer["message"].as_str().expect("message");
    assert!(message.starts_with("The body is not valid JSON ("), "{message}");
    let (status, answer) = app.get("/api/leads/searches?limit=abc", Some(&token)).await;
    assert_eq!(status, 400);
    assert_eq!(answer["message"], "Parameter limit must be a whole number.");
    // An id is parsed at the edge: a malformed one is refused, never looked up.
    for (method, path) in [
        ("get", "/api/leads/searches/s-1"),
        ("post", "/api/leads/searches/..%2F..%2Fetc/cancel"),
        ("delete", "/api/user/tokens/1%20OR%201=1"),
        ("get", "/api/user/webhooks/nope/deliveries"),
    ] {
        let req = match method {
            "get" => app.client.get(path),
            "post" => app.client.post(path),
            _ => app.client.delete(path),
        };
        let resp = req.header("authorization", format!("Bearer {token}")).send().await;
        assert_eq!(resp.0.status(), 400, "{path}");
        let answer: Value = serde_json::from_str(&resp.0.into_body().into_string().await.expect("body")).expect("json");
        assert_eq!(
            answer,
            json!({"error": "invalid_request", "message": "Parameter id must be an id this API gave (a UUID)."}),
            "{path}"
        );
    }
    // A well-formed id of nothing is still 404.
    let (status, _) = app
        .get("/api/leads/searches/0192d5c1-8b1c-7d2e-9a3b-4c5d6e7f8091", Some(&token))
        .await;
    assert_eq!(status, 404);
    // What core refuses keeps core's message.
    let (status, answer) = app
        .post(
            "/api/leads/search",
            Some(&token),
            Some(json!({"businessType": "restaurant", "location": "Austin", "minReviews": 2000000})),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        answer["message"],
        "minReviews must be a whole number from 0 to 1000000."
    );
}
