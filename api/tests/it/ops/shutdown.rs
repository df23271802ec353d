//! On SIGTERM the API stops being ready and ends open streams with a clear event, so it
//! can exit within its grace period.

use std::time::Duration;

use leadgen_api::relay::SERVER_STOPPING;
use leadgen_testkit::places_sim::PlacesSim;

use crate::search::env::{Mode, SearchEnv, parse_sse};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_ends_open_streams_with_a_message_and_fails_readiness() {
    let env = SearchEnv::start(
        Mode::Embedded,
        PlacesSim::builder().latency(Duration::from_secs(3)),
        0,
        vec![],
    )
    .await;
    let (status, ready) = env.app.get("/api/ready", None).await;
    assert_eq!(status, 200, "{ready}");
    assert_eq!(ready["stopping"], false);

    let city = env.dense_city("cafe", 10);
    let stream = async {
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
    let stop = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        env.app.state.begin_shutdown();
    };
    let (body, ()) = tokio::time::timeout(Duration::from_secs(2), async { tokio::join!(stream, stop) })
        .await
        .expect("the stream ends well before the upstream answers");
    let events = parse_sse(&body);
    let last = &events.last().expect("events").1;
    assert_eq!(last["type"], "error", "{body}");
    assert_eq!(last["message"], SERVER_STOPPING);
    assert!(
        !events.iter().any(|(_, e)| e["type"] == "complete"),
        "the search did not get to finish"
    );

    let (status, ready) = env.app.get("/api/ready", None).await;
    assert_eq!(status, 503, "{ready}");
    assert_eq!(ready["stopping"], true);
}
