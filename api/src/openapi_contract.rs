//! Statuses that whole classes of operations can answer, documented in one place on the
//! spec poem-openapi generates (issue #12: "every status an operation can answer"):
//!
//! - 429 `rate_limited` with `Retry-After`: every operation the rate limits cover (all but
//!   health and readiness; see `rate_limits`);
//! - 415: every operation that takes a JSON body, when the body is sent as something else;
//! - 401: every operation behind the bearer scheme (most document it already);
//! - 503 `unavailable`: every operation but liveness, when the store or Redis cannot be
//!   reached (`ApiError` maps both to it).
//!
//! They come from middleware and extractors, not from the handlers' own answer types, so
//! no handler's signature could say them.

use serde_json::{Map, Value, json};

/// Operations outside the rate limits (their paths are exempt in `rate_limits`).
const NOT_RATE_LIMITED: &[&str] = &["get_health", "get_ready"];

/// `spec` (JSON) with the common statuses added where an operation lacks them.
pub fn with_common_responses(spec: &str) -> String {
    let mut doc: Value = match serde_json::from_str(spec) {
        Ok(doc) => doc,
        Err(_) => return spec.to_owned(),
    };
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return spec.to_owned();
    };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for op in item.values_mut() {
            let Some(op) = op.as_object_mut() else { continue };
            let id = op
                .get("operationId")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let takes_body = op.contains_key("requestBody");
            let secured = op
                .get("security")
                .and_then(Value::as_array)
                .is_some_and(|s| !s.is_empty());
            let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
                continue;
            };
            if !NOT_RATE_LIMITED.contains(&id.as_str()) {
                add(responses, "429", too_many_requests());
            }
            if takes_body {
                add(
                    responses,
                    "415",
                    error_answer("The body is not JSON: send it with `Content-Type: application/json`."),
                );
            }
            if id != "get_health" {
                add(
                    responses,
                    "503",
                    error_answer("A backing service (the database or Redis) is unavailable; try again shortly."),
                );
            }
            if secured {
                add(
                    responses,
                    "401",
                    error_answer("No valid credential (missing, malformed, expired or revoked)."),
                );
            }
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned())
}

fn add(responses: &mut Map<String, Value>, status: &str, answer: Value) {
    responses.entry(status).or_insert(answer);
}

fn error_answer(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json; charset=utf-8": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    })
}

fn too_many_requests() -> Value {
    let mut answer = error_answer(
        "Too many requests from this user, address or API token (`rate_limited`); try again after `Retry-After` seconds.",
    );
    answer["headers"] = json!({
        "Retry-After": {
            "description": "Seconds to wait before the next request.",
            "schema": {"type": "integer", "minimum": 1},
        }
    });
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_what_a_class_of_operations_can_answer_and_keeps_what_is_there() {
        let spec = json!({"paths": {
            "/api/x": {"post": {"operationId": "make_x", "requestBody": {}, "security": [{"BearerAuth": []}],
                                "responses": {"200": {"description": "ok"}, "401": {"description": "kept"}}}},
            "/api/health": {"get": {"operationId": "get_health", "responses": {"200": {"description": "ok"}}}},
        }});
        let out: Value = serde_json::from_str(&with_common_responses(&spec.to_string())).expect("json");
        let made = &out["paths"]["/api/x"]["post"]["responses"];
        assert_eq!(made["401"]["description"], "kept");
        assert!(made["415"]["content"].is_object());
        assert_eq!(made["429"]["headers"]["Retry-After"]["schema"]["type"], "integer");
        assert!(made["503"]["content"].is_object(), "a store or Redis outage");
        let health = out["paths"]["/api/health"]["get"]["responses"]
            .as_object()
            .expect("responses");
        assert_eq!(
            health.keys().collect::<Vec<_>>(),
            ["200"],
            "health is not rate limited, takes no body"
        );
    }
}
