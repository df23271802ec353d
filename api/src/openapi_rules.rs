//! Rules that core's parsers enforce on request fields, written into the spec poem-openapi
//! generates (issue #12: "request constraints in the schema, so that schema-valid input
//! is accepted and invalid input gets a 400 with the spec's message").
//!
//! The handlers keep parsing these fields with core's own types (`Scopes::parse`,
//! `catalogue::find`, `webhooks::parse_events`...), whose refusals carry the product's
//! messages; a poem-openapi validator would refuse first, with its own wording. So the
//! rules are stated here, from the same constants the parsers use, and schemathesis
//! (frontend/e2e/contract-fuzz.spec.ts) checks in both directions that the server and the
//! document agree.

use leadgen_core::{
    api_key,
    personal_tokens::{MAX_EXPIRY_DAYS, MAX_NAME_LEN, Scope},
    search::{MAX_COST_USD, MAX_MIN_REVIEWS, MAX_RADIUS_METERS, SearchStatus},
    sheets::MAX_EXPORT_ROWS,
    webhooks::EventType,
};
use serde_json::{Value, json};

use crate::routes::sheets::MAX_CELL_CHARS;

/// At least one character that is not white space (names are trimmed before checks).
const NOT_BLANK: &str = r"\S";

/// `spec` with every rule below merged into the schema it belongs to.
pub fn with_request_rules(spec: &str) -> String {
    let Ok(mut doc) = serde_json::from_str::<Value>(spec) else {
        return spec.to_owned();
    };
    for (schema, property, rule) in property_rules() {
        if let Some(target) = doc.pointer_mut(&format!("/components/schemas/{schema}/properties/{property}")) {
            merge(target, rule);
        }
    }
    for (operation, parameter, rule) in parameter_rules() {
        if let Some(target) = parameter_schema(&mut doc, operation, parameter) {
            merge(target, rule);
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned())
}

/// (component schema, property, what core requires of it).
fn property_rules() -> Vec<(&'static str, &'static str, Value)> {
    let scopes: Vec<&str> = Scope::ALL.iter().map(|s| s.as_str()).collect();
    let events: Vec<&str> = EventType::SUBSCRIBABLE.iter().map(|e| e.as_str()).collect();
    // Trimmed, then empty (delete the key) or Google's shape.
    let key_pattern = format!(
        r"^\s*({}[A-Za-z0-9_-]{{{},{}}})?\s*$",
        api_key::PREFIX,
        api_key::MIN_LEN - api_key::PREFIX.len(),
        api_key::MAX_LEN - api_key::PREFIX.len()
    );
    vec![
        ("SaveApiKeyRequest", "api_key", json!({ "pattern": key_pattern })),
        // A key to check: Google's shape, not empty.
        (
            "CheckApiKeyRequest",
            "apiKey",
            json!({ "pattern": format!(
                r"^\s*{}[A-Za-z0-9_-]{{{},{}}}\s*$",
                api_key::PREFIX,
                api_key::MIN_LEN - api_key::PREFIX.len(),
                api_key::MAX_LEN - api_key::PREFIX.len()
            ) }),
        ),
        (
            "SearchRequest",
            "minReviews",
            json!({ "minimum": 0, "maximum": MAX_MIN_REVIEWS }),
        ),
        ("SearchRequest", "minRating", json!({ "minimum": 0, "maximum": 5 })),
        (
            "SearchRequest",
            "maxCostUsd",
            json!({ "minimum": 0, "exclusiveMinimum": true, "maximum": MAX_COST_USD }),
        ),
        ("GeoPoint", "latitude", json!({ "minimum": -90, "maximum": 90 })),
        ("GeoPoint", "longitude", json!({ "minimum": -180, "maximum": 180 })),
        (
            "SearchArea",
            "radiusMeters",
            json!({ "minimum": 0, "exclusiveMinimum": true, "maximum": MAX_RADIUS_METERS }),
        ),
        (
            "CreateTokenRequest",
            "name",
            json!({ "minLength": 1, "maxLength": MAX_NAME_LEN, "pattern": NOT_BLANK }),
        ),
        (
            "CreateTokenRequest",
            "scopes",
            json!({ "minItems": 1, "items": { "type": "string", "enum": scopes } }),
        ),
        (
            "CreateTokenRequest",
            "expiresInDays",
            json!({ "minimum": 1, "maximum": MAX_EXPIRY_DAYS }),
        ),
        (
            "CreateWebhookRequest",
            "events",
            json!({ "minItems": 1, "items": { "type": "string", "enum": events } }),
        ),
        (
            "CreateWebhookRequest",
            "url",
            json!({ "pattern": "^https?://[^/?#@]+" }),
        ),
        (
            "ExportToSheetsRequest",
            "leads",
            json!({ "minItems": 1, "maxItems": MAX_EXPORT_ROWS }),
        ),
        ("ExportToSheetsRequest", "businessType", json!({ "maxLength": 200 })),
        ("ExportToSheetsRequest", "location", json!({ "maxLength": 200 })),
        (
            "ExportLead",
            "name",
            json!({ "minLength": 1, "maxLength": MAX_CELL_CHARS, "pattern": NOT_BLANK }),
        ),
        ("ExportLead", "address", json!({ "maxLength": MAX_CELL_CHARS })),
        ("ExportLead", "phone", json!({ "maxLength": MAX_CELL_CHARS })),
        ("ExportLead", "website", json!({ "maxLength": MAX_CELL_CHARS })),
    ]
}

/// (operation id, query parameter, what the handler requires of it).
fn parameter_rules() -> Vec<(&'static str, &'static str, Value)> {
    let statuses: Vec<&str> = SearchStatus::ALL.iter().map(|s| s.as_str()).collect();
    vec![
        ("start_sign_in", "feature", json!({ "enum": ["sheets"] })),
        ("list_searches", "status", json!({ "enum": statuses })),
        ("list_searches", "limit", json!({ "minimum": 1, "maximum": 100 })),
        // `{created_at}.{id}` of a page's last entry, as `nextCursor` gave it.
        ("list_searches", "cursor", json!({ "pattern": r"^-?[0-9]{1,18}\..+$" })),
        // A whole number (poem-openapi says `integer`, format `uint64`, which readers
        // need not take as a range).
        (
            "stream_search_events",
            "Last-Event-ID",
            json!({ "minimum": 0, "maximum": u64::MAX }),
        ),
    ]
}

fn parameter_schema<'a>(doc: &'a mut Value, operation: &str, parameter: &str) -> Option<&'a mut Value> {
    let op = doc
        .get_mut("paths")?
        .as_object_mut()?
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .find(|op| op.get("operationId").and_then(Value::as_str) == Some(operation))?;
    op.get_mut("parameters")?
        .as_array_mut()?
        .iter_mut()
        .find(|p| p.get("name").and_then(Value::as_str) == Some(parameter))?
        .get_mut("schema")
}

/// Adds `rule`'s keywords to `target`, replacing any of the same name.
fn merge(target: &mut Value, rule: Value) {
    if let (Some(target), Value::Object(rule)) = (target.as_object_mut(), rule) {
        target.extend(rule);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_finds_its_field_in_the_generated_spec() {
        let spec = crate::app::openapi_service().spec();
        let doc: Value = serde_json::from_str(&spec).expect("json");
        for (schema, property, _) in property_rules() {
            assert!(
                doc.pointer(&format!("/components/schemas/{schema}/properties/{property}"))
                    .is_some(),
                "{schema}.{property} is not in the spec: the rule would be lost"
            );
        }
        let mut doc = doc;
        for (operation, parameter, _) in parameter_rules() {
            assert!(
                parameter_schema(&mut doc, operation, parameter).is_some(),
                "{operation}'s parameter {parameter} is not in the spec"
            );
        }
    }

    #[test]
    fn rules_come_from_core_and_keep_what_the_field_had() {
        let spec = crate::app::openapi_service().spec();
        let out: Value = serde_json::from_str(&with_request_rules(&spec)).expect("json");
        let scopes = &out["components"]["schemas"]["CreateTokenRequest"]["properties"]["scopes"];
        assert_eq!(scopes["type"], "array", "poem-openapi's own keywords stay");
        assert_eq!(scopes["minItems"], 1);
        assert_eq!(scopes["items"]["enum"].as_array().map(Vec::len), Some(Scope::ALL.len()));
    }
}
