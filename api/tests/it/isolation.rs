//! The tenant isolation matrix (issue #12), generated from `openapi.json`: user A owns
//! data (a key, a finished search, and whatever the collections list), user B calls
//! every operation, with A's ids wherever a path takes an id. Every call by B with A's
//! id must answer 404 (the id's existence is not confirmed), no answer to B may carry
//! A's data, and A's view of its own data must be the same afterwards. An operation added
//! later is called too: the owner's ids come from the collection a path id belongs to
//! (`GET /a/b` for `/a/b/{id}`), created first with the collection's `POST` and its
//! documented example when empty; a path id this test still has no owner's value for
//! fails it (or is added to `FOREIGN_IDS` with its reason).
//!
//! The workspace dimension (issue #28): for every workspace-scoped operation, a
//! non-member naming a team's workspace (or any other id) gets 404, a member gets 403
//! where their role may not act, and no list in one workspace shows another's ids.

use std::collections::{BTreeMap, BTreeSet};

use leadgen_testkit::places_sim::PlacesSim;
use serde_json::{Value, json};

use crate::{both_modes, search::env::SearchEnv};

/// Operations B does not call, each with why.
const NOT_CALLED: &[(&str, &str)] = &[
    // Browser redirects through the identity provider: they read no stored data of anyone
    // and are covered by the sign-in tests (state bound to the browser, replay refused).
    ("start_sign_in", "a redirect to the identity provider"),
    ("finish_sign_in", "the provider's callback; needs the provider's state"),
    // End or replace B's own session token, which the rest of the matrix needs; they take
    // no id and act on the caller's session only (see the session tests).
    ("logout", "ends the caller's session"),
    ("refresh_session", "replaces the caller's session token"),
];

/// Path ids that name someone else's data, not ours, each with why.
const FOREIGN_IDS: &[(&str, &str)] = &[
    (
        "list_worksheets",
        "the id is a Google spreadsheet's; Google checks it against the caller's own grant",
    ),
    // The owner cannot list these: the token is shown once, to the inviter, and is the
    // credential itself (an unknown one answers 404; see the invitation tests).
    ("get_invitation", "the id is an invitation link's secret token"),
    ("accept_invitation", "the id is an invitation link's secret token"),
];

/// GETs that are actions of their caller, left out of the owner's before/after view:
/// each call changes what the owner sees (on purpose), whoever else called anything.
const ACTING_READS: &[(&str, &str)] = &[(
    "export_search",
    "an export is recorded in the audit log and marks places exported",
)];

struct Operation {
    id: String,
    /// The least workspace role it needs (`x-leadgen-role`); none for the person's own
    /// operations.
    role: Option<String>,
    method: String,
    path: String,
    body: Value,
    json_answer: bool,
}

/// Every operation of the published document, with an example body where it has one.
fn operations() -> Vec<Operation> {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("openapi JSON");
    let example_of = |op: &Value| -> Value {
        let Some(content) = op["requestBody"]["content"].as_object() else {
            return Value::Null;
        };
        let media = content.values().next().cloned().unwrap_or(Value::Null);
        if !media["example"].is_null() {
            return media["example"].clone();
        }
        let schema = media["schema"]["$ref"]
            .as_str()
            .and_then(|r| r.rsplit('/').next())
            .map(|name| doc["components"]["schemas"][name].clone())
            .unwrap_or(Value::Null);
        if schema["example"].is_null() {
            json!({})
        } else {
            schema["example"].clone()
        }
    };
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            let json_answer = op["responses"]["200"]["content"]
                .as_object()
                .is_some_and(|c| c.keys().any(|k| k.starts_with("application/json")));
            out.push(Operation {
                id: op["operationId"].as_str().expect("operationId").to_owned(),
                role: op["x-leadgen-role"].as_str().map(str::to_owned),
                method: method.to_uppercase(),
                path: path.clone(),
                body: example_of(op),
                json_answer,
            });
        }
    }
    out
}

async fn call(env: &SearchEnv, token: &str, method: &str, path: &str, body: &Value) -> (u16, String) {
    call_in(env, token, None, method, path, body).await
}

/// [`call`], acting in `workspace` (the `Leadgen-Workspace` header) when one is given.
async fn call_in(
    env: &SearchEnv,
    token: &str,
    workspace: Option<&str>,
    method: &str,
    path: &str,
    body: &Value,
) -> (u16, String) {
    let client = &env.app.client;
    let request = match method {
        "GET" => client.get(path),
        "POST" => client.post(path),
        "PUT" => client.put(path),
        "PATCH" => client.patch(path),
        "DELETE" => client.delete(path),
        other => panic!("method {other} is not handled by the matrix"),
    }
    .header("authorization", format!("Bearer {token}"));
    let request = match workspace {
        Some(id) => request.header("Leadgen-Workspace", id),
        None => request,
    };
    let request = if body.is_null() {
        request
    } else {
        request.body_json(body)
    };
    let response = request.send().await;
    let status = response.0.status().as_u16();
    let text = tokio::time::timeout(std::time::Duration::from_secs(30), response.0.into_body().into_string())
        .await
        .expect("an answer within 30 s")
        .expect("body");
    (status, text)
}

/// The ids the owner's collections list: for `/a/b`, the `id` of every object in any
/// array its GET answers.
async fn listed_ids(env: &SearchEnv, token: &str, collection: &str) -> Vec<String> {
    let (status, text) = call(env, token, "GET", collection, &Value::Null).await;
    assert_eq!(status, 200, "{collection}: {text}");
    let answer: Value = serde_json::from_str(&text).expect("JSON");
    let mut ids = Vec::new();
    let mut stack = vec![answer];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => {
                for item in items {
                    if let Some(id) = item["id"].as_str() {
                        ids.push(id.to_owned());
                    }
                    stack.push(item);
                }
            }
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
    ids
}

/// The collection a path id comes from: the path up to the segment before `{...}`.
fn collection_of(path: &str) -> Option<String> {
    let at = path.find("/{")?;
    Some(path[..at].to_owned())
}

/// What the owner sees of its own data: every JSON GET, its ids filled in.
async fn owner_view(
    env: &SearchEnv,
    token: &str,
    ops: &[Operation],
    ids: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut view = BTreeMap::new();
    let acting = |op: &Operation| ACTING_READS.iter().any(|(id, _)| *id == op.id);
    for op in ops
        .iter()
        .filter(|op| op.method == "GET" && op.json_answer && !acting(op))
    {
        let Some(path) = fill(&op.path, ids) else { continue };
        let (status, text) = call(env, token, "GET", &path, &Value::Null).await;
        view.insert(path, format!("{status} {text}"));
    }
    view
}

/// `path` with its `{...}` replaced by the owner's id of its collection.
fn fill(path: &str, ids: &BTreeMap<String, String>) -> Option<String> {
    match collection_of(path) {
        None => Some(path.to_owned()),
        Some(collection) => {
            let id = ids.get(&collection)?;
            let start = path.find('{')?;
            let end = path[start..].find('}')? + start;
            Some(format!("{}{id}{}", &path[..start], &path[end + 1..]))
        }
    }
}

both_modes!(
    another_user_reaches_nothing_of_the_first_through_any_operation,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let owner = env.token.clone();
        let (_, intruder) = env.app.sign_in("intruder").await;
        let ops = operations();

        // The owner's data: its key (saved by the environment), a finished search (for a
        // client of theirs, issue #28 item 7), and whatever each collection lists.
        let city = env.dense_city("cafe", 3);
        let owner_client = "Owner's Own Client Co";
        let (status, events) = env
            .stream_body(json!({"businessType": "cafe", "location": city, "client": owner_client}))
            .await;
        assert_eq!(status, 200);
        assert_eq!(events.last().expect("events").1["type"], "complete");
        // A personal API token and a webhook endpoint (issue #15).
        let (status, token) = env
            .app
            .post(
                "/api/user/tokens",
                Some(&owner),
                Some(json!({"name": "owner's token", "scopes": ["usage:read"]})),
            )
            .await;
        assert_eq!(status, 200, "{token}");
        let owner_hook = "https://hooks.example.com/owner-only";
        let (status, hook) = env
            .app
            .post(
                "/api/user/webhooks",
                Some(&owner),
                Some(json!({"url": owner_hook, "events": ["search.completed"]})),
            )
            .await;
        assert_eq!(status, 200, "{hook}");
        let mut ids = BTreeMap::new();
        let mut uncovered = BTreeSet::new();
        for op in &ops {
            let Some(collection) = collection_of(&op.path) else {
                continue;
            };
            if FOREIGN_IDS.iter().any(|(id, _)| *id == op.id) || ids.contains_key(&collection) {
                continue;
            }
            let mut listed = listed_ids(&env, &owner, &collection).await;
            if listed.is_empty() {
                // The owner creates one, with the operation's documented example.
                if let Some(create) = ops.iter().find(|o| o.method == "POST" && o.path == collection) {
                    let (status, text) = call(&env, &owner, "POST", &collection, &create.body).await;
                    assert!(
                        status < 300,
                        "the owner creates with {}'s example: {status} {text}",
                        create.id
                    );
                    listed = listed_ids(&env, &owner, &collection).await;
                }
            }
            match listed.into_iter().next() {
                Some(id) => {
                    ids.insert(collection, id);
                }
                None => {
                    uncovered.insert(op.id.clone());
                }
            }
        }
        assert!(
            uncovered.is_empty(),
            "operations whose path id the owner has none of (create one in this test, or list it in FOREIGN_IDS with a reason): {uncovered:?}"
        );
        assert!(
            ids.contains_key("/api/leads/searches"),
            "the owner's search is listed: {ids:?}"
        );

        // What would give the owner away: its ids, its email, its key's preview.
        let (_, me) = env.app.get("/api/auth/me", Some(&owner)).await;
        let (_, key) = env.app.get("/api/user/api-key/status", Some(&owner)).await;
        let mut markers: Vec<String> = ids.values().cloned().collect();
        markers.push(
            me["user"]["email"]
                .as_str()
                .or(me["email"].as_str())
                .expect("owner's email")
                .to_owned(),
        );
        markers.push(
            key["api_key_status"]["key_preview"]
                .as_str()
                .expect("owner's key preview")
                .to_owned(),
        );
        markers.push(owner_hook.to_owned());
        markers.push(owner_client.to_owned());
        markers.push(token["info"]["prefix"].as_str().expect("token prefix").to_owned());
        let before = owner_view(&env, &owner, &ops, &ids).await;

        // The intruder calls everything, with the owner's ids.
        let mut called = 0;
        let mut with_owner_ids = BTreeSet::new();
        for op in &ops {
            if NOT_CALLED.iter().any(|(id, _)| *id == op.id) {
                continue;
            }
            let foreign = FOREIGN_IDS.iter().any(|(id, _)| *id == op.id);
            let path = if foreign {
                op.path.replace(['{', '}'], "")
            } else {
                fill(&op.path, &ids).expect("an owner id for every path id")
            };
            let (status, text) = call(&env, &intruder, &op.method, &path, &op.body).await;
            called += 1;
            if collection_of(&op.path).is_some() && !foreign {
                assert_eq!(status, 404, "{} {path} as another user: {text}", op.method);
                with_owner_ids.insert(op.id.as_str());
            }
            for marker in &markers {
                assert!(
                    !text.contains(marker.as_str()),
                    "{} {path} answered another user's data ({marker}): {text}",
                    op.method
                );
            }
        }
        assert!(
            called >= ops.len() - NOT_CALLED.len(),
            "every other operation was called"
        );

        // Nothing of the owner's changed.
        let after = owner_view(&env, &owner, &ops, &ids).await;
        for (path, seen) in &before {
            assert_eq!(
                Some(seen),
                after.get(path),
                "the owner's {path} changed after the other user's calls"
            );
        }
    }
);

/// The roles, least first.
const ROLES: [&str; 3] = ["member", "admin", "owner"];

fn rank(role: &str) -> usize {
    ROLES.iter().position(|r| *r == role).expect("a known role")
}

/// `path` with its workspace id (`/api/workspaces/{id}`), its member id, and any other id
/// filled in (a made-up one: what is checked here is answered before any look-up).
fn in_team(path: &str, team: &str, member: &str) -> String {
    let path = if path.starts_with("/api/workspaces/{id}") {
        path.replacen("{id}", team, 1)
    } else {
        path.to_owned()
    };
    path.replace("{user_id}", member)
        .replace("{id}", "0192f0c4-7a1e-7c3b-9a51-2f0d5f6b8e21")
}

both_modes!(
    a_workspace_admits_its_members_only_each_as_far_as_their_role,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let owner = env.token.clone();
        let (member_id, member) = env.app.sign_in("member").await;
        let (_, stranger) = env.app.sign_in("stranger").await;
        let ops = operations();

        // The owner's team: a key, a token and a webhook of its own.
        let (status, text) = call(&env, &owner, "POST", "/api/workspaces", &json!({"name": "Team"})).await;
        assert_eq!(status, 200, "{text}");
        let team: Value = serde_json::from_str(&text).expect("JSON");
        let team = team["id"].as_str().expect("id").to_owned();
        let team_id = leadgen_core::ids::WorkspaceId::from(team.as_str());
        env.app
            .state
            .store
            .add_member(&team_id, &member_id, leadgen_core::workspace::Role::Member)
            .await
            .expect("member joins");
        let in_team_call = |token: String, method: &'static str, path: &'static str, body: Value| {
            let (env, team) = (&env, team.clone());
            async move { call_in(env, &token, Some(&team), method, path, &body).await }
        };
        let (status, text) = in_team_call(
            owner.clone(),
            "POST",
            "/api/user/api-key",
            json!({"api_key": "AIzaSyA_team_0123456789abcdefghijklmnop"}),
        )
        .await;
        assert_eq!(status, 200, "{text}");
        let (status, hook) = in_team_call(
            owner.clone(),
            "POST",
            "/api/user/webhooks",
            json!({"url": "https://hooks.example.com/team-only", "events": ["search.completed"]}),
        )
        .await;
        assert_eq!(status, 200, "{hook}");
        let hook: Value = serde_json::from_str(&hook).expect("JSON");
        let (status, token) = in_team_call(
            owner.clone(),
            "POST",
            "/api/user/tokens",
            json!({"name": "team token", "scopes": ["usage:read"]}),
        )
        .await;
        assert_eq!(status, 200, "{token}");
        let token: Value = serde_json::from_str(&token).expect("JSON");
        let team_markers = [
            hook["webhook"]["id"].as_str().expect("hook id").to_owned(),
            "hooks.example.com/team-only".to_owned(),
            token["info"]["prefix"].as_str().expect("prefix").to_owned(),
            "mnop".to_owned(),
        ];

        let nowhere = leadgen_core::ids::WorkspaceId::random().to_string();
        let mut scoped = 0;
        // Leaving (`remove_member` with one's own id) is what a member may do there: last.
        let mut in_order: Vec<&Operation> = ops.iter().filter(|op| op.role.is_some()).collect();
        in_order.sort_by_key(|op| op.id == "remove_member");
        for op in in_order {
            if NOT_CALLED.iter().any(|(id, _)| *id == op.id) {
                continue;
            }
            scoped += 1;
            let role = op.role.as_deref().expect("role");
            let by_path = op.path.starts_with("/api/workspaces/{id}");
            // A stranger: the team, and an id that never existed, answer alike.
            let mut answers = Vec::new();
            for ws in [team.as_str(), nowhere.as_str()] {
                let path = in_team(&op.path, ws, member_id.as_str());
                let header = (!by_path).then_some(ws);
                let (status, text) = call_in(&env, &stranger, header, &op.method, &path, &op.body).await;
                assert_eq!(status, 404, "{} {path} as a stranger: {text}", op.id);
                answers.push(text);
            }
            assert_eq!(
                answers[0], answers[1],
                "{}: the team is not told apart from nothing",
                op.id
            );
            // The member: refused exactly where the role is above theirs.
            let path = in_team(&op.path, &team, member_id.as_str());
            let header = (!by_path).then_some(team.as_str());
            let (status, text) = call_in(&env, &member, header, &op.method, &path, &op.body).await;
            let refused = status == 403 && text.contains("role_required");
            assert_eq!(
                refused,
                rank(role) > rank("member"),
                "{} (needs {role}) as a member: {status} {text}",
                op.id
            );
            assert!(
                !text.contains("No such workspace"),
                "{} lets its member in: {text}",
                op.id
            );
        }
        assert!(scoped >= 30, "{scoped} workspace-scoped operations called");

        // No list in the member's personal workspace, nor in the owner's, shows the team's
        // data; and the team's lists show nothing of the owner's personal search.
        let (_, personal_history) = call(&env, &owner, "GET", "/api/leads/searches", &Value::Null).await;
        for op in ops
            .iter()
            .filter(|op| op.method == "GET" && op.json_answer && op.role.is_some())
        {
            if op.path.contains('{') {
                continue;
            }
            for who in [&member, &owner] {
                let (_, text) = call(&env, who, "GET", &op.path, &Value::Null).await;
                for marker in &team_markers {
                    assert!(
                        !text.contains(marker.as_str()),
                        "{} outside the team shows {marker}: {text}",
                        op.id
                    );
                }
            }
            let (_, text) = call_in(&env, &owner, Some(&team), "GET", &op.path, &Value::Null).await;
            let personal: Value = serde_json::from_str(&personal_history).unwrap_or_default();
            for search in personal["searches"].as_array().into_iter().flatten() {
                let id = search["id"].as_str().expect("id");
                assert!(
                    !text.contains(id),
                    "{} in the team shows the personal search {id}",
                    op.id
                );
            }
        }
    }
);
