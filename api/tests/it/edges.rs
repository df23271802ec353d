//! Hardening at the edges (#25): what a stranger or a proxy sends cannot grow memory,
//! drain someone else's limit, reach the local operator, or hold the server.

use std::{net::SocketAddr, time::Duration};

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use leadgen_testkit::places_sim::PlacesSim;
use poem::{Body, http::Method};
use serde_json::{Value, json};

use crate::{
    search::env::{Mode, SearchEnv},
    support::{Backend, TestApp, Vars, reserve_port},
};

/// Serves `app`'s whole application over a real socket on loopback, as the binary does.
async fn over_a_socket(app: &TestApp) -> SocketAddr {
    let (listener, port) = reserve_port().await;
    app.serve_on(listener);
    SocketAddr::from(([127, 0, 0, 1], port))
}

async fn metrics_text(app: &TestApp) -> String {
    let metrics = poem::test::TestClient::new(leadgen_api::telemetry::metrics_app(app.state.clone()));
    let resp = metrics.get("/metrics").send().await;
    resp.assert_status_is_ok();
    resp.0.into_body().into_string().await.expect("body")
}

/// The HTTP series' label sets (without their values).
fn http_series(text: &str) -> std::collections::BTreeSet<String> {
    text.lines()
        .filter(|l| l.starts_with("leadgen_http_"))
        .filter_map(|l| l.rsplit_once(' ').map(|(series, _)| series.to_owned()))
        .collect()
}

#[tokio::test]
async fn a_flood_of_made_up_methods_and_paths_adds_no_series() {
    let app = TestApp::start(Backend::Sqlite, vec![("LEADGEN_RATE_LIMIT_PER_IP", "0".into())]).await;
    let send = |method: String, path: String| {
        let client = &app.client;
        async move {
            let method = Method::from_bytes(method.as_bytes()).expect("a token");
            client.request(method, path).send().await.0.status().as_u16()
        }
    };
    // One of each kind first, so every label set the flood can touch exists.
    send("WARMUP".into(), "/".into()).await;
    send("WARMUP".into(), "/api/nope".into()).await;
    let before = http_series(&metrics_text(&app).await);
    for i in 0..300 {
        let method = format!("M{i}{}", "X".repeat(i * 13 % 4000));
        send(method, format!("/api/nope-{i}")).await;
        send(format!("N{i}"), format!("/page-{i}")).await;
    }
    let text = metrics_text(&app).await;
    let after = http_series(&text);
    // Only the flood's own label sets: the registry is the process's, and tests running
    // beside this one add series of their own (standard methods).
    let added: Vec<&String> = after
        .difference(&before)
        .filter(|s| s.contains("method=\"other\""))
        .collect();
    assert!(added.is_empty(), "the flood added series: {added:?}");
    assert!(!text.contains("M299"), "a made-up method reached the labels");
    assert!(!text.contains("nope-"), "a raw path reached the labels");
}

#[tokio::test]
async fn metrics_are_not_served_on_the_public_port() {
    let app = TestApp::start(Backend::Sqlite, vec![]).await;
    let resp = app.client.get("/metrics").send().await;
    assert_eq!(resp.0.status().as_u16(), 404);
    let text = resp.0.into_body().into_string().await.expect("body");
    assert!(!text.contains("# TYPE"), "the public port served metrics");
    assert!(metrics_text(&app).await.contains("# TYPE leadgen_http_requests"));
}

/// A JWT-shaped bearer with this `sub`, signed with nothing we know.
fn forged_session(sub: &str) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
    let claims = URL_SAFE_NO_PAD.encode(json!({"sub": sub, "jti": sub, "exp": 4_000_000_000u64}).to_string());
    format!("{header}.{claims}.{}", URL_SAFE_NO_PAD.encode(b"forged"))
}

#[tokio::test]
async fn forged_tokens_make_no_buckets_and_cannot_drain_a_real_user() {
    // 10 a minute: bursts of 2.
    let app = TestApp::start(
        Backend::Sqlite,
        vec![
            ("LEADGEN_RATE_LIMIT_PER_USER", "10".into()),
            ("LEADGEN_RATE_LIMIT_PER_TOKEN", "10".into()),
        ],
    )
    .await;
    let (victim_id, victim) = app.sign_in("victim").await;
    for i in 0..5_000 {
        let (status, _) = app
            .get(
                "/api/auth/me",
                Some(&forged_session(&format!("{i}-{}", "s".repeat(i % 500)))),
            )
            .await;
        assert_eq!(status, 401);
        let (status, _) = app.get("/api/auth/me", Some(&format!("lgp_{i:0>40}"))).await;
        assert_eq!(status, 401);
    }
    let (_, per_user, per_token) = app.state.rate_limits.bucket_counts();
    assert_eq!((per_user, per_token), (0, 0), "10,000 forged tokens made buckets");
    // A forged token naming the victim spends nothing of the victim's bucket.
    for _ in 0..5 {
        let (status, _) = app.get("/api/auth/me", Some(&forged_session(victim_id.as_str()))).await;
        assert_eq!(status, 401);
    }
    let (status, _) = app.get("/api/auth/me", Some(&victim)).await;
    assert_eq!(status, 200, "a forged sub drained the real user's bucket");
    assert_eq!(
        app.state.rate_limits.bucket_counts().1,
        1,
        "the verified user has one bucket"
    );
}

/// Five clients' addresses, as a proxy would forward them.
const FIVE_CLIENTS: [&str; 5] = [
    "198.51.100.1",
    "198.51.100.2",
    "198.51.100.3",
    "198.51.100.4",
    "198.51.100.5",
];

async fn statuses_with_forwarded_for(addr: SocketAddr, header: &str, values: &[&str]) -> Vec<u16> {
    let http = reqwest::Client::new();
    let mut statuses = Vec::new();
    for value in values {
        let resp = http
            .get(format!("http://{addr}/api/auth/config"))
            .header(header, *value)
            .send()
            .await
            .expect("request");
        statuses.push(resp.status().as_u16());
    }
    statuses
}

/// A per-address limit of 15 a minute, with an identity provider configured (so the
/// local mode's Host check does not answer first on a random port).
fn per_ip(extra: &[(&'static str, &str)]) -> Vars {
    let mut vars: Vars = vec![
        ("LEADGEN_RATE_LIMIT_PER_IP", "15".into()),
        ("LEADGEN_OIDC_CLIENT_ID", "leadgen".into()),
        ("LEADGEN_OIDC_ISSUER", "https://id.example".into()),
    ];
    vars.extend(extra.iter().map(|(k, v)| (*k, (*v).to_owned())));
    vars
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_address_limit() {
    // 15 a minute: bursts of 3. Loopback plays the ingress.
    let app = TestApp::start(Backend::Sqlite, per_ip(&[("LEADGEN_TRUSTED_PROXIES", "127.0.0.0/8")])).await;
    let addr = over_a_socket(&app).await;
    assert_eq!(
        statuses_with_forwarded_for(addr, "x-forwarded-for", &FIVE_CLIENTS).await,
        [200; 5],
        "five clients behind one proxy have a bucket each"
    );
    let one_client = ["203.0.113.9"; 5];
    assert_eq!(
        statuses_with_forwarded_for(addr, "forwarded", &one_client.map(|_| "for=203.0.113.9")).await,
        [200, 200, 200, 429, 429],
        "one client is still limited"
    );
    // A client forging the header's left part is still keyed on what the proxy appended.
    let forged = ["1.1.1.1, 203.0.113.9", "2.2.2.2, 203.0.113.9"];
    assert_eq!(
        statuses_with_forwarded_for(addr, "x-forwarded-for", &forged).await,
        [429, 429]
    );
}

#[tokio::test]
async fn without_trusted_proxies_forwarding_headers_are_ignored() {
    let app = TestApp::start(Backend::Sqlite, per_ip(&[])).await;
    let addr = over_a_socket(&app).await;
    assert_eq!(
        statuses_with_forwarded_for(addr, "x-forwarded-for", &FIVE_CLIENTS).await,
        [200, 200, 200, 429, 429],
        "a client chose its own address with a header"
    );
}

#[tokio::test]
async fn local_sign_in_answers_only_this_machine_directly() {
    let (listener, port) = reserve_port().await;
    let app = TestApp::start(
        Backend::Sqlite,
        vec![
            ("LEADGEN_LISTEN", format!("127.0.0.1:{port}")),
            ("LEADGEN_PUBLIC_URL", format!("http://127.0.0.1:{port}")),
        ],
    )
    .await;
    app.serve_on(listener);
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let sign_in = |host: Option<String>, header: Option<(&'static str, &'static str)>| {
        let http = http.clone();
        async move {
            let mut req = http.get(format!("http://127.0.0.1:{port}/api/auth/google"));
            if let Some(host) = host {
                req = req.header("host", host);
            }
            if let Some((name, value)) = header {
                req = req.header(name, value);
            }
            let resp = req.send().await.expect("request");
            let status = resp.status().as_u16();
            let body: Value = resp.json().await.unwrap_or(Value::Null);
            (status, body)
        }
    };
    let (status, _) = sign_in(None, None).await;
    assert_eq!(status, 302, "a browser on this machine signs in");
    let (status, _) = sign_in(Some(format!("localhost:{port}")), None).await;
    assert_eq!(status, 302, "localhost is this machine too");
    for header in [
        ("x-forwarded-for", "203.0.113.9"),
        ("forwarded", "for=203.0.113.9"),
        ("via", "1.1 tunnel"),
        ("x-forwarded-host", "leads.example"),
    ] {
        let (status, body) = sign_in(None, Some(header)).await;
        assert_eq!(status, 403, "signed in through {header:?}");
        assert_eq!(body["error"], "local_only");
        assert!(
            body["message"].as_str().expect("message").contains(header.0),
            "the refusal names the header: {body}"
        );
    }
    // DNS rebinding: a name the attacker controls, pointed at 127.0.0.1.
    for host in [format!("rebind.example:{port}"), "127.0.0.1:1".to_owned()] {
        let (status, body) = sign_in(Some(host.clone()), None).await;
        assert_eq!(status, 403, "answered for Host {host}");
        assert_eq!(body["error"], "foreign_host");
        let resp = http
            .get(format!("http://127.0.0.1:{port}/api/auth/config"))
            .header("host", host)
            .send()
            .await
            .expect("request");
        assert_eq!(
            resp.status().as_u16(),
            403,
            "every request with a foreign Host is refused"
        );
    }
}

#[tokio::test]
async fn a_ten_megabyte_body_gets_413_before_it_is_read() {
    let app = TestApp::start(Backend::Sqlite, vec![]).await;
    let (_, token) = app.sign_in("big").await;
    let huge = vec![b' '; 10 * 1024 * 1024];
    for path in [
        "/api/leads/estimate",
        "/api/user/webhooks",
        "/api/leads/export-to-sheets",
    ] {
        let started = std::time::Instant::now();
        let resp = app
            .client
            .post(path)
            .header("authorization", format!("Bearer {token}"))
            .content_type("application/json")
            .header("content-length", huge.len().to_string())
            .body(huge.clone())
            .send()
            .await;
        let status = resp.0.status().as_u16();
        let body: Value = serde_json::from_str(&resp.0.into_body().into_string().await.expect("body")).expect("json");
        if path.ends_with("export-to-sheets") {
            assert_ne!(status, 413, "the export takes up to 16 MiB");
            continue;
        }
        assert_eq!(status, 413, "{path}");
        assert_eq!(body["error"], "payload_too_large");
        assert!(body["message"].as_str().expect("message").contains("256 KiB"), "{body}");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "took {:?}",
            started.elapsed()
        );
    }
    // No length announced: refused as soon as the limit is passed.
    let chunks = futures_util::stream::iter((0..200).map(|_| Ok::<_, std::io::Error>(vec![b' '; 64 * 1024])));
    let resp = app
        .client
        .post("/api/leads/estimate")
        .header("authorization", format!("Bearer {token}"))
        .content_type("application/json")
        .header("transfer-encoding", "chunked")
        .body(Body::from_bytes_stream(chunks))
        .send()
        .await;
    assert_eq!(resp.0.status().as_u16(), 413);
    // A body within the limit reaches the operation (which refuses it for its own reason).
    let (status, body) = app.post("/api/leads/estimate", Some(&token), Some(json!({}))).await;
    assert_eq!(status, 400, "{body}");
}

#[tokio::test]
async fn hsts_only_when_the_public_url_is_https() {
    let app = TestApp::start(Backend::Sqlite, vec![]).await;
    let resp = app.client.get("/api/health").send().await;
    assert!(resp.0.headers().get("strict-transport-security").is_none());
    let app = TestApp::start(
        Backend::Sqlite,
        vec![
            ("LEADGEN_PUBLIC_URL", "https://leads.example".into()),
            ("LEADGEN_OIDC_CLIENT_ID", "leadgen".into()),
            ("LEADGEN_OIDC_ISSUER", "https://id.example".into()),
            ("LEADGEN_LISTEN", "0.0.0.0:8080".into()),
        ],
    )
    .await;
    let resp = app
        .client
        .get("/api/health")
        .header("host", "leads.example")
        .send()
        .await;
    assert_eq!(
        resp.0.status().as_u16(),
        200,
        "with a provider the Host check is off: behind an Ingress the public name is the Host"
    );
    assert_eq!(
        resp.0.headers()["strict-transport-security"],
        leadgen_api::security_headers::STRICT_TRANSPORT_SECURITY
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_stream_past_the_cap_gets_429_and_a_closed_one_frees_its_slot() {
    // No worker: searches stay queued and their streams stay open.
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder(),
        0,
        vec![("LEADGEN_MAX_STREAMS_PER_USER", "2".into())],
    )
    .await;
    let open = || async {
        env.app
            .client
            .post("/api/leads/search-stream")
            .header("authorization", format!("Bearer {}", env.token))
            .body_json(&json!({"businessType": "restaurant", "location": "Austin, TX"}))
            .send()
            .await
    };
    let first = open().await;
    let second = open().await;
    assert_eq!((first.0.status().as_u16(), second.0.status().as_u16()), (200, 200));
    let third = open().await;
    assert_eq!(third.0.status().as_u16(), 429);
    let body: Value = serde_json::from_str(&third.0.into_body().into_string().await.expect("body")).expect("json");
    assert_eq!(body["error"], "too_many_streams");
    assert_eq!(
        body["message"],
        "You have 2 live searches open; close one to start or follow another."
    );
    drop(first);
    let fourth = open().await;
    assert_eq!(fourth.0.status().as_u16(), 200, "a closed stream gave its slot back");
    drop((second, fourth));
}
