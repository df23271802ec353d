//! Statuses that whole classes of operations can answer, documented in one place on the
//! spec poem-openapi generates (issue #12: "every status an operation can answer"):
//!
//! - 429 `rate_limited` with `Retry-After`: every operation the rate limits cover (all but
//!   health and readiness; see `rate_limits`);
//! - 413 `payload_too_large`: every operation that takes a body, above its limit
//!   (`body_limit`: 256 KiB, the export 16 MiB);
//! - 415: every operation that takes a JSON body, when the body is sent as something else;
//! - 401: every operation behind the bearer scheme (most document it already);
//! - 503 `unavailable`: every operation but liveness, when the store or Redis cannot be
//!   reached (`ApiError` maps both to it).
//!
//! They come from middleware and extractors, not from the handlers' own answer types, so
//! no handler's signature could say them.
//!
//! It also says two things about shapes that poem-openapi cannot express:
//!
//! - an event stream is documented event by event, as OpenAPI 3.0 readers (schemathesis
//!   among them) take a `text/event-stream` schema: each frame is an object with `id` and
//!   `data`, and `data` holds one JSON event (`contentMediaType` and `contentSchema`);
//! - an optional field of a request body may be `null`, which poem-openapi reads as
//!   absent (or its default): the document says so, so that clients may send it.

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
                let limit = crate::body_limit::in_words(crate::body_limit::limit_for_operation(&id));
                add(
                    responses,
                    "413",
                    error_answer(&format!(
                        "The body is larger than {limit}, the most this operation takes (`payload_too_large`)."
                    )),
                );
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
    for item in paths.values_mut().filter_map(Value::as_object_mut) {
        for op in item.values_mut().filter_map(Value::as_object_mut) {
            for answer in op
                .get_mut("responses")
                .and_then(Value::as_object_mut)
                .into_iter()
                .flat_map(|r| r.values_mut())
            {
                if let Some(stream) = answer.pointer_mut("/content/text~1event-stream") {
                    document_frames(stream);
                }
            }
        }
    }
    let request_schemas = request_body_schemas(&doc);
    if let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) {
        for name in request_schemas {
            if let Some(schema) = schemas.get_mut(&name) {
                optional_fields_nullable(schema);
            }
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned())
}

/// poem-openapi documents an event stream as an array of its events; a reader of
/// OpenAPI 3.0 applies a stream's schema to each frame instead. Says what a frame is.
fn document_frames(stream: &mut Value) {
    let Some(event) = stream.pointer("/schema/items").cloned() else {
        return;
    };
    stream["schema"] = json!({
        "type": "object",
        "description": "One Server-Sent Events frame. Keep-alive comments (lines starting with `:`) come between frames.",
        "required": ["data"],
        "properties": {
            "id": {
                "type": "string",
                "pattern": "^[0-9]+$",
                "description": "The event's number in its search (1, 2, ...): send the last one seen as `Last-Event-ID` to resume after it.",
            },
            "event": {"type": "string", "enum": ["message"], "description": "Always the default type."},
            "data": {
                "type": "string",
                "description": "One JSON event (`start`, `business_found`, `progress`, `lead_enriched`, `complete`, `error`).",
                // OpenAPI 3.0 has no `contentSchema` (3.1 does): an extension keeps the
                // event's schema beside the frame for readers and generators.
                "x-contentMediaType": "application/json",
                "x-contentSchema": event,
            },
        },
    });
}

/// Names of the component schemas a request body can hold, directly or nested.
fn request_body_schemas(doc: &Value) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut pending: Vec<&Value> = Vec::new();
    for item in doc
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.values())
    {
        for op in item.as_object().into_iter().flat_map(|o| o.values()) {
            pending.extend(op.get("requestBody"));
        }
    }
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(map) => {
                if let Some(name) = map
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix("#/components/schemas/"))
                    && !found.iter().any(|f| f == name)
                {
                    found.push(name.to_owned());
                    pending.extend(doc.pointer(&format!("/components/schemas/{name}")));
                }
                pending.extend(map.values());
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
    found
}

/// Marks every property an object does not require as nullable.
fn optional_fields_nullable(schema: &mut Value) {
    let required: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for (name, property) in properties.iter_mut() {
        if !required.contains(name) {
            // In OpenAPI 3.0 a keyword beside `$ref` is ignored: wrap the reference first.
            if let Some(reference) = property.get("$ref").cloned() {
                *property = json!({"allOf": [{"$ref": reference}]});
            }
            if let Some(property) = property.as_object_mut() {
                property.insert("nullable".into(), Value::Bool(true));
            }
        }
    }
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
