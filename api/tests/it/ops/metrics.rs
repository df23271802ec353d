//! `/metrics` on the API and on the worker's ops server expose the series operators need.

use std::time::Duration;

use leadgen_core::jobs::{PruneJobV1, SearchJobV1};
use leadgen_testkit::places_sim::PlacesSim;
use leadgen_worker::{jobs::registry, ops_server, queue};

use crate::search::env::{Mode, SearchEnv};

/// The value of the first sample whose line starts with `series` (name and labels).
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find(|l| l.starts_with(series))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

/// The API's `/metrics`, from its own listener's application.
async fn scrape(env: &SearchEnv) -> String {
    let metrics = poem::test::TestClient::new(leadgen_api::telemetry::metrics_app(env.app.state.clone()));
    let resp = metrics.get("/metrics").send().await;
    resp.assert_status_is_ok();
    let content_type = resp
        .0
        .headers()
        .get("content-type")
        .expect("content type")
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        content_type.starts_with("application/openmetrics-text"),
        "{content_type}"
    );
    resp.0.into_body().into_string().await.expect("body")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_counts_requests_streams_jobs_and_places_calls() {
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder(), 0, vec![]).await;
    let before = scrape(&env).await;
    let searches_before = sample(
        &before,
        r#"leadgen_http_requests_total{method="POST",route="search_leads_stream",status="200"}"#,
    )
    .unwrap_or(0.0);
    let places_before = sample(&before, r#"leadgen_places_requests_total{outcome="ok"}"#).unwrap_or(0.0);
    let jobs_before = sample(&before, r#"leadgen_jobs_total{outcome="succeeded"}"#).unwrap_or(0.0);
    let first_leads_before = sample(&before, "leadgen_search_first_lead_seconds_count").unwrap_or(0.0);
    let enterprise_before = sample(&before, r#"leadgen_places_sku_requests_total{sku="enterprise"}"#).unwrap_or(0.0);
    let cost_before = sample(&before, r#"leadgen_places_cost_usd_total{sku="enterprise"}"#).unwrap_or(0.0);

    let city = env.dense_city("restaurant", 45);
    let (status, events) = env.stream("restaurant", &city).await;
    assert_eq!(status, 200);
    assert_eq!(events.last().expect("events").1["type"], "complete");
    let (status, _) = env.app.get("/api/leads/nope", Some(&env.token)).await;
    assert_eq!(status, 404);
    let (status, _) = env.app.get("/api/ready", None).await;
    assert_eq!(status, 200);

    // The job's counters move just after its last event; give it a moment.
    let mut after = scrape(&env).await;
    for _ in 0..50 {
        if sample(&after, r#"leadgen_jobs_total{outcome="succeeded"}"#).unwrap_or(0.0) > jobs_before {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        after = scrape(&env).await;
    }
    let searches = sample(
        &after,
        r#"leadgen_http_requests_total{method="POST",route="search_leads_stream",status="200"}"#,
    )
    .expect("search requests counted");
    assert!(searches >= searches_before + 1.0, "{searches} after {searches_before}");
    assert!(
        sample(
            &after,
            r#"leadgen_http_requests_total{method="GET",route="unmatched",status="404"}"#
        )
        .is_some(),
        "unknown API paths are counted under one label:\n{after}"
    );
    assert!(
        sample(&after, r#"leadgen_places_requests_total{outcome="ok"}"#).expect("places calls") >= places_before + 3.0,
        "a 45-lead search takes three pages"
    );
    assert!(sample(&after, r#"leadgen_jobs_total{outcome="succeeded"}"#).expect("jobs") > jobs_before);
    // The first-lead SLO's histogram counts the search once, however many pages it took.
    assert!(
        sample(&after, "leadgen_search_first_lead_seconds_count").expect("first lead") >= first_leads_before + 1.0,
        "{after}"
    );
    let enterprise = sample(&after, r#"leadgen_places_sku_requests_total{sku="enterprise"}"#).expect("by SKU");
    assert!(
        enterprise >= enterprise_before + 3.0,
        "three lead pages: {enterprise} after {enterprise_before}"
    );
    let cost = sample(&after, r#"leadgen_places_cost_usd_total{sku="enterprise"}"#).expect("cost");
    assert!(
        cost >= cost_before + 0.1,
        "three pages at $35 per 1,000: {cost} after {cost_before}"
    );
    assert_eq!(
        sample(&after, r#"leadgen_dependency_up{dependency="store"}"#),
        Some(1.0),
        "the readiness check reached the store:\n{after}"
    );
    assert!(
        sample(
            &after,
            r#"leadgen_http_request_duration_seconds_count{method="POST",route="search_leads_stream"}"#
        )
        .is_some(),
        "latency histogram by route:\n{after}"
    );
    for series in [
        "leadgen_sse_streams_open",
        "leadgen_queue_depth",
        "leadgen_jobs_running",
        "leadgen_job_duration_seconds_count",
        "leadgen_rate_limit_waits_total",
        "leadgen_rate_limit_wait_seconds_count",
    ] {
        assert!(sample(&after, series).is_some(), "{series} missing:\n{after}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_stream_is_counted_until_it_ends() {
    let env = SearchEnv::start(
        Mode::Embedded,
        PlacesSim::builder().latency(Duration::from_millis(1_500)),
        0,
        vec![],
    )
    .await;
    let city = env.dense_city("cafe", 10);
    let search = async {
        let resp = env
            .app
            .client
            .post("/api/leads/search-stream")
            .header("authorization", format!("Bearer {}", env.token))
            .body_json(&serde_json::json!({"businessType": "cafe", "location": city}))
            .send()
            .await;
        resp.0.into_body().into_string().await.expect("body")
    };
    let watch = async {
        let mut open = 0.0;
        for _ in 0..40 {
            open = sample(&scrape(&env).await, "leadgen_sse_streams_open").unwrap_or(0.0);
            if open >= 1.0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        open
    };
    let (body, open) = tokio::join!(search, watch);
    assert!(open >= 1.0, "the open stream is counted");
    assert!(body.contains(r#""type":"complete""#), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_worker_ops_server_reports_queue_depth_and_health() {
    leadgen_core::install_crypto_provider();
    let url = leadgen_testkit::db::redis_url();
    let prefix = format!("leadgen-test-{}", uuid::Uuid::new_v4().simple());
    let queues = registry::redis(&url, &prefix).await.expect("queues");
    for i in 0..3 {
        queues
            .search
            .push(SearchJobV1 {
                search_id: format!("s{i}").into(),
                user_id: "u".into(),
                workspace_id: None,
                search: leadgen_core::search::ValidSearch::parse(Some("cafe"), Some("Austin")).expect("valid"),
                lead_budget: 60,
                saved_run: None,
            })
            .await
            .expect("push");
    }
    queues.prune.push(PruneJobV1 { queued_at: 0 }).await.expect("push");
    assert_eq!(queues.search.depth().await.expect("depth"), 3);
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let waiting = queues.waiting().await;
    assert_eq!(
        waiting.iter().map(|w| (w.queue, w.depth)).collect::<Vec<_>>(),
        registry::QUEUES
            .iter()
            .map(|q| (*q, i64::from(*q == "search.v1") * 3 + i64::from(*q == "prune.v1")))
            .collect::<Vec<_>>(),
        "every kind's queue is read"
    );

    let addr = ops_server::spawn("127.0.0.1:0".parse().expect("addr"), queues)
        .await
        .expect("ops server");
    leadgen_core::install_crypto_provider();
    let http = reqwest::Client::new();
    let health = http
        .get(format!("http://{addr}/healthz"))
        .send()
        .await
        .expect("healthz");
    assert_eq!(health.status(), 200);
    let text = http
        .get(format!("http://{addr}/metrics"))
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    for queue in registry::QUEUES {
        let series = format!("leadgen_queue_depth{{queue=\"{queue}\"}}");
        assert!(sample(&text, &series).is_some(), "{series} missing:\n{text}");
    }
    assert!(sample(&text, "leadgen_jobs_running").is_some(), "{text}");
    // Nothing takes the three jobs: the first has waited over a second, and not for ages.
    let age = sample(&text, "leadgen_queue_oldest_age_seconds{queue=\"search.v1\"}").expect("oldest age");
    assert!((1.0..60.0).contains(&age), "{age}\n{text}");
    let idle = format!("leadgen-test-{}", uuid::Uuid::new_v4().simple());
    let idle_queue = registry::redis(&url, &idle).await.expect("queues").search;
    assert_eq!(
        idle_queue.oldest_age_secs().await.expect("age"),
        0.0,
        "an empty queue has waited for nothing"
    );
    // A job at the head of the ready line: its age is its ULID's time.
    let mut conn = redis::aio::ConnectionManager::new(redis::Client::open(url.as_str()).expect("client"))
        .await
        .expect("redis");
    let made = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as u64
        - 30_000;
    let ready = format!("{}:ready", queue::queue_name(&idle, leadgen_core::jobs::SEARCH_QUEUE));
    let _: () = redis::cmd("RPUSH")
        .arg(&ready)
        .arg(ulid_at(made))
        .query_async(&mut conn)
        .await
        .expect("rpush");
    let age = idle_queue.oldest_age_secs().await.expect("age");
    let _: () = redis::cmd("DEL").arg(&ready).query_async(&mut conn).await.expect("del");
    assert!((29.0..40.0).contains(&age), "a job made 30 s ago: {age}");
}

/// A ULID made at `ms` (Crockford base 32, time then zeros), as the queue names jobs.
fn ulid_at(ms: u64) -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let time: String = (0..10)
        .rev()
        .map(|i| ALPHABET[((ms >> (5 * i)) & 31) as usize] as char)
        .collect();
    format!("{time}{}", "0".repeat(16))
}
