//! Refusals in plain words (#26): a body or a parameter the API cannot read is refused
//! naming the field and the rule ("Location is at most 400 characters."), never with a
//! parser's text ("failed to parse \"integer_int64\"").
//!
//! poem-openapi's parse errors often do not name the field. So when it refuses a JSON body,
//! the body (kept by [`PlainPayloadErrors`]) is checked again against the operation's own
//! request schema in the published document, which holds every rule the contract states,
//! and the first problem found is the message. A parameter's refusal names the parameter
//! and the kind of value it takes.

use std::sync::OnceLock;

use bytes::Bytes;
use poem::{Endpoint, IntoResponse, Middleware, Request, Response, http::StatusCode};
use serde_json::Value;

use crate::error::envelope;

/// Set on a 400 whose cause is a body the operation could not read (by `error::render`).
#[derive(Debug, Clone)]
pub struct PayloadRejected;

/// The published document, parsed once.
fn spec() -> &'static Value {
    static SPEC: OnceLock<Value> = OnceLock::new();
    SPEC.get_or_init(|| serde_json::from_str(&crate::app::openapi_json()).unwrap_or(Value::Null))
}

/// The request body schema of `operation_id`.
fn request_schema(operation_id: &str) -> Option<&'static Value> {
    spec()["paths"]
        .as_object()?
        .values()
        .filter_map(Value::as_object)
        .flat_map(|item| item.values())
        .find(|op| op["operationId"] == operation_id)?
        .pointer("/requestBody/content")?
        .as_object()?
        .values()
        .next()?
        .get("schema")
}

/// Follows `$ref` and merges `allOf` (one level, as the document writes them).
fn resolve(schema: &Value) -> Value {
    if let Some(name) = schema["$ref"]
        .as_str()
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
    {
        return resolve(&spec()["components"]["schemas"][name]);
    }
    if let Some(parts) = schema["allOf"].as_array() {
        let mut merged = serde_json::Map::new();
        for part in parts.iter().map(resolve) {
            if let Some(part) = part.as_object() {
                for (k, v) in part {
                    merged.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
        }
        if let Some(own) = schema.as_object() {
            for (k, v) in own.iter().filter(|(k, _)| *k != "allOf") {
                merged.insert(k.clone(), v.clone());
            }
        }
        return Value::Object(merged);
    }
    schema.clone()
}

/// How a field is named in a message: a one-word field capitalised (`Location`), others
/// as the API spells them (`minReviews`, `area.center.latitude`).
fn label(path: &str) -> String {
    if path.is_empty() {
        return "The body".to_owned();
    }
    if path.chars().all(|c| c.is_ascii_lowercase()) {
        let mut chars = path.chars();
        return chars
            .next()
            .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
            .unwrap_or_default();
    }
    path.to_owned()
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn number_text(n: &Value) -> String {
    match n.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        _ => n.to_string(),
    }
}

/// A range in words: "from 0 to 5", "at least 1", "at most 100".
fn range(schema: &Value) -> Option<String> {
    let above = schema["exclusiveMinimum"] == true;
    match (schema.get("minimum"), schema.get("maximum")) {
        (Some(lo), Some(hi)) if above => Some(format!("above {} and at most {}", number_text(lo), number_text(hi))),
        (Some(lo), Some(hi)) => Some(format!("from {} to {}", number_text(lo), number_text(hi))),
        (Some(lo), None) => Some(format!("at least {}", number_text(lo))),
        (None, Some(hi)) => Some(format!("at most {}", number_text(hi))),
        (None, None) => None,
    }
}

/// The first way `value` breaks `schema`, in plain words.
pub fn first_problem(value: &Value, schema: &Value, path: &str) -> Option<String> {
    let schema = resolve(schema);
    let name = label(path);
    if value.is_null() {
        return None;
    }
    if let Some(allowed) = schema["enum"].as_array()
        && !allowed.contains(value)
    {
        // A nullable enum lists `null` among its words; absent says it better.
        let words: Vec<String> = allowed
            .iter()
            .filter(|v| !v.is_null())
            .map(|v| v.as_str().map_or_else(|| v.to_string(), |s| format!("\"{s}\"")))
            .collect();
        return Some(format!("{name} must be one of {}.", words.join(", ")));
    }
    match schema["type"].as_str() {
        Some("string") => {
            let Some(text) = value.as_str() else {
                return Some(format!("{name} must be text."));
            };
            let length = text.chars().count() as u64;
            if let Some(max) = schema["maxLength"].as_u64()
                && length > max
            {
                return Some(format!("{name} is at most {max} characters."));
            }
            if let Some(min) = schema["minLength"].as_u64()
                && length < min
            {
                return Some(if min == 1 {
                    format!("{name} must not be empty.")
                } else {
                    format!("{name} is at least {min} characters.")
                });
            }
            None
        }
        Some("integer") => {
            let whole = value.as_i64().is_some() || value.as_u64().is_some();
            let in_range = value.as_f64().is_some_and(|n| {
                schema["minimum"].as_f64().is_none_or(|lo| n >= lo)
                    && schema["maximum"].as_f64().is_none_or(|hi| n <= hi)
            });
            (!whole || !in_range).then(|| match range(&schema) {
                Some(range) => format!("{name} must be a whole number {range}."),
                None => format!("{name} must be a whole number."),
            })
        }
        Some("number") => {
            let above = schema["exclusiveMinimum"] == true;
            let in_range = value.as_f64().is_some_and(|n| {
                schema["minimum"]
                    .as_f64()
                    .is_none_or(|lo| n > lo || (!above && n == lo))
                    && schema["maximum"].as_f64().is_none_or(|hi| n <= hi)
            });
            (!in_range).then(|| match range(&schema) {
                Some(range) => format!("{name} must be a number {range}."),
                None => format!("{name} must be a number."),
            })
        }
        Some("boolean") => (!value.is_boolean()).then(|| format!("{name} must be true or false.")),
        Some("array") => {
            let Some(items) = value.as_array() else {
                return Some(format!("{name} must be a list."));
            };
            if let Some(min) = schema["minItems"].as_u64()
                && (items.len() as u64) < min
            {
                return Some(format!(
                    "{name} needs at least {min} item{}.",
                    if min == 1 { "" } else { "s" }
                ));
            }
            if let Some(max) = schema["maxItems"].as_u64()
                && items.len() as u64 > max
            {
                return Some(format!("{name} holds at most {max} items."));
            }
            items
                .iter()
                .enumerate()
                .find_map(|(i, item)| first_problem(item, &schema["items"], &format!("{path}[{i}]")))
        }
        Some("object") | None if schema.get("properties").is_some() => {
            let Some(object) = value.as_object() else {
                return Some(format!("{name} must be an object."));
            };
            let required = schema["required"].as_array().cloned().unwrap_or_default();
            if let Some(missing) = required
                .iter()
                .filter_map(Value::as_str)
                .find(|field| object.get(*field).is_none_or(Value::is_null))
            {
                return Some(format!("{} is required.", label(&join(path, missing))));
            }
            let properties = schema["properties"].as_object()?;
            properties.iter().find_map(|(field, field_schema)| {
                object
                    .get(field)
                    .and_then(|v| first_problem(v, field_schema, &join(path, field)))
            })
        }
        _ => None,
    }
}

/// What to say about a body `operation_id` could not read.
pub fn explain(operation_id: &str, body: &[u8]) -> String {
    let value: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(error) => return format!("The body is not valid JSON ({error})."),
    };
    request_schema(operation_id)
        .and_then(|schema| first_problem(&value, schema, ""))
        .unwrap_or_else(|| "The body does not match what this operation takes: see its schema in /api/docs.".to_owned())
}

/// What to say about a query or header parameter poem-openapi could not read, from its
/// message (`failed to parse parameter `limit`: failed to parse "integer_int64": ...`).
pub fn explain_parameter(message: &str) -> Option<String> {
    let (name, detail) = if let Some(rest) = message.strip_prefix("failed to parse path `") {
        // poem names path parameters by position (`param0`); this API's first path
        // parameter is always `{id}`, and the one second one a member's `{user_id}`
        // (`/api/workspaces/{id}/members/{user_id}`).
        let (position, detail) = rest.split_once('`')?;
        (if position == "param1" { "user_id" } else { "id" }, detail)
    } else {
        message.strip_prefix("failed to parse parameter `")?.split_once('`')?
    };
    let kind = if detail.contains("not a uuid") {
        "an id this API gave (a UUID)"
    } else if detail.contains("integer") {
        "a whole number"
    } else if detail.contains("number") {
        "a number"
    } else if detail.contains("boolean") {
        "true or false"
    } else if detail.contains("\"string\"") {
        "text"
    } else {
        "one of the documented values"
    };
    Some(format!("Parameter {name} must be {kind}."))
}

/// Keeps each JSON body so a refusal of it can be explained (see the module docs).
pub struct PlainPayloadErrors;

impl<E: Endpoint> Middleware<E> for PlainPayloadErrors {
    type Output = PlainPayloadErrorsEndpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        PlainPayloadErrorsEndpoint(inner)
    }
}

/// [`PlainPayloadErrors`] around an endpoint.
pub struct PlainPayloadErrorsEndpoint<E>(E);

impl<E: Endpoint> Endpoint for PlainPayloadErrorsEndpoint<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let json = req.uri().path().starts_with("/api/")
            && req.content_type().is_some_and(|t| t.starts_with("application/json"));
        let kept: Option<Bytes> = if json {
            // `BodyLimit` (outside) has bounded it already.
            let bytes = req.take_body().into_bytes().await?;
            req.set_body(bytes.clone());
            Some(bytes)
        } else {
            None
        };
        let response = self.0.call(req).await?.into_response();
        let (Some(body), Some(_)) = (kept, response.data::<PayloadRejected>()) else {
            return Ok(response);
        };
        let Some(operation) = response.data::<poem_openapi::OperationId>().map(|op| op.0) else {
            return Ok(response);
        };
        let mut plain = envelope(StatusCode::BAD_REQUEST, "invalid_request", &explain(operation, &body));
        plain.set_data(poem_openapi::OperationId(operation));
        Ok(plain)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_search_body_is_refused_naming_the_field_and_the_rule() {
        let cases = [
            (
                json!({"location": "x".repeat(5400)}),
                "Location is at most 400 characters.",
            ),
            (
                json!({"location": "Austin", "minReviews": 1e20}),
                "minReviews must be a whole number from 0 to 1000000.",
            ),
            (
                json!({"minReviews": "many"}),
                "minReviews must be a whole number from 0 to 1000000.",
            ),
            (json!({"location": 5}), "Location must be text."),
            (
                json!({"coverage": "everything"}),
                "Coverage must be one of \"quick\", \"full\".",
            ),
            (json!({"minRating": 7}), "minRating must be a number from 0 to 5."),
            (
                json!({"area": {"center": {"latitude": "a", "longitude": 1}, "radiusMeters": 5}}),
                "area.center.latitude must be a number from -90 to 90.",
            ),
            (json!({"enrich": "yes"}), "Enrich must be true or false."),
            (
                json!({"maxCostUsd": 0}),
                "maxCostUsd must be a number above 0 and at most 10000.",
            ),
            (json!([1]), "The body must be an object."),
        ];
        for (body, expected) in cases {
            let said = explain("search_leads", body.to_string().as_bytes());
            assert_eq!(said, expected, "for {body}");
        }
        assert!(explain("search_leads", b"{not json").starts_with("The body is not valid JSON ("));
    }

    #[test]
    fn lists_and_required_fields_are_explained() {
        assert_eq!(
            explain(
                "create_token",
                json!({"name": "ci", "scopes": []}).to_string().as_bytes()
            ),
            "Scopes needs at least 1 item."
        );
        assert_eq!(
            explain("create_token", json!({"scopes": ["usage:read"]}).to_string().as_bytes()),
            "Name is required."
        );
    }

    #[test]
    fn a_parameter_is_named_with_the_kind_it_takes() {
        assert_eq!(
            explain_parameter(
                "failed to parse parameter `limit`: failed to parse \"integer_int64\": invalid digit found in string (occurred while parsing \"optional_integer_int64\")"
            )
            .as_deref(),
            Some("Parameter limit must be a whole number.")
        );
        assert_eq!(explain_parameter("something else"), None);
        assert_eq!(
            explain_parameter("failed to parse path `param0`: failed to parse \"string_uuid\": not a uuid").as_deref(),
            Some("Parameter id must be an id this API gave (a UUID).")
        );
        assert_eq!(
            explain_parameter("failed to parse path `param1`: failed to parse \"string_uuid\": not a uuid").as_deref(),
            Some("Parameter user_id must be an id this API gave (a UUID).")
        );
        let spec: Value = serde_json::from_str(&crate::app::openapi_json()).expect("spec");
        let path_parameters: std::collections::BTreeSet<&str> = spec["paths"]
            .as_object()
            .expect("paths")
            .values()
            .filter_map(Value::as_object)
            .flat_map(|item| item.values())
            .filter_map(|op| op["parameters"].as_array())
            .flatten()
            .filter(|p| p["in"] == "path")
            .filter_map(|p| p["name"].as_str())
            .collect();
        assert_eq!(
            path_parameters,
            ["id", "user_id", "invitation_id", "token"].into(),
            "every first path parameter is `id` (or an invitation link's `token`), a second one a member's `user_id` (or an `invitation_id`)"
        );
        // `token` and `invitation_id` are plain text, which always parses: no refusal
        // names them by position (where `param0` reads as `id`).
        for item in spec["paths"].as_object().expect("paths").values() {
            for op in item.as_object().expect("operations").values() {
                for p in op["parameters"].as_array().into_iter().flatten() {
                    if p["name"] == "token" || p["name"] == "invitation_id" {
                        assert_eq!(p["schema"], json!({"type": "string"}), "{p}");
                    }
                }
            }
        }
        // ... and `user_id` only ever second, after the workspace's `{id}`.
        for path in spec["paths"].as_object().expect("paths").keys() {
            if path.contains("{user_id}") {
                assert!(path.starts_with("/api/workspaces/{id}/"), "{path}");
            }
        }
    }
}
