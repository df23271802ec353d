//! Workspaces (issue #28): a team shares one workspace (key, history, plan), a third
//! person sees nothing of it (404, as if it did not exist), roles refuse with 403, a
//! personal API token acts only in its workspace, and removal cuts a member off at once.
//! Each case on SQLite and on Postgres.

use std::collections::BTreeSet;

use leadgen_core::{
    ids::{SearchId, UserId, WorkspaceId},
    store::SearchRecord,
    workspace::Role,
};
use serde_json::{Value, json};

use crate::support::{Backend, TestApp};

const KEY: &str = "AIzaSyA_team_0123456789abcdefghijklmnop";
const HEADER: &str = "Leadgen-Workspace";

/// One call, with a bearer token and optionally the workspace header.
pub(crate) async fn call(
    app: &TestApp,
    method: &str,
    path: &str,
    token: &str,
    workspace: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let client = &app.client;
    let mut req = match method {
        "GET" => client.get(path),
        "POST" => client.post(path),
        "PATCH" => client.patch(path),
        "PUT" => client.put(path),
        "DELETE" => client.delete(path),
        other => panic!("{other}"),
    }
    .header("authorization", format!("Bearer {token}"));
    if let Some(ws) = workspace {
        req = req.header(HEADER, ws);
    }
    if let Some(body) = body {
        req = req.body_json(&body);
    }
    let resp = req.send().await;
    let status = resp.0.status().as_u16();
    let text = resp.0.into_body().into_string().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

/// A queued search of `user` in `workspace`, as `POST /search` records one.
async fn queued_search(app: &TestApp, workspace: &WorkspaceId, user: &UserId) -> SearchId {
    let id = SearchId::time_ordered();
    app.state
        .store
        .create_search(&SearchRecord {
            id: id.clone(),
            user_id: user.clone(),
            workspace_id: workspace.clone(),
            business_type: "cafe".into(),
            status: "queued".into(),
            lead_budget: 60,
            leads_delivered: None,
            day: "2026-11-26".into(),
            month: "2026-11".into(),
        })
        .await
        .expect("search");
    id
}

async fn a_team_shares_one_workspace_and_others_see_nothing(backend: Backend) {
    let app = TestApp::start(backend, vec![]).await;
    let (_, ada) = app.sign_in("ada").await;
    let (ben_id, ben) = app.sign_in("ben").await;
    let (_, carl) = app.sign_in("carl").await;

    let (status, created) = call(
        &app,
        "POST",
        "/api/workspaces",
        &ada,
        None,
        Some(json!({"name": " Acme "})),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(
        (created["name"].as_str(), created["role"].as_str()),
        (Some("Acme"), Some("owner"))
    );
    assert_eq!(created["personal"], false);
    let team = created["id"].as_str().expect("id").to_owned();
    let team_id = WorkspaceId::from(team.as_str());
    assert!(
        app.state
            .store
            .add_member(&team_id, &ben_id, Role::Member)
            .await
            .expect("ben joins")
    );

    let (_, listed) = call(&app, "GET", "/api/workspaces", &ben, None, None).await;
    let listed = listed["workspaces"].as_array().expect("list").clone();
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert_eq!(
        (listed[0]["personal"].as_bool(), listed[0]["id"].as_str()),
        (Some(true), Some(ben_id.as_str()))
    );
    assert_eq!(
        (listed[1]["id"].as_str(), listed[1]["role"].as_str()),
        (Some(team.as_str()), Some("member"))
    );

    // The owner saves the team's key; the member sees it there, not in their own.
    let (status, saved) = call(
        &app,
        "POST",
        "/api/user/api-key",
        &ada,
        Some(&team),
        Some(json!({"api_key": KEY})),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let (_, seen) = call(&app, "GET", "/api/user/api-key/status", &ben, Some(&team), None).await;
    assert_eq!(seen["api_key_status"]["has_key"], true);
    let (_, own) = call(&app, "GET", "/api/user/api-key/status", &ben, None, None).await;
    assert_eq!(
        own["api_key_status"]["has_key"], false,
        "personal when the header is absent"
    );
    let (_, adas_own) = call(&app, "GET", "/api/user/api-key/status", &ada, None, None).await;
    assert_eq!(adas_own["api_key_status"]["has_key"], false);

    // One history: the member's search is the owner's to see, in the team only.
    let search = queued_search(&app, &team_id, &ben_id).await;
    let (_, history) = call(&app, "GET", "/api/leads/searches", &ada, Some(&team), None).await;
    assert!(history.to_string().contains(search.as_str()), "{history}");
    let (_, personal) = call(&app, "GET", "/api/leads/searches", &ada, None, None).await;
    assert!(!personal.to_string().contains(search.as_str()));
    let (status, _) = call(
        &app,
        "GET",
        &format!("/api/leads/searches/{search}"),
        &ada,
        Some(&team),
        None,
    )
    .await;
    assert_eq!(status, 200);

    // Roles: 403 where the member's role may not.
    for (method, path, body) in [
        ("POST", "/api/user/api-key", Some(json!({"api_key": KEY}))),
        ("GET", "/api/user/webhooks", None),
        ("POST", "/api/billing/create-portal-session", None),
    ] {
        let (status, refused) = call(&app, method, path, &ben, Some(&team), body).await;
        assert_eq!(status, 403, "{method} {path}: {refused}");
        assert_eq!(refused["error"], "role_required", "{refused}");
    }
    let path = format!("/api/workspaces/{team}");
    let (status, refused) = call(&app, "PATCH", &path, &ben, None, Some(json!({"name": "Mine now"}))).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (403, Some("role_required")),
        "{refused}"
    );
    let (status, renamed) = call(&app, "PATCH", &path, &ada, None, Some(json!({"name": "Acme EU"}))).await;
    assert_eq!((status, renamed["name"].as_str()), (200, Some("Acme EU")));

    // A third person learns nothing: the team answers exactly as an id that never existed.
    let nowhere = WorkspaceId::random();
    for ws in [team.as_str(), nowhere.as_str()] {
        let (status, header) = call(&app, "GET", "/api/user/api-key/status", &carl, Some(ws), None).await;
        assert_eq!(status, 404, "{header}");
        let (status, path) = call(&app, "GET", &format!("/api/workspaces/{ws}/members"), &carl, None, None).await;
        assert_eq!(status, 404, "{path}");
        assert_eq!(header, path, "one answer for 'not yours' and 'no such id'");
        let (status, _) = call(
            &app,
            "GET",
            &format!("/api/leads/searches/{search}"),
            &carl,
            Some(ws),
            None,
        )
        .await;
        assert_eq!(status, 404);
    }
    let (status, bad) = call(&app, "GET", "/api/leads/usage", &carl, Some("not-a-uuid"), None).await;
    assert_eq!((status, bad["error"].as_str()), (400, Some("invalid_workspace")));

    // The members list, to members only.
    let (status, members) = call(
        &app,
        "GET",
        &format!("/api/workspaces/{team}/members"),
        &ben,
        None,
        None,
    )
    .await;
    assert_eq!(status, 200);
    let emails: BTreeSet<&str> = members["members"]
        .as_array()
        .expect("members")
        .iter()
        .filter_map(|m| m["email"].as_str())
        .collect();
    assert_eq!(emails, ["ada@example.com", "ben@example.com"].into());
}

async fn tokens_stay_in_their_workspace_and_removal_is_immediate(backend: Backend) {
    let app = TestApp::start(backend, vec![]).await;
    let (ada_id, ada) = app.sign_in("ada").await;
    let (ben_id, ben) = app.sign_in("ben").await;
    let (carl_id, carl) = app.sign_in("carl").await;
    let (_, created) = call(
        &app,
        "POST",
        "/api/workspaces",
        &ada,
        None,
        Some(json!({"name": "Acme"})),
    )
    .await;
    let team = created["id"].as_str().expect("id").to_owned();
    let team_id = WorkspaceId::from(team.as_str());
    let store = &app.state.store;
    store.add_member(&team_id, &ben_id, Role::Member).await.expect("ben");
    store.add_member(&team_id, &carl_id, Role::Admin).await.expect("carl");
    call(
        &app,
        "POST",
        "/api/user/api-key",
        &ada,
        Some(&team),
        Some(json!({"api_key": KEY})),
    )
    .await;

    // Ben's token, made in the team, acts there without the header and nowhere else.
    let (status, made) = call(
        &app,
        "POST",
        "/api/user/tokens",
        &ben,
        Some(&team),
        Some(json!({"name": "crm", "scopes": ["usage:read"]})),
    )
    .await;
    assert_eq!(status, 200, "{made}");
    let token = made["token"].as_str().expect("token").to_owned();
    let (status, seen) = call(&app, "GET", "/api/user/api-key/status", &token, None, None).await;
    assert_eq!(
        (status, seen["api_key_status"]["has_key"].as_bool()),
        (200, Some(true)),
        "{seen}"
    );
    let (status, refused) = call(&app, "GET", "/api/leads/usage", &token, Some(ben_id.as_str()), None).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (403, Some("token_workspace")),
        "{refused}"
    );
    let (_, own_tokens) = call(&app, "GET", "/api/user/tokens", &ben, None, None).await;
    assert_eq!(
        own_tokens["tokens"].as_array().map(Vec::len),
        Some(0),
        "made in the team, listed there"
    );

    // Only an owner makes or unmakes owners; an admin manages the rest.
    let ben_path = format!("/api/workspaces/{team}/members/{ben_id}");
    let (status, _) = call(&app, "PATCH", &ben_path, &carl, None, Some(json!({"role": "owner"}))).await;
    assert_eq!(status, 403);
    let (status, promoted) = call(&app, "PATCH", &ben_path, &carl, None, Some(json!({"role": "admin"}))).await;
    assert_eq!((status, promoted["role"].as_str()), (200, Some("admin")));
    call(&app, "PATCH", &ben_path, &carl, None, Some(json!({"role": "member"}))).await;
    let (status, _) = call(
        &app,
        "DELETE",
        &format!("/api/workspaces/{team}/members/{ada_id}"),
        &carl,
        None,
        None,
    )
    .await;
    assert_eq!(status, 403, "an admin cannot remove an owner");
    let (status, _) = call(
        &app,
        "DELETE",
        &format!("/api/workspaces/{team}/members/{carl_id}"),
        &ben,
        None,
        None,
    )
    .await;
    assert_eq!(status, 403, "a member removes nobody but themselves");

    // The last owner can neither leave nor be demoted.
    let ada_path = format!("/api/workspaces/{team}/members/{ada_id}");
    let (status, refused) = call(&app, "DELETE", &ada_path, &ada, None, None).await;
    assert_eq!((status, refused["error"].as_str()), (403, Some("last_owner")));
    let (status, refused) = call(&app, "PATCH", &ada_path, &ada, None, Some(json!({"role": "admin"}))).await;
    assert_eq!((status, refused["error"].as_str()), (403, Some("last_owner")));

    // Removal: the next request is refused, the token revoked, the running search cancelled.
    let running = queued_search(&app, &team_id, &ben_id).await;
    let (status, _) = call(&app, "DELETE", &ben_path, &carl, None, None).await;
    assert_eq!(status, 204);
    let (status, _) = call(&app, "GET", "/api/user/api-key/status", &ben, Some(&team), None).await;
    assert_eq!(status, 404);
    let (status, _) = call(&app, "GET", "/api/user/api-key/status", &token, None, None).await;
    assert_eq!(status, 401, "their token there is revoked");
    assert!(
        app.state.bus.is_cancelled(&running).await.expect("bus"),
        "their running search is cancelled"
    );
    let (status, history) = call(&app, "GET", "/api/leads/searches", &ada, Some(&team), None).await;
    assert!(
        status == 200 && history.to_string().contains(running.as_str()),
        "the history keeps it"
    );

    // Leaving; then deleting (never the personal one).
    let (status, _) = call(
        &app,
        "DELETE",
        &format!("/api/workspaces/{team}/members/{carl_id}"),
        &carl,
        None,
        None,
    )
    .await;
    assert_eq!(status, 204, "anyone may leave");
    let (status, refused) = call(&app, "DELETE", &format!("/api/workspaces/{ada_id}"), &ada, None, None).await;
    assert_eq!((status, refused["error"].as_str()), (403, Some("personal_workspace")));
    let (status, _) = call(&app, "DELETE", &format!("/api/workspaces/{team}"), &carl, None, None).await;
    assert_eq!(status, 404, "a former member is a stranger");
    let (status, _) = call(&app, "DELETE", &format!("/api/workspaces/{team}"), &ada, None, None).await;
    assert_eq!(status, 204);
    let (_, left) = call(&app, "GET", "/api/workspaces", &ada, None, None).await;
    assert_eq!(left["workspaces"].as_array().map(Vec::len), Some(1));
    assert!(
        store.search_summary(&team_id, &running).await.expect("read").is_none(),
        "its history went with it"
    );
}

#[tokio::test]
async fn a_team_shares_one_workspace_and_others_see_nothing_sqlite() {
    a_team_shares_one_workspace_and_others_see_nothing(Backend::Sqlite).await;
}

#[tokio::test]
async fn a_team_shares_one_workspace_and_others_see_nothing_postgres() {
    a_team_shares_one_workspace_and_others_see_nothing(Backend::Postgres).await;
}

#[tokio::test]
async fn tokens_stay_in_their_workspace_and_removal_is_immediate_sqlite() {
    tokens_stay_in_their_workspace_and_removal_is_immediate(Backend::Sqlite).await;
}

#[tokio::test]
async fn tokens_stay_in_their_workspace_and_removal_is_immediate_postgres() {
    tokens_stay_in_their_workspace_and_removal_is_immediate(Backend::Postgres).await;
}

/// Operations that act for the person, not in a workspace, each with why. Any other
/// operation behind the bearer scheme must declare its least role (`x-leadgen-role`).
const PERSONAL: &[(&str, &str)] = &[
    ("get_me", "who the caller is"),
    ("refresh_session", "the caller's session"),
    ("logout", "the caller's session"),
    ("complete_onboarding", "the person's onboarding"),
    ("list_business_types", "the catalogue, the same for everyone"),
    ("list_workspaces", "the caller's memberships"),
    ("create_workspace", "a new workspace, owned by the caller"),
    (
        "get_invitation",
        "the link's token names the workspace; the invited person is not a member yet",
    ),
    (
        "accept_invitation",
        "the link's token names the workspace; the invited person is not a member yet",
    ),
    (
        "get_sheets_auth_status",
        "Google Sheets access is the person's Google account",
    ),
    ("list_sheets", "the person's Google account"),
    ("validate_sheet", "the person's Google account"),
    ("list_worksheets", "the person's Google account"),
    ("export_to_sheets", "the person's Google account"),
];

#[test]
fn every_operation_declares_its_workspace_role_or_why_it_has_none() {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("openapi JSON");
    let mut missing = Vec::new();
    let mut roles = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (_, op) in item.as_object().expect("operations") {
            let id = op["operationId"].as_str().expect("id");
            let secured = op["security"].as_array().is_some_and(|s| !s.is_empty());
            let params: Vec<&Value> = op["parameters"]
                .as_array()
                .map(|p| p.iter().collect())
                .unwrap_or_default();
            let header = params.iter().any(|p| p["name"] == HEADER && p["in"] == "header");
            match op.get("x-leadgen-role").and_then(Value::as_str) {
                Some(role) => {
                    roles += 1;
                    assert!(["member", "admin", "owner"].contains(&role), "{id}: {role}");
                    assert!(
                        op["description"]
                            .as_str()
                            .is_some_and(|d| d.contains(&format!("at least `{role}`"))),
                        "{id} says its role in words"
                    );
                    let in_path = path.starts_with("/api/workspaces/{id}");
                    assert!(
                        header != in_path,
                        "{id}: the header documented unless the path names the workspace"
                    );
                    assert!(
                        op["responses"]["404"].is_object(),
                        "{id} documents the non-member's 404"
                    );
                }
                None if secured && !PERSONAL.iter().any(|(p, _)| *p == id) => missing.push(id.to_owned()),
                None => assert!(!header, "{id} takes no workspace"),
            }
        }
    }
    assert!(
        missing.is_empty(),
        "operations with neither a workspace role nor a reason to have none: {missing:?}"
    );
    assert!(roles >= 30, "{roles} workspace-scoped operations");
}
