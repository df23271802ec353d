//! Quota, injected failures and latency.

use std::time::{Duration, Instant};

use leadgen_testkit::places_sim::PlacesSim;
use serde_json::json;

use crate::{
    any_port,
    http::{KEY, search, search_within},
};

const OTHER_KEY: &str = "AIzaSyA_other_0123456789abcdefghijklmno";

#[tokio::test]
async fn per_key_quota_answers_429_with_retry_info() {
    let sim = PlacesSim::builder().rpm_quota(3).start(any_port()).await.expect("sim");
    let body = json!({"textQuery": "Cafe in Miami"});
    for n in 1..=3 {
        assert_eq!(
            search(&sim.base_url, KEY, "places.id", &body).await.status,
            200,
            "request {n}"
        );
    }
    let refused = search(&sim.base_url, KEY, "places.id", &body).await;
    assert_eq!(refused.status, 429);
    assert_eq!(refused.error_status(), "RESOURCE_EXHAUSTED");
    assert!(refused.error_message().contains("per minute"), "{}", refused.body);
    let details = refused.body["error"]["details"].as_array().cloned().unwrap_or_default();
    let info = details
        .iter()
        .find(|d| d["@type"] == "type.googleapis.com/google.rpc.ErrorInfo")
        .expect("ErrorInfo");
    assert_eq!(info["reason"], "RATE_LIMIT_EXCEEDED");
    assert_eq!(info["metadata"]["quota_limit_value"], "3");
    let retry = details
        .iter()
        .find(|d| d["@type"] == "type.googleapis.com/google.rpc.RetryInfo")
        .and_then(|d| d["retryDelay"].as_str())
        .expect("RetryInfo.retryDelay");
    let seconds: f64 = retry.trim_end_matches('s').parse().expect("seconds");
    assert!(retry.ends_with('s') && seconds > 55.0 && seconds <= 60.0, "{retry}");

    assert_eq!(
        search(&sim.base_url, OTHER_KEY, "places.id", &body).await.status,
        200,
        "quota is per key"
    );
    let stats = sim.stats();
    assert_eq!(stats.requests_for(KEY), 4, "refused requests are still requests");
    assert_eq!(stats.billable_requests, 4, "but not billed");
}

#[tokio::test]
async fn flaky_key_fails_the_first_try_of_each_body_then_succeeds() {
    let sim = crate::sim().await;
    let flaky = "AIzaSyA_FLAKY_0123456789abcdefghijklmnop";
    let body = json!({"textQuery": "Bakery in Atlanta"});

    let first = search(&sim.base_url, flaky, "places.id", &body).await;
    assert_eq!(first.status, 503);
    assert_eq!(first.error_status(), "UNAVAILABLE");
    assert_eq!(first.body["error"]["code"], 503);

    let retry = search(&sim.base_url, flaky, "places.id", &body).await;
    assert_eq!(retry.status, 200);
    assert_eq!(retry.places().len(), 20);

    let other_body = json!({"textQuery": "Bakery in Atlanta", "pageSize": 5});
    assert_eq!(search(&sim.base_url, flaky, "places.id", &other_body).await.status, 503);
    assert_eq!(search(&sim.base_url, flaky, "places.id", &other_body).await.status, 200);
    assert_eq!(
        search(&sim.base_url, KEY, "places.id", &body).await.status,
        200,
        "plain keys never fail"
    );
}

#[tokio::test]
async fn slow_key_outlasts_a_client_timeout() {
    let sim = PlacesSim::builder()
        .slow_delay(Duration::from_millis(800))
        .start(any_port())
        .await
        .expect("sim");
    let slow = "AIzaSyA_SLOW_0123456789abcdefghijklmnopq";
    let body = json!({"textQuery": "Bar in Boston"});
    let gave_up = search_within(&sim.base_url, slow, "places.id", &body, Duration::from_millis(300)).await;
    assert!(gave_up.is_none(), "no answer within the client's timeout");
    let stats = sim.stats();
    assert_eq!((stats.in_flight_requests, stats.billable_requests), (1, 0), "{stats:?}");
    // The client hung up; the server finishes the work and bills it anyway.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let stats = sim.stats();
    assert_eq!((stats.in_flight_requests, stats.billable_requests), (0, 1), "{stats:?}");

    let started = Instant::now();
    let answered = search_within(&sim.base_url, slow, "places.id", &body, Duration::from_secs(5)).await;
    assert!(answered.is_some_and(|r| r.status == 200));
    assert!(started.elapsed() >= Duration::from_millis(800));
    assert_eq!(
        sim.stats().repeated_requests,
        1,
        "asking again for what a hung-up client never saw is paid twice"
    );

    let quick = Instant::now();
    search(&sim.base_url, KEY, "places.id", &body).await;
    assert!(quick.elapsed() < Duration::from_millis(500), "only SLOW keys wait");
    assert_eq!(sim.config().slow_delay, Duration::from_millis(800));
}

#[tokio::test]
async fn latency_jitter_and_fault_rate_apply_to_every_request() {
    let slow = PlacesSim::builder()
        .latency(Duration::from_millis(150))
        .jitter(Duration::from_millis(50))
        .start(any_port())
        .await
        .expect("sim");
    let body = json!({"textQuery": "Spa in Phoenix"});
    let started = Instant::now();
    assert_eq!(search(&slow.base_url, KEY, "places.id", &body).await.status, 200);
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(150), "{took:?}");

    let broken = PlacesSim::builder()
        .fault_rate(1.0)
        .start(any_port())
        .await
        .expect("sim");
    for _ in 0..3 {
        let reply = search(&broken.base_url, KEY, "places.id", &body).await;
        assert_eq!((reply.status, reply.error_status()), (503, "UNAVAILABLE"));
    }
    assert_eq!(broken.stats().billable_requests, 0);
}
