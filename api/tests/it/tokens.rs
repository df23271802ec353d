//! Personal API tokens (#15): lifecycle (create, use, scope refusal, expiry, revoke, last
//! used), hashes only at rest, per-user isolation, the per-token rate limit, and the
//! published scopes of every operation matching what the server enforces.

use serde_json::{Value, json};

use sqlx::Connection;

use crate::{
    both_backends,
    search::{env::Mode, no_lead_at_rest::all_stored_text},
    support::{Backend, TestApp},
};

fn mode(backend: Backend) -> Mode {
    match backend {
        Backend::Sqlite => Mode::Embedded,
        Backend::Postgres => Mode::Distributed,
    }
}

/// Runs one statement on the app's database, behind the store's back.
async fn execute(app: &TestApp, sql: &'static str, binds: &[&str]) {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&app._db.url).await.expect("connect");
    let mut query = sqlx::query(sql);
    for b in binds {
        query = query.bind(*b);
    }
    query.execute(&mut conn).await.expect("execute");
}

/// Creates a token for the session `session` and returns (token, its list entry).
async fn create(app: &TestApp, session: &str, body: Value) -> (String, Value) {
    let (status, created) = app.post("/api/user/tokens", Some(session), Some(body)).await;
    assert_eq!(status, 200, "{created}");
    (
        created["token"].as_str().expect("token").to_owned(),
        created["info"].clone(),
    )
}

async fn delete(app: &TestApp, path: &str, token: &str) -> u16 {
    app.client
        .delete(path)
        .header("authorization", format!("Bearer {token}"))
        .send()
        .await
        .0
        .status()
        .as_u16()
}

both_backends!(
    a_token_lives_works_within_its_scopes_and_dies,
    |backend: Backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (_, session) = app.sign_in("ada").await;
        let (token, info) = create(
            &app,
            &session,
            json!({"name": " CRM sync ", "scopes": ["usage:read", "searches:run"]}),
        )
        .await;
        assert!(token.starts_with("lgp_") && token.len() == 52, "{token}");
        assert_eq!(info["name"], "CRM sync");
        assert_eq!(info["prefix"], &token[..12]);
        assert_eq!(info["scopes"], json!(["searches:run", "usage:read"]));
        assert_eq!(info["lastUsedAt"], Value::Null);
        assert_eq!(info["expiresAt"], Value::Null);

        // Used where a session is: within its scopes.
        let (status, usage) = app.get("/api/leads/usage", Some(&token)).await;
        assert_eq!(status, 200, "{usage}");
        let (status, me) = app.get("/api/auth/me", Some(&token)).await;
        assert_eq!((status, me["email"].clone()), (200, json!("ada@example.com")));

        // Outside them: 403 naming the scope.
        let (status, refused) = app
            .post("/api/user/api-key", Some(&token), Some(json!({"api_key": ""})))
            .await;
        assert_eq!(status, 403);
        assert_eq!(refused["error"], "insufficient_scope");
        assert!(
            refused["message"].as_str().expect("message").contains("'keys:write'"),
            "{refused}"
        );
        // Never what needs a session: a token cannot mint tokens or manage billing.
        let (status, refused) = app
            .post(
                "/api/user/tokens",
                Some(&token),
                Some(json!({"name": "x", "scopes": ["usage:read"]})),
            )
            .await;
        assert_eq!((status, refused["error"].clone()), (403, json!("session_required")));
        let (status, _) = app.get("/api/user/tokens", Some(&token)).await;
        assert_eq!(status, 403);

        // The list shows it, with its last use, and never the token.
        let (status, list) = app.get("/api/user/tokens", Some(&session)).await;
        assert_eq!(status, 200);
        let listed = &list["tokens"][0];
        assert_eq!(listed["id"], info["id"]);
        assert!(listed["lastUsedAt"].is_string(), "last use recorded: {listed}");
        assert!(!list.to_string().contains(&token[12..]), "the token is shown once only");
        assert_eq!(list["availableScopes"].as_array().expect("scopes").len(), 5);

        // Revoked: it stops working at once, and a second revoke finds nothing.
        let path = format!("/api/user/tokens/{}", info["id"].as_str().expect("id"));
        assert_eq!(delete(&app, &path, &token).await, 403, "a token cannot revoke tokens");
        assert_eq!(delete(&app, &path, &session).await, 204);
        let (status, refused) = app.get("/api/leads/usage", Some(&token)).await;
        assert_eq!(status, 401);
        assert_eq!(refused["message"], "This API token is invalid, expired or revoked.");
        assert_eq!(delete(&app, &path, &session).await, 404);
    }
);

both_backends!(an_expired_token_is_refused, |backend: Backend| async move {
    let app = TestApp::start(backend, vec![]).await;
    let (user_id, session) = app.sign_in("ada").await;
    let (token, info) = create(
        &app,
        &session,
        json!({"name": "short", "scopes": ["usage:read"], "expiresInDays": 1}),
    )
    .await;
    assert!(info["expiresAt"].is_string());
    assert_eq!(app.get("/api/leads/usage", Some(&token)).await.0, 200);
    // A day later (moved in the store: the clock is the server's).
    let token_id = info["id"].as_str().expect("id");
    let past = (leadgen_core::time::now_unix() - 1).to_string();
    execute(
        &app,
        "UPDATE personal_tokens SET expires_at = CAST($1 AS BIGINT) WHERE id = $2 AND user_id = $3",
        &[&past, token_id, user_id.as_str()],
    )
    .await;
    let (status, body) = app.get("/api/leads/usage", Some(&token)).await;
    assert_eq!((status, body["error"].clone()), (401, json!("unauthorized")));
});

both_backends!(bad_requests_are_refused_clearly, |backend: Backend| async move {
    let app = TestApp::start(backend, vec![]).await;
    let (_, session) = app.sign_in("ada").await;
    for (body, needle) in [
        (
            json!({"name": "x", "scopes": ["searches:all"]}),
            "Unknown scope 'searches:all'",
        ),
        (json!({"name": "x", "scopes": []}), "at least one scope"),
        (json!({"name": "  ", "scopes": ["usage:read"]}), "name"),
        (
            json!({"name": "x", "scopes": ["usage:read"], "expiresInDays": 0}),
            "1 to 3650 days",
        ),
    ] {
        let (status, refused) = app.post("/api/user/tokens", Some(&session), Some(body)).await;
        assert_eq!(status, 400, "{refused}");
        assert!(
            refused["message"].as_str().expect("message").contains(needle),
            "{refused}"
        );
    }
    let (status, _) = app
        .get(
            "/api/leads/usage",
            Some("lgp_0000000000000000000000000000000000000000000000000"),
        )
        .await;
    assert_eq!(status, 401, "an unknown token");
});

both_backends!(
    tokens_are_per_user_and_stored_as_hashes_only,
    |backend: Backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (_, ada) = app.sign_in("ada").await;
        let (_, bob) = app.sign_in("bob").await;
        let (token, info) = create(&app, &ada, json!({"name": "mine", "scopes": ["searches:run"]})).await;
        // Bob neither sees nor revokes Ada's token.
        let (_, list) = app.get("/api/user/tokens", Some(&bob)).await;
        assert_eq!(list["tokens"], json!([]));
        let path = format!("/api/user/tokens/{}", info["id"].as_str().expect("id"));
        assert_eq!(delete(&app, &path, &bob).await, 404);
        // Ada's token sees Ada's searches only.
        let (status, history) = app.get("/api/leads/searches", Some(&token)).await;
        assert_eq!((status, history["searches"].clone()), (200, json!([])));
        // At rest: the hash, never the token or its secret part.
        let stored = all_stored_text(mode(backend), &app._db.url).await;
        assert!(!stored.contains(&token[4..]), "the token is not stored");
        assert!(
            stored.contains(&leadgen_core::personal_tokens::hash(&token)),
            "its hash is"
        );
    }
);

#[tokio::test]
async fn each_token_has_its_own_rate_limit() {
    // 10 a minute: bursts of 2; the per-user limit is off, so only the token's counts.
    let app = TestApp::start(
        Backend::Sqlite,
        vec![
            ("LEADGEN_RATE_LIMIT_PER_TOKEN", "10".into()),
            ("LEADGEN_RATE_LIMIT_PER_USER", "0".into()),
        ],
    )
    .await;
    let (_, session) = app.sign_in("ada").await;
    let (first, _) = create(&app, &session, json!({"name": "a", "scopes": ["usage:read"]})).await;
    let (second, _) = create(&app, &session, json!({"name": "b", "scopes": ["usage:read"]})).await;
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(app.get("/api/leads/usage", Some(&first)).await.0);
    }
    assert_eq!(statuses, [200, 200, 429]);
    let resp = app
        .client
        .get("/api/leads/usage")
        .header("authorization", format!("Bearer {first}"))
        .send()
        .await;
    assert_eq!(resp.0.status().as_u16(), 429);
    let retry: u64 = resp.0.headers()["retry-after"]
        .to_str()
        .expect("header")
        .parse()
        .expect("seconds");
    assert!((1..=7).contains(&retry), "{retry}");
    assert_eq!(app.get("/api/leads/usage", Some(&second)).await.0, 200, "another token");
    assert_eq!(app.get("/api/leads/usage", Some(&session)).await.0, 200, "the session");
}

/// Every operation's description states what a token needs, and the server enforces
/// exactly that: a token with every scope but the stated one is refused with 403, and a
/// token with only the stated one is not.
#[tokio::test]
async fn every_operation_documents_the_scope_the_server_enforces() {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("spec");
    // Every operation is called several times by one user: no per-token or per-user limit
    // (rate limits have tests of their own).
    let app = TestApp::start(
        Backend::Sqlite,
        vec![
            ("LEADGEN_RATE_LIMIT_PER_TOKEN", "0".into()),
            ("LEADGEN_RATE_LIMIT_PER_USER", "0".into()),
        ],
    )
    .await;
    let (_, session) = app.sign_in("ada").await;
    let all = [
        "searches:run",
        "usage:read",
        "exports:write",
        "keys:write",
        "webhooks:write",
    ];
    let (every_scope, _) = create(&app, &session, json!({"name": "all", "scopes": all})).await;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("ops") {
            // Public operations say `security: []`.
            if op
                .get("security")
                .and_then(|s| s.as_array())
                .is_none_or(|s| s.is_empty())
            {
                continue;
            }
            let id = op["operationId"].as_str().expect("id");
            let text = op["description"].as_str().unwrap_or_default();
            let url = path
                .replace("{id}", "00000000-0000-0000-0000-000000000000")
                .replace("{user_id}", "00000000-0000-0000-0000-000000000000");
            let call = |token: String| {
                let client = &app.client;
                let method = method.clone();
                let url = url.clone();
                async move {
                    let req = match method.as_str() {
                        "get" => client.get(&url),
                        "post" => client.post(&url).body_json(&json!({})),
                        "put" => client.put(&url).body_json(&json!({})),
                        "patch" => client.patch(&url).body_json(&json!({})),
                        "delete" => client.delete(&url),
                        other => panic!("{other}"),
                    };
                    let resp = req.header("authorization", format!("Bearer {token}")).send().await;
                    let status = resp.0.status().as_u16();
                    let body = resp.0.into_body().into_string().await.unwrap_or_default();
                    // Refused for the credential (not, say, for a missing Sheets grant).
                    status == 403 && (body.contains("insufficient_scope") || body.contains("session_required"))
                }
            };
            if text.contains("API tokens: not accepted") {
                assert!(call(every_scope.clone()).await, "{id} needs a session");
            } else if text.contains("API tokens: any valid token") {
                assert!(!call(every_scope.clone()).await, "{id} takes any token");
            } else {
                let scope = all
                    .iter()
                    .find(|s| text.contains(&format!("API tokens: need the `{s}` scope")))
                    .unwrap_or_else(|| panic!("{id} documents no token access"));
                let others: Vec<&str> = all.iter().copied().filter(|s| s != scope).collect();
                let (without, _) = create(&app, &session, json!({"name": id, "scopes": others})).await;
                let (with, _) = create(&app, &session, json!({"name": id, "scopes": [scope]})).await;
                assert!(call(without).await, "{id} refuses a token without {scope}");
                assert!(!call(with).await, "{id} admits a token with {scope}");
                // Tokens made here are revoked between operations: at most 50 a user.
                let (_, list) = app.get("/api/user/tokens", Some(&session)).await;
                for t in list["tokens"]
                    .as_array()
                    .unwrap_or_else(|| panic!("tokens of {id}: {list}"))
                {
                    if t["name"] != "all" {
                        let path = format!("/api/user/tokens/{}", t["id"].as_str().expect("id"));
                        delete(&app, &path, &session).await;
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 25, "{checked} operations checked");
}
