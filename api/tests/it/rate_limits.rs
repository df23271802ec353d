//! API rate limits (#12 item 7): per signed-in user and per client address, 429 with
//! `Retry-After` and the error envelope; health is never limited.

use poem::{
    Server,
    listener::{Acceptor, Listener, TcpListener},
};

use crate::support::{Backend, TestApp};

#[tokio::test]
async fn a_user_over_the_limit_gets_429_with_retry_after_and_others_do_not() {
    // 10 a minute: bursts of 2.
    let app = TestApp::start(Backend::Sqlite, vec![("LEADGEN_RATE_LIMIT_PER_USER", "10".into())]).await;
    let (_, flooder) = app.sign_in("flooder").await;
    let (_, neighbour) = app.sign_in("neighbour").await;
    let mut statuses = Vec::new();
    for _ in 0..4 {
        let (status, _) = app.get("/api/leads/usage", Some(&flooder)).await;
        statuses.push(status);
    }
    assert_eq!(statuses, [200, 200, 429, 429], "a burst of 2, then refused");
    let resp = app
        .client
        .get("/api/leads/usage")
        .header("authorization", format!("Bearer {flooder}"))
        .send()
        .await;
    assert_eq!(resp.0.status().as_u16(), 429);
    let retry: u64 = resp.0.headers()["retry-after"]
        .to_str()
        .expect("retry-after")
        .parse()
        .expect("seconds");
    assert!((1..=7).contains(&retry), "about 6 s until the next request: {retry}");
    let body: serde_json::Value =
        serde_json::from_str(&resp.0.into_body().into_string().await.expect("body")).expect("json");
    assert_eq!(body["error"], "rate_limited");
    assert!(body["message"].as_str().expect("message").contains("Too many requests"));
    let (status, _) = app.get("/api/leads/usage", Some(&neighbour)).await;
    assert_eq!(status, 200, "another user has a bucket of their own");
    let (status, _) = app.get("/api/health", None).await;
    assert_eq!(status, 200, "health is not limited");
}

#[tokio::test]
async fn an_address_over_the_limit_gets_429_whoever_it_signs_in_as() {
    let app = TestApp::start(
        Backend::Sqlite,
        vec![
            ("LEADGEN_RATE_LIMIT_PER_IP", "15".into()),
            ("LEADGEN_RATE_LIMIT_PER_USER", "0".into()),
            // A provider (never called here), so local mode's Host check does not refuse
            // this random port first.
            ("LEADGEN_OIDC_CLIENT_ID", "leadgen".into()),
            ("LEADGEN_OIDC_ISSUER", "https://id.example".into()),
        ],
    )
    .await;
    // Over a real socket, so the server sees the client's address.
    let acceptor = TcpListener::bind("127.0.0.1:0").into_acceptor().await.expect("bind");
    let addr = *acceptor.local_addr()[0].as_socket_addr().expect("addr");
    let server = leadgen_api::app::build(app.state.clone());
    tokio::spawn(async move {
        let _ = Server::new_with_acceptor(acceptor).run(server).await;
    });
    let http = reqwest::Client::new();
    let mut statuses = Vec::new();
    for i in 0..5 {
        let (_, token) = app.sign_in(&format!("user{i}")).await;
        let resp = http
            .get(format!("http://{addr}/api/auth/me"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("request");
        statuses.push(resp.status().as_u16());
    }
    // 15 a minute: bursts of 3, whoever the caller is.
    assert_eq!(statuses, [200, 200, 200, 429, 429]);
    let health = http
        .get(format!("http://{addr}/api/health"))
        .send()
        .await
        .expect("health");
    assert_eq!(health.status().as_u16(), 200);
}
