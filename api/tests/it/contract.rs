//! The published contract says what each operation really answers: 404 only where
//! something is looked up, 502 only where an upstream is called, 401 wherever a session is
//! needed, and no operation lists every status "just in case".

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// Operation id → documented statuses.
fn documented() -> BTreeMap<String, BTreeSet<String>> {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("openapi JSON");
    let mut out = BTreeMap::new();
    for (_, item) in doc["paths"].as_object().expect("paths") {
        for (_, op) in item.as_object().expect("operations") {
            let id = op["operationId"].as_str().expect("operationId").to_owned();
            let statuses = op["responses"]
                .as_object()
                .expect("responses")
                .keys()
                .cloned()
                .collect();
            out.insert(id, statuses);
        }
    }
    out
}

/// Operations that take the bearer scheme.
fn secured() -> BTreeSet<String> {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("openapi JSON");
    let mut out = BTreeSet::new();
    for (_, item) in doc["paths"].as_object().expect("paths") {
        for (_, op) in item.as_object().expect("operations") {
            // Public operations say `security: []`.
            if op
                .get("security")
                .and_then(Value::as_array)
                .is_some_and(|s| !s.is_empty())
            {
                out.insert(op["operationId"].as_str().expect("operationId").to_owned());
            }
        }
    }
    out
}

/// Operations that act in a workspace (they document their least role).
pub fn workspace_scoped() -> BTreeSet<String> {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("openapi JSON");
    let mut out = BTreeSet::new();
    for (_, item) in doc["paths"].as_object().expect("paths") {
        for (_, op) in item.as_object().expect("operations") {
            if op.get("x-leadgen-role").is_some() {
                out.insert(op["operationId"].as_str().expect("operationId").to_owned());
            }
        }
    }
    out
}

const SHEETS: [&str; 6] = [
    "get_sheets_auth_status",
    "list_sheets",
    "validate_sheet",
    "list_worksheets",
    "export_to_sheets",
    // Choosing delivery to Sheets opens the spreadsheet at Google.
    "update_delivery",
];

#[test]
fn statuses_are_documented_only_where_they_can_happen() {
    let ops = documented();
    let with = |status: &str| -> BTreeSet<&str> {
        ops.iter()
            .filter(|(_, s)| s.contains(status))
            .map(|(id, _)| id.as_str())
            .collect()
    };
    // Google or Stripe is called: the searches, locating a location, the key test, Stripe
    // and Sheets.
    let upstream: BTreeSet<&str> = [
        "search_leads",
        "estimate_search",
        "locate_area",
        "test_api_key",
        "check_api_key",
        "create_checkout_session",
        "create_portal_session",
        "get_subscription_status",
    ]
    .into_iter()
    .chain(SHEETS)
    .collect();
    assert!(
        with("502").is_subset(&upstream),
        "502 outside upstream calls: {:?}",
        with("502")
    );
    // Looked up by id: a spreadsheet, a search, a token, a webhook endpoint, or an
    // invitation by its link's token.
    let lookups: BTreeSet<&str> = SHEETS
        .into_iter()
        .chain([
            "get_search",
            "stream_search_events",
            "cancel_search",
            "revoke_token",
            "delete_webhook",
            "rotate_webhook_secret",
            "test_webhook",
            "list_webhook_deliveries",
            "get_invitation",
            "accept_invitation",
        ])
        .collect();
    // And every workspace-scoped operation: a non-member is told the workspace does not
    // exist.
    let in_workspace = workspace_scoped();
    let lookups: BTreeSet<&str> = lookups
        .into_iter()
        .chain(in_workspace.iter().map(String::as_str))
        .collect();
    assert!(
        with("404").is_subset(&lookups),
        "404 outside look-ups: {:?}",
        with("404")
    );
    // The rate limits cover every operation but health and readiness.
    let unlimited: BTreeSet<&str> = ops
        .keys()
        .map(String::as_str)
        .filter(|id| !with("429").contains(id))
        .collect();
    assert_eq!(
        unlimited,
        ["get_health", "get_ready"].into(),
        "429 everywhere the rate limits apply"
    );
    assert_eq!(
        ops["get_usage"],
        ["200", "400", "401", "403", "404", "429", "500", "503"]
            .map(String::from)
            .into(),
        "reading usage only needs a session, or a token with `usage:read`, in a workspace of the caller's (400: a Leadgen-Workspace header that is not an id; 404: not a member; 503: the store is unreachable)"
    );
    // An unreachable store or Redis answers 503 anywhere but liveness.
    let without_503: BTreeSet<&str> = ops
        .keys()
        .map(String::as_str)
        .filter(|id| !with("503").contains(id))
        .collect();
    assert_eq!(
        without_503,
        ["get_health"].into(),
        "503 wherever the store or Redis is used"
    );
    // 403: an API token refused (scope, or a session needed); only where a token is taken,
    // and local sign-in away from the server's machine.
    let secured = secured();
    assert!(
        with("403").is_subset(&secured.iter().map(String::as_str).chain(["start_sign_in"]).collect()),
        "403 without a bearer scheme: {:?}",
        with("403")
    );
    assert!(
        ops["search_leads_stream"].contains("429") && ops["search_leads_stream"].contains("400"),
        "a search can be refused"
    );
}

/// Whether `value` fits `schema` in shape: every required field present, no field the
/// schema does not declare, and each field's JSON type as declared (refs followed).
fn fits(value: &Value, schema: &Value, schemas: &Value, at: &str) -> Result<(), String> {
    if let Some(name) = schema["$ref"].as_str().and_then(|r| r.rsplit('/').next()) {
        return fits(value, &schemas[name], schemas, at);
    }
    if let Some(all) = schema["allOf"].as_array() {
        return all.iter().try_for_each(|s| fits(value, s, schemas, at));
    }
    if value.is_null() {
        return Ok(()); // Optional fields may be null.
    }
    match schema["type"].as_str() {
        Some("object") | None if schema.get("properties").is_some() => {
            let object = value.as_object().ok_or(format!("{at}: not an object"))?;
            let properties = schema["properties"].as_object().expect("properties");
            for required in schema["required"].as_array().into_iter().flatten() {
                let key = required.as_str().expect("name");
                if !object.contains_key(key) {
                    return Err(format!("{at}: missing required `{key}`"));
                }
            }
            for (key, field) in object {
                let declared = properties.get(key).ok_or(format!("{at}: undeclared `{key}`"))?;
                fits(field, declared, schemas, &format!("{at}.{key}"))?;
            }
            Ok(())
        }
        Some("array") => value
            .as_array()
            .ok_or(format!("{at}: not an array"))?
            .iter()
            .try_for_each(|item| fits(item, &schema["items"], schemas, &format!("{at}[]"))),
        Some("string") if schema.get("enum").is_some() => schema["enum"]
            .as_array()
            .filter(|e| e.contains(value))
            .map(|_| ())
            .ok_or(format!("{at}: {value} is not one of {}", schema["enum"])),
        Some("string") => value.is_string().then_some(()).ok_or(format!("{at}: not a string")),
        Some("integer") => value.is_i64().then_some(()).ok_or(format!("{at}: not an integer")),
        Some("number") => value.is_number().then_some(()).ok_or(format!("{at}: not a number")),
        Some("boolean") => value.is_boolean().then_some(()).ok_or(format!("{at}: not a boolean")),
        _ => Ok(()),
    }
}

/// Issue #15: an example on every operation (request, answer, parameters, a curl line),
/// each one shaped as its schema says.
#[test]
fn every_operation_has_examples_that_fit_their_schemas() {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("openapi JSON");
    let schemas = &doc["components"]["schemas"];
    let mut problems = Vec::new();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            let id = op["operationId"].as_str().expect("id");
            let description = op["description"].as_str().unwrap_or_default();
            if !description.contains("```sh\ncurl") {
                problems.push(format!("{id}: no curl example"));
            }
            let body = op.pointer("/requestBody/content").and_then(Value::as_object);
            for (_, media) in body
                .into_iter()
                .flatten()
                .filter(|(t, _)| t.starts_with("application/json"))
            {
                match media.get("example") {
                    None => problems.push(format!("{id}: no request example")),
                    Some(e) => {
                        if let Err(p) = fits(e, &media["schema"], schemas, &format!("{id} request")) {
                            problems.push(p);
                        }
                    }
                }
            }
            for (status, response) in op["responses"].as_object().expect("responses") {
                if !status.starts_with('2') {
                    continue;
                }
                for (media_type, media) in response["content"].as_object().into_iter().flatten() {
                    match media.get("example") {
                        None => problems.push(format!("{id}: no {status} {media_type} example")),
                        Some(e) if media_type.starts_with("application/json") => {
                            checked += 1;
                            if let Err(p) = fits(e, &media["schema"], schemas, &format!("{id} {status}")) {
                                problems.push(p);
                            }
                        }
                        Some(_) => {}
                    }
                }
            }
            for param in op["parameters"].as_array().into_iter().flatten() {
                if param["in"] == "path" && param.get("example").is_none() {
                    problems.push(format!("{method} {path}: no example of `{}`", param["name"]));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(checked >= 30, "answers checked against their schemas: {checked}");
}

/// Every operation that takes a JSON body documents 415, and the server answers it.
#[tokio::test]
async fn a_body_that_is_not_json_gets_the_documented_415() {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("openapi JSON");
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            if op.get("requestBody").is_some() {
                assert!(
                    op["responses"]["415"].is_object(),
                    "{method} {path} takes a body but does not document 415"
                );
            }
        }
    }
    let app = crate::support::TestApp::start(crate::support::Backend::Sqlite, vec![]).await;
    let (_, token) = app.sign_in("contract").await;
    let response = app
        .client
        .post("/api/leads/estimate")
        .header("authorization", format!("Bearer {token}"))
        .content_type("text/plain")
        .body("businessType=cafe")
        .send()
        .await;
    assert_eq!(response.0.status().as_u16(), 415);
}

/// A method a path does not take answers 405 with `Allow` naming the ones it does.
#[tokio::test]
async fn a_wrong_method_answers_405_with_allow() {
    let app = crate::support::TestApp::start(crate::support::Backend::Sqlite, vec![]).await;
    for (method, path, allowed) in [
        (poem::http::Method::TRACE, "/api/leads/usage", "GET, HEAD"),
        (poem::http::Method::PUT, "/api/leads/searches/s-1/cancel", "POST"),
        (poem::http::Method::DELETE, "/api/health", "GET, HEAD"),
    ] {
        let response = app.client.request(method.clone(), path).send().await;
        assert_eq!(response.0.status().as_u16(), 405, "{method} {path}");
        assert_eq!(
            response.0.headers().get("allow").and_then(|v| v.to_str().ok()),
            Some(allowed),
            "{method} {path}"
        );
    }
}
