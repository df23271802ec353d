//! The tenant isolation matrix (issue #12), generated from `openapi.json`: user A owns
//! data (a key, a finished search, and whatever the collections list), user B calls
//! every operation, with A's ids wherever a path takes an id. Every call by B with A's
//! id must answer 404 (the id's existence is not confirmed), no answer to B may carry
//! A's data, and A's view of its own data must be the same afterwards. An operation added
//! later is called too: the owner's ids come from the collection a path id belongs to
//! (`GET /a/b` for `/a/b/{id}`), created first with the collection's `POST` and its
//! documented example when empty; a path id this test still has no owner's value for
//! fails it (or is added to `FOREIGN_IDS` with its reason).

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
const FOREIGN_IDS: &[(&str, &str)] = &[(
    "list_worksheets",
    "the id is a Google spreadsheet's; Google checks it against the caller's own grant",
)];

struct Operation {
    id: String,
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
    for op in ops.iter().filter(|op| op.method == "GET" && op.json_answer) {
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

        // The owner's data: its key (saved by the environment), a finished search, and
        // whatever each collection lists.
        let city = env.dense_city("cafe", 3);
        let (status, events) = env.stream("cafe", &city).await;
        assert_eq!(status, 200);
        assert_eq!(events.last().expect("events").1["type"], "complete");
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
