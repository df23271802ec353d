//! Session tokens: every way a token can be bad gets 401 with the spec's messages.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD as B64};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use leadgen_core::session::Claims;
use serde_json::json;

use crate::{
    both_backends,
    support::{Backend, TEST_JWT_SECRET, TestApp},
};

const SESSION_INVALID: &str = "Authentication required. Please log in again.";

both_backends!(missing_token_gets_the_spec_message, |backend: Backend| async move {
    let app = TestApp::start(backend, vec![]).await;
    for path in ["/api/auth/me", "/api/user/api-key/status"] {
        let (status, body) = app.get(path, None).await;
        assert_eq!(status, 401, "{path}");
        assert_eq!(
            body,
            json!({"error": "unauthorized", "message": "Authorization header required - no token provided"})
        );
    }
});

both_backends!(a_good_token_reads_its_own_profile, |backend: Backend| async move {
    let app = TestApp::start(backend, vec![]).await;
    let (_id, token) = app.sign_in("alice").await;
    let (status, me) = app.get("/api/auth/me", Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(me["email"], "alice@example.com");
    assert_eq!(me["needsOnboarding"], true);
    assert_eq!(me["isFirstLogin"], true);

    let (status, done) = app.post("/api/user/complete-onboarding", Some(&token), None).await;
    assert_eq!((status, done["success"].clone()), (200, json!(true)));
    assert_eq!(app.get("/api/auth/me", Some(&token)).await.1["needsOnboarding"], false);
});

both_backends!(
    tampered_expired_none_and_foreign_tokens_are_refused,
    |backend: Backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (user_id, token) = app.sign_in("alice").await;
        let parts: Vec<&str> = token.split('.').collect();
        let claims: Claims = serde_json::from_slice(&B64.decode(parts[1]).expect("b64")).expect("claims");

        let mut forged = claims.clone();
        forged.sub = "someone-else".into();
        let tampered = format!(
            "{}.{}.{}",
            parts[0],
            B64.encode(serde_json::to_vec(&forged).expect("json")),
            parts[2]
        );

        let none = format!("{}.{}.", B64.encode(br#"{"alg":"none","typ":"JWT"}"#), parts[1]);

        let sign = |c: &Claims, secret: &[u8]| {
            jsonwebtoken::encode(&Header::new(Algorithm::HS256), c, &EncodingKey::from_secret(secret)).expect("sign")
        };
        let mut old = claims.clone();
        old.iat -= 7200;
        old.exp = claims.iat - 3600;
        let expired = sign(&old, TEST_JWT_SECRET.as_bytes());
        let other_secret = sign(&claims, b"another-secret-that-is-long-enough-0000");
        // Correctly signed, but for a session never recorded: a token minted outside sign-in.
        let mut unrecorded = claims.clone();
        unrecorded.jti = "never-issued".into();
        let unrecorded = sign(&unrecorded, TEST_JWT_SECRET.as_bytes());
        let mut wrong_issuer = claims.clone();
        wrong_issuer.iss = "someone-else".into();
        let wrong_issuer = sign(&wrong_issuer, TEST_JWT_SECRET.as_bytes());

        for (what, bad) in [
            ("tampered", tampered),
            ("alg none", none),
            ("expired", expired),
            ("other secret", other_secret),
            ("unrecorded jti", unrecorded),
            ("wrong issuer", wrong_issuer),
            ("garbage", "a.b.c".to_owned()),
        ] {
            let (status, body) = app.get("/api/auth/me", Some(&bad)).await;
            assert_eq!(status, 401, "{what}");
            assert_eq!(body["message"], SESSION_INVALID, "{what}");
        }
        assert_eq!(
            app.get("/api/auth/me", Some(&token)).await.0,
            200,
            "the genuine token still works"
        );
        assert!(!user_id.as_str().is_empty());
    }
);

both_backends!(logout_and_refresh_revoke_the_old_token, |backend: Backend| async move {
    let app = TestApp::start(backend, vec![]).await;
    let (_, token) = app.sign_in("alice").await;
    let (status, refreshed) = app.post("/api/auth/refresh", Some(&token), None).await;
    assert_eq!(status, 200);
    let new_token = refreshed["token"].as_str().expect("token").to_owned();
    assert_eq!(new_token.split('.').count(), 3);
    assert_eq!(refreshed["user"]["email"], "alice@example.com");
    assert_eq!(
        app.get("/api/auth/me", Some(&token)).await.0,
        401,
        "refresh revokes the old token"
    );
    assert_eq!(
        app.post("/api/auth/refresh", Some(&token), None).await.0,
        401,
        "and it cannot refresh again"
    );

    let (status, _) = app.post("/api/auth/logout", Some(&new_token), None).await;
    assert_eq!(status, 204);
    assert_eq!(app.get("/api/auth/me", Some(&new_token)).await.0, 401, "logout revokes");
    assert_eq!(
        app.post("/api/auth/logout", None, None).await.0,
        204,
        "logout without a token still answers 204"
    );
});

both_backends!(local_mode_signs_in_the_operator, |backend: Backend| async move {
    // Over a real socket on loopback: local sign-in answers only a browser on this machine.
    let (listener, port) = crate::support::reserve_port().await;
    let app = TestApp::start(backend, vec![("LEADGEN_LISTEN", format!("127.0.0.1:{port}"))]).await;
    app.serve_on(listener);
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let resp = http
        .get(format!("http://127.0.0.1:{port}/api/auth/google"))
        .send()
        .await
        .expect("request");
    assert_eq!(resp.status().as_u16(), 302);
    let location = resp.headers()["location"].to_str().expect("location").to_owned();
    let token = location
        .strip_prefix("http://127.0.0.1:8080/auth/success?token=")
        .expect("redirect to /auth/success with a token");
    let (status, me) = app.get("/api/auth/me", Some(token)).await;
    assert_eq!(status, 200);
    assert_eq!(me["email"], "operator@localhost");
    let (_, config) = app.get("/api/auth/config", None).await;
    assert_eq!(config, json!({"localMode": true, "issuer": null}));
    let (status, body) = app.get("/api/auth/google?feature=calendar", None).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().expect("msg").contains("sheets"));
    let (status, body) = app.get("/api/auth/google", None).await;
    assert_eq!(status, 403, "no peer address: not this machine for sure");
    assert_eq!(body["error"], "local_only");
});
