//! Webhooks (#15): endpoints, Standard Webhooks signatures checked by a verifier written
//! here from the specification (not the code that signs), retries on 5xx and time-outs,
//! disabling after the last attempt, no delivery to refused addresses, once per event,
//! and the delivery log (never the payload).

use std::{
    net::SocketAddr,
    sync::{Arc, Mutex},
    time::Duration,
};

use base64::{Engine, engine::general_purpose::STANDARD};
use hmac::{Hmac, Mac};
use leadgen_core::ids::WorkspaceId;
use poem::{
    EndpointExt, Response, Route, Server, handler,
    http::{HeaderMap, StatusCode},
    listener::{Acceptor, Listener, TcpListener},
    web::Data,
};
use serde_json::{Value, json};
use sha2::Sha256;

use crate::{
    search::{
        env::{Mode, SearchEnv},
        no_lead_at_rest::all_stored_text,
    },
    support::{Backend, TestApp},
};

/// What the receiver does with each request in turn; the last one repeats.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Answer {
    Status(u16),
    /// Answers 200 after this long (longer than the delivery time-out: a time-out).
    Slow(Duration),
    /// Redirects (307) to this address.
    Redirect(&'static str),
}

/// One request the receiver got.
#[derive(Clone, Debug)]
pub(crate) struct Received {
    pub(crate) headers: HeaderMap,
    pub(crate) body: String,
}

#[derive(Default)]
struct Log {
    received: Vec<Received>,
    script: Vec<Answer>,
}

/// A webhook receiver on 127.0.0.1.
pub(crate) struct Receiver {
    addr: SocketAddr,
    log: Arc<Mutex<Log>>,
}

#[handler]
async fn receive(body: String, headers: &HeaderMap, log: Data<&Arc<Mutex<Log>>>) -> Response {
    let answer = {
        let mut log = log.lock().expect("log");
        let n = log.received.len();
        log.received.push(Received {
            headers: headers.clone(),
            body,
        });
        *log.script.get(n).or(log.script.last()).unwrap_or(&Answer::Status(200))
    };
    match answer {
        Answer::Status(code) => Response::builder()
            .status(StatusCode::from_u16(code).expect("status"))
            .body("ok"),
        Answer::Redirect(to) => Response::builder()
            .status(StatusCode::TEMPORARY_REDIRECT)
            .header("location", to)
            .body(""),
        Answer::Slow(wait) => {
            tokio::time::sleep(wait).await;
            Response::builder().status(StatusCode::OK).body("late")
        }
    }
}

impl Receiver {
    pub(crate) async fn start(script: Vec<Answer>) -> Self {
        let acceptor = TcpListener::bind("127.0.0.1:0").into_acceptor().await.expect("bind");
        let addr = *acceptor.local_addr()[0].as_socket_addr().expect("addr");
        let log = Arc::new(Mutex::new(Log {
            received: Vec::new(),
            script,
        }));
        let app = Route::new().at("/hook", poem::post(receive)).data(log.clone());
        tokio::spawn(async move {
            let _ = Server::new_with_acceptor(acceptor).run(app).await;
        });
        Self { addr, log }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://{}/hook", self.addr)
    }

    pub(crate) fn allow(&self) -> (&'static str, String) {
        ("LEADGEN_OUTBOUND_ALLOWED_HOSTS", self.addr.to_string())
    }

    pub(crate) fn received(&self) -> Vec<Received> {
        self.log.lock().expect("log").received.clone()
    }

    /// Waits until `n` requests arrived (or fails after 20 s).
    pub(crate) async fn wait_for(&self, n: usize) -> Vec<Received> {
        for _ in 0..400 {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("expected {n} deliveries, got {}", self.received().len());
    }
}

/// The Standard Webhooks verification, written from the specification: the signed
/// content is `{webhook-id}.{webhook-timestamp}.{body}`, the key is the base64 after
/// `whsec_`, the header holds space-separated `v1,<base64 HMAC-SHA256>` signatures, and
/// the timestamp must be within five minutes.
pub(crate) fn verify(secret: &str, received: &Received) -> Result<Value, String> {
    let header = |name: &str| {
        received
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .ok_or(format!("missing {name}"))
    };
    let id = header("webhook-id")?;
    let timestamp = header("webhook-timestamp")?;
    let signatures = header("webhook-signature")?;
    let at: i64 = timestamp.parse().map_err(|_| "bad timestamp".to_string())?;
    if (leadgen_core::time::now_unix() - at).abs() > 300 {
        return Err("timestamp out of tolerance".into());
    }
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").ok_or("no whsec_ prefix")?)
        .map_err(|_| "secret not base64")?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(|e| e.to_string())?;
    mac.update(format!("{id}.{timestamp}.{}", received.body).as_bytes());
    let expected = STANDARD.encode(mac.finalize().into_bytes());
    let ok = signatures
        .split(' ')
        .filter_map(|s| s.strip_prefix("v1,"))
        .any(|s| s == expected);
    if !ok {
        return Err("no signature matches".into());
    }
    serde_json::from_str(&received.body).map_err(|e| e.to_string())
}

fn quick(receiver: &Receiver, max_attempts: u32) -> Vec<(&'static str, String)> {
    vec![
        receiver.allow(),
        ("LEADGEN_WEBHOOK_TIMEOUT_SECS", "1".into()),
        ("LEADGEN_WEBHOOK_FIRST_RETRY_MS", "50".into()),
        ("LEADGEN_WEBHOOK_MAX_ATTEMPTS", max_attempts.to_string()),
    ]
}

pub(crate) async fn register(app: &TestApp, token: &str, url: &str, events: Value) -> (String, String) {
    let (status, created) = app
        .post(
            "/api/user/webhooks",
            Some(token),
            Some(json!({"url": url, "events": events})),
        )
        .await;
    assert_eq!(status, 200, "{created}");
    (
        created["webhook"]["id"].as_str().expect("id").to_owned(),
        created["secret"].as_str().expect("secret").to_owned(),
    )
}

pub(crate) async fn deliveries(app: &TestApp, token: &str, id: &str) -> Vec<Value> {
    let (status, log) = app
        .get(&format!("/api/user/webhooks/{id}/deliveries"), Some(token))
        .await;
    assert_eq!(status, 200, "{log}");
    log["deliveries"].as_array().expect("deliveries").clone()
}

/// Waits until the log has `n` attempts.
async fn wait_log(app: &TestApp, token: &str, id: &str, n: usize) -> Vec<Value> {
    for _ in 0..400 {
        let log = deliveries(app, token, id).await;
        if log.len() >= n {
            return log;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "expected {n} logged attempts, got {:?}",
        deliveries(app, token, id).await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_test_event_is_signed_as_the_specification_says_and_logged() {
    let receiver = Receiver::start(vec![Answer::Status(204)]).await;
    let app = TestApp::start(Backend::Sqlite, quick(&receiver, 3)).await;
    let (_, token) = app.sign_in("ada").await;
    let (id, secret) = register(&app, &token, &receiver.url(), json!(["search.completed"])).await;
    assert!(secret.starts_with("whsec_"));
    assert_eq!(STANDARD.decode(&secret[6..]).expect("base64").len(), 32);

    let (status, queued) = app
        .post(&format!("/api/user/webhooks/{id}/test"), Some(&token), None)
        .await;
    assert_eq!(status, 202, "{queued}");
    let got = receiver.wait_for(1).await;
    let message = verify(&secret, &got[0]).expect("a valid signature");
    assert_eq!(message["type"], "webhook.test");
    assert_eq!(got[0].headers["webhook-id"], queued["messageId"].as_str().expect("id"));
    assert_eq!(got[0].headers["content-type"], "application/json");
    // A wrong secret does not verify: the check above could fail.
    let (_, other) = register(&app, &token, &receiver.url(), json!(["search.failed"])).await;
    assert!(verify(&other, &got[0]).is_err());

    let log = wait_log(&app, &token, &id, 1).await;
    assert_eq!(log[0]["event"], "webhook.test");
    assert_eq!(
        (log[0]["attempt"].clone(), log[0]["statusCode"].clone()),
        (json!(1), json!(204))
    );
    assert_eq!(log[0]["succeeded"], true);
    assert!(log[0]["latencyMs"].as_i64().expect("latency") >= 0);
    assert!(log[0].get("body").is_none() && !log[0].to_string().contains("A test event"));

    // The secret rotates: the next message verifies with the new one only.
    let (status, rotated) = app
        .post(&format!("/api/user/webhooks/{id}/rotate-secret"), Some(&token), None)
        .await;
    assert_eq!(status, 200);
    let new_secret = rotated["secret"].as_str().expect("secret").to_owned();
    assert_ne!(new_secret, secret);
    app.post(&format!("/api/user/webhooks/{id}/test"), Some(&token), None)
        .await;
    let got = receiver.wait_for(2).await;
    assert!(verify(&new_secret, &got[1]).is_ok() && verify(&secret, &got[1]).is_err());

    // The secret is sealed at rest, never readable.
    let stored = all_stored_text(Mode::Embedded, &app._db.url).await;
    assert!(!stored.contains(&new_secret[6..]) && !stored.contains(&secret[6..]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_on_5xx_and_time_outs_are_retried_with_the_same_id() {
    let receiver = Receiver::start(vec![
        Answer::Status(503),
        Answer::Slow(Duration::from_secs(3)),
        Answer::Status(200),
    ])
    .await;
    let app = TestApp::start(Backend::Sqlite, quick(&receiver, 5)).await;
    let (user_id, token) = app.sign_in("ada").await;
    let (id, secret) = register(&app, &token, &receiver.url(), json!(["search.completed"])).await;
    let counted = |outcome: &str| {
        let m = leadgen_core::telemetry::metrics::metrics();
        m.webhook_deliveries
            .get_or_create(&leadgen_core::telemetry::metrics::OutcomeLabels {
                outcome: outcome.to_owned(),
            })
            .get()
    };
    let (failed_before, delivered_before) = (counted("failed"), counted("delivered"));
    // Queued as a finished search queues its message.
    let message_id = "msg_retry_case";
    app.state
        .queues
        .webhook
        .push(leadgen_core::jobs::WebhookJobV1 {
            user_id,
            workspace_id: None,
            endpoint_id: id.clone().into(),
            message_id: message_id.into(),
            event_type: "search.completed".into(),
            body: json!({"type": "search.completed", "data": {"leads": []}}).to_string(),
            saved_search_id: None,
        })
        .await
        .expect("queued");
    let log = wait_log(&app, &token, &id, 3).await;
    let attempts: Vec<(Value, Value, Value)> = log
        .iter()
        .map(|d| (d["attempt"].clone(), d["statusCode"].clone(), d["succeeded"].clone()))
        .rev()
        .collect();
    assert_eq!(
        attempts,
        [
            (json!(1), json!(503), json!(false)),
            (json!(2), json!(null), json!(false)),
            (json!(3), json!(200), json!(true))
        ],
        "a 503, a time-out, then delivered: {log:?}"
    );
    let timed_out = log.iter().find(|d| d["statusCode"].is_null()).expect("time-out");
    assert_eq!(timed_out["error"], "timed out", "{timed_out}");
    let refused = log.iter().find(|d| d["statusCode"] == 503).expect("the 503");
    assert_eq!(refused["error"], "HTTP 503", "{refused}");
    // Every attempt carries the same webhook-id and its own valid signature.
    let got = receiver.wait_for(3).await;
    for r in &got {
        assert_eq!(r.headers["webhook-id"], message_id);
        verify(&secret, r).expect("valid");
    }
    // Delivered once: nothing more arrives.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.received().len(), 3);
    // Other tests in this binary deliver too: at least this test's attempts are counted.
    assert!(counted("failed") >= failed_before + 2, "the 503 and the time-out");
    assert!(counted("delivered") > delivered_before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_failing_every_attempt_is_disabled_with_a_notice() {
    let receiver = Receiver::start(vec![Answer::Status(500)]).await;
    let app = TestApp::start(Backend::Sqlite, quick(&receiver, 3)).await;
    let (user_id, token) = app.sign_in("ada").await;
    let (id, _) = register(&app, &token, &receiver.url(), json!(["search.failed"])).await;
    app.state
        .queues
        .webhook
        .push(leadgen_core::jobs::WebhookJobV1 {
            user_id,
            workspace_id: None,
            endpoint_id: id.clone().into(),
            message_id: "msg_doomed".into(),
            event_type: "search.failed".into(),
            body: json!({"type": "search.failed"}).to_string(),
            saved_search_id: None,
        })
        .await
        .expect("queued");
    let log = wait_log(&app, &token, &id, 3).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(deliveries(&app, &token, &id).await.len(), 3, "no 4th attempt: {log:?}");
    assert_eq!(receiver.received().len(), 3);
    let (_, list) = app.get("/api/user/webhooks", Some(&token)).await;
    let endpoint = &list["webhooks"][0];
    assert_eq!(endpoint["enabled"], false);
    let notice = endpoint["disabledReason"].as_str().expect("notice");
    assert!(
        notice.contains("after 3 failed attempts") && notice.contains("500"),
        "{notice}"
    );

    // A test event that gets through enables it again.
    receiver.log.lock().expect("log").script = vec![
        Answer::Status(500),
        Answer::Status(500),
        Answer::Status(500),
        Answer::Status(200),
    ];
    app.post(&format!("/api/user/webhooks/{id}/test"), Some(&token), None)
        .await;
    wait_log(&app, &token, &id, 4).await;
    let (_, list) = app.get("/api/user/webhooks", Some(&token)).await;
    assert_eq!(list["webhooks"][0]["enabled"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_addresses_are_refused_when_registered_and_never_reached() {
    let receiver = Receiver::start(vec![Answer::Status(200)]).await;
    // No exemption: the receiver's loopback address is what an attacker would aim at.
    let app = TestApp::start(Backend::Sqlite, vec![("LEADGEN_WEBHOOK_FIRST_RETRY_MS", "50".into())]).await;
    let (user_id, token) = app.sign_in("ada").await;
    for url in [
        receiver.url(),
        format!("https://{}/hook", receiver.addr),
        "https://169.254.169.254/latest/meta-data".into(),
        "https://10.1.2.3/hook".into(),
        "https://localhost/hook".into(),
        "ftp://hooks.example.com/x".into(),
    ] {
        let (status, refused) = app
            .post(
                "/api/user/webhooks",
                Some(&token),
                Some(json!({"url": url, "events": ["search.completed"]})),
            )
            .await;
        assert_eq!(status, 400, "{url}: {refused}");
    }
    let (status, refused) = app
        .post(
            "/api/user/webhooks",
            Some(&token),
            Some(json!({"url": "https://hooks.example.com/x", "events": ["search.done"]})),
        )
        .await;
    assert_eq!(status, 400);
    assert!(refused["message"].as_str().expect("message").contains("Unknown event"));

    // One stored behind the API's back (as if the check had been passed another way):
    // the guarded client still refuses it at delivery, and says so in the log.
    let sealed = leadgen_core::webhooks::seal_secret(&app.state.vault, &WorkspaceId::personal(&user_id), "whsec_AAAA")
        .expect("seal");
    let endpoint = app
        .state
        .store
        .create_webhook(
            &WorkspaceId::personal(&user_id),
            &user_id,
            &format!("http://{}/hook", receiver.addr),
            &[leadgen_core::webhooks::EventType::SearchCompleted],
            &sealed,
        )
        .await
        .expect("stored");
    app.post(&format!("/api/user/webhooks/{}/test", endpoint.id), Some(&token), None)
        .await;
    let log = wait_log(&app, &token, endpoint.id.as_str(), 1).await;
    assert_eq!(log[0]["error"], "address not allowed or unreachable", "{log:?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(receiver.received().is_empty(), "nothing reached the refused address");
    assert_eq!(
        deliveries(&app, &token, endpoint.id.as_str()).await.len(),
        1,
        "not retried"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endpoints_are_the_owners_alone() {
    let receiver = Receiver::start(vec![Answer::Status(200)]).await;
    let app = TestApp::start(Backend::Sqlite, quick(&receiver, 3)).await;
    let (_, ada) = app.sign_in("ada").await;
    let (_, bob) = app.sign_in("bob").await;
    let (id, _) = register(&app, &ada, &receiver.url(), json!(["search.completed"])).await;
    assert_eq!(app.get("/api/user/webhooks", Some(&bob)).await.1["webhooks"], json!([]));
    for path in [
        format!("/api/user/webhooks/{id}/test"),
        format!("/api/user/webhooks/{id}/rotate-secret"),
    ] {
        assert_eq!(app.post(&path, Some(&bob), None).await.0, 404, "{path}");
    }
    assert_eq!(
        app.get(&format!("/api/user/webhooks/{id}/deliveries"), Some(&bob))
            .await
            .0,
        404
    );
    let delete = |token: String| {
        let path = format!("/api/user/webhooks/{id}");
        let client = &app.client;
        async move {
            client
                .delete(&path)
                .header("authorization", format!("Bearer {token}"))
                .send()
                .await
                .0
                .status()
                .as_u16()
        }
    };
    assert_eq!(delete(bob.clone()).await, 404);
    assert_eq!(delete(ada.clone()).await, 204);
    assert_eq!(delete(ada).await, 404);
}

// A real search, in both modes (in Redis, the delivery is a job on the Redis queue, taken
// by a separate worker): its end is sent once to each subscribed endpoint, with the leads,
// signed, after one 5xx; an endpoint subscribed to failures only gets nothing; nothing
// of the leads is stored.
crate::both_modes!(
    a_completed_search_is_delivered_once_with_its_leads,
    |mode: Mode| async move {
        let receiver = Receiver::start(vec![Answer::Status(502), Answer::Status(200)]).await;
        let env = SearchEnv::start(
            mode,
            leadgen_testkit::places_sim::PlacesSim::builder(),
            1,
            quick(&receiver, 3),
        )
        .await;
        let app = &env.app;
        let (id, secret) = register(app, &env.token, &receiver.url(), json!(["search.completed"])).await;
        let (failures_only, _) = register(app, &env.token, &receiver.url(), json!(["search.failed"])).await;
        let city = env.dense_city("cafe", 5);
        let (status, events) = env.stream("cafe", &city).await;
        assert_eq!(status, 200);
        let complete = events
            .iter()
            .find(|(_, e)| e["type"] == "complete")
            .expect("complete")
            .1
            .clone();
        let got = receiver.wait_for(2).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(
            receiver.received().len(),
            2,
            "a 502, then delivered once, and nothing to the failures-only endpoint"
        );
        assert_eq!(got[0].headers["webhook-id"], got[1].headers["webhook-id"]);
        let message = verify(&secret, &got[1]).expect("valid");
        assert_eq!(message["type"], "search.completed");
        assert_eq!(message["data"]["leads"], complete["results"]);
        assert!(!complete["results"].as_array().expect("leads").is_empty());
        let search_id = events[0].1["searchId"].as_str().expect("search id").to_owned();
        assert_eq!(message["data"]["searchId"], search_id);

        let log = wait_log(app, &env.token, &id, 2).await;
        assert_eq!(log[0]["event"], "search.completed");
        assert_eq!(
            (log[0]["attempt"].clone(), log[0]["statusCode"].clone()),
            (json!(2), json!(200))
        );
        assert!(deliveries(app, &env.token, &failures_only).await.is_empty());
        // No lead reaches the database through webhooks (the log keeps no payload).
        let stored = all_stored_text(mode, &app._db.url).await;
        for lead in complete["results"].as_array().expect("leads") {
            let name = lead["name"].as_str().expect("name");
            assert!(!stored.contains(name), "a lead's name is stored: {name}");
        }
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_is_never_followed() {
    // The redirect aims at a second receiver on loopback, which is not exempt.
    let target = Receiver::start(vec![Answer::Status(200)]).await;
    let location: &'static str = Box::leak(target.url().into_boxed_str());
    let receiver = Receiver::start(vec![Answer::Redirect(location)]).await;
    let app = TestApp::start(Backend::Sqlite, quick(&receiver, 2)).await;
    let (user_id, token) = app.sign_in("ada").await;
    let (id, _) = register(&app, &token, &receiver.url(), json!(["search.completed"])).await;
    app.state
        .queues
        .webhook
        .push(leadgen_core::jobs::WebhookJobV1 {
            user_id,
            workspace_id: None,
            endpoint_id: id.clone().into(),
            message_id: "msg_redirected".into(),
            event_type: "search.completed".into(),
            body: json!({"type": "search.completed"}).to_string(),
            saved_search_id: None,
        })
        .await
        .expect("queued");
    let log = wait_log(&app, &token, &id, 2).await;
    for attempt in &log {
        assert_eq!(attempt["statusCode"], 307, "{attempt}");
        assert_eq!(attempt["succeeded"], false);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(target.received().is_empty(), "the redirect was not followed");
    assert_eq!(receiver.received().len(), 2);
}

/// A failed search sends `search.failed` (with the reason) to endpoints subscribed to it,
/// and nothing to those subscribed to completions only; a message already delivered is
/// not sent again when its job runs twice (a worker that died after sending).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_search_is_delivered_and_a_delivered_message_is_not_sent_again() {
    let receiver = Receiver::start(vec![Answer::Status(200)]).await;
    let env = SearchEnv::start(
        Mode::Embedded,
        leadgen_testkit::places_sim::PlacesSim::builder(),
        0,
        quick(&receiver, 3),
    )
    .await;
    let app = &env.app;
    let (failures, secret) = register(app, &env.token, &receiver.url(), json!(["search.failed"])).await;
    let (completions, _) = register(app, &env.token, &receiver.url(), json!(["search.completed"])).await;
    env.save_key("AIzaSyA_INVALIDKEY_456789abcdefghijklmno").await;
    let city = env.dense_city("cafe", 1);
    let (_, events) = env.stream("cafe", &city).await;
    let error = events.last().expect("events").1["message"].clone();
    let got = receiver.wait_for(1).await;
    let message = verify(&secret, &got[0]).expect("valid");
    assert_eq!(message["type"], "search.failed");
    assert_eq!(message["data"]["message"], error);
    assert!(deliveries(app, &env.token, &completions).await.is_empty());

    // The same message again, as a job handed to another worker would run it.
    let log = wait_log(app, &env.token, &failures, 1).await;
    // The environment's user (signing in again finds the same account).
    let (owner, _) = app.sign_in("searcher").await;
    app.state
        .queues
        .webhook
        .push(leadgen_core::jobs::WebhookJobV1 {
            user_id: owner,
            workspace_id: None,
            endpoint_id: failures.clone().into(),
            message_id: log[0]["messageId"].as_str().expect("id").to_owned(),
            event_type: "search.failed".into(),
            body: got[0].body.clone(),
            saved_search_id: None,
        })
        .await
        .expect("queued");
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(receiver.received().len(), 1, "delivered once");
    assert_eq!(deliveries(app, &env.token, &failures).await.len(), 1);
}

/// Waits for the first logged attempt of each endpoint in `ids`.
async fn first_attempts(app: &TestApp, token: &str, ids: &[leadgen_core::ids::EndpointId]) -> Vec<Value> {
    let mut out = Vec::new();
    for id in ids {
        out.push(wait_log(app, token, id.as_str(), 1).await[0].clone());
    }
    out
}

/// The log says why a delivery failed in a few plain outcomes (#25): an address that may
/// not be reached, a private one and one where nothing listens read the same, so a user
/// cannot map what exists inside the cluster through it; the detail is the server log's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_delivery_is_logged_as_a_plain_outcome() {
    let receiver = Receiver::start(vec![Answer::Status(200)]).await;
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr")
    };
    // Both loopback ports exempt (as fakes are in tests): a closed one, and the receiver,
    // which speaks plain HTTP to a client expecting TLS.
    let exempt = format!("{},{closed}", receiver.addr);
    let app = TestApp::start(
        Backend::Sqlite,
        vec![
            ("LEADGEN_OUTBOUND_ALLOWED_HOSTS", exempt),
            ("LEADGEN_WEBHOOK_TIMEOUT_SECS", "5".into()),
        ],
    )
    .await;
    let (user_id, token) = app.sign_in("ada").await;
    let sealed = leadgen_core::webhooks::seal_secret(&app.state.vault, &WorkspaceId::personal(&user_id), "whsec_AAAA")
        .expect("seal");
    let mut ids = Vec::new();
    for url in [
        // Loopback by name: refused when resolved.
        format!("http://localhost:{}/hook", receiver.addr.port()),
        // A private address: refused before any connection.
        "http://10.1.2.3/hook".to_owned(),
        // Nothing listens: connection refused.
        format!("http://{closed}/hook"),
        // Not TLS at the other end.
        format!("https://{}/hook", receiver.addr),
    ] {
        // Stored behind the API's back, as the registration check refuses most of them.
        let endpoint = app
            .state
            .store
            .create_webhook(
                &WorkspaceId::personal(&user_id),
                &user_id,
                &url,
                &[leadgen_core::webhooks::EventType::SearchCompleted],
                &sealed,
            )
            .await
            .expect("stored");
        let (status, _) = app
            .post(&format!("/api/user/webhooks/{}/test", endpoint.id), Some(&token), None)
            .await;
        assert_eq!(status, 202, "{url}");
        ids.push(endpoint.id);
    }
    let logged = first_attempts(&app, &token, &ids).await;
    let errors: Vec<&str> = logged.iter().map(|d| d["error"].as_str().expect("an error")).collect();
    assert_eq!(
        errors,
        [
            "address not allowed or unreachable",
            "address not allowed or unreachable",
            "address not allowed or unreachable",
            "TLS error",
        ],
        "{logged:?}"
    );
    for attempt in &logged {
        assert_eq!(attempt["statusCode"], Value::Null);
        assert_eq!(attempt["succeeded"], false);
    }
    assert!(receiver.received().is_empty(), "nothing was delivered");
}

/// "Send a test event" has its own limit (#25): five a minute per user, whichever of
/// their endpoints; then 429 `rate_limited` with `Retry-After`, as the API's other limits
/// answer. Another user is not held up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn test_events_are_rate_limited_per_user() {
    let receiver = Receiver::start(vec![Answer::Status(204)]).await;
    let app = TestApp::start(Backend::Sqlite, quick(&receiver, 3)).await;
    let (_, ada) = app.sign_in("ada").await;
    let (_, bob) = app.sign_in("bob").await;
    let (first, _) = register(&app, &ada, &receiver.url(), json!(["search.completed"])).await;
    let (second, _) = register(&app, &ada, &receiver.url(), json!(["search.failed"])).await;
    for n in 0..5 {
        let id = if n % 2 == 0 { &first } else { &second };
        let (status, body) = app
            .post(&format!("/api/user/webhooks/{id}/test"), Some(&ada), None)
            .await;
        assert_eq!(status, 202, "test event {n}: {body}");
    }
    let response = app
        .client
        .post(format!("/api/user/webhooks/{second}/test"))
        .header("authorization", format!("Bearer {ada}"))
        .send()
        .await;
    assert_eq!(response.0.status().as_u16(), 429);
    let wait: u64 = response
        .0
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After in seconds");
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    let body: Value =
        serde_json::from_str(&response.0.into_body().into_string().await.expect("body")).expect("the error envelope");
    assert_eq!(body["error"], "rate_limited", "{body}");
    assert!(body["message"].as_str().is_some_and(|m| !m.is_empty()), "{body}");

    let (bobs, _) = register(&app, &bob, &receiver.url(), json!(["search.completed"])).await;
    let (status, _) = app
        .post(&format!("/api/user/webhooks/{bobs}/test"), Some(&bob), None)
        .await;
    assert_eq!(status, 202, "another user has a budget of their own");
    receiver.wait_for(6).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.received().len(), 6, "the refused test event was not sent");
}
