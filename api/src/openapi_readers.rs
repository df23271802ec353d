//! What OpenAPI 3.0 readers require of the document that poem-openapi leaves out, so that
//! it passes redocly's recommended rules with no error (`ops/openapi-lint`, run by
//! `./leadgen test`):
//!
//! - `nullable` needs a `type` beside it (`nullable-type-sibling`): poem-openapi writes a
//!   nullable reference as `allOf: [$ref, {nullable: true}]`; the type is the referenced
//!   schema's;
//! - an operation open to anyone says so with `security: []` (`security-defined`);
//! - the document names its server (`no-empty-servers`): the one serving it, `/`.

use serde_json::{Map, Value, json};

/// `spec` (JSON) with what readers require added.
pub fn for_readers(spec: &str) -> String {
    let Ok(mut doc) = serde_json::from_str::<Value>(spec) else {
        return spec.to_owned();
    };
    let schemas = doc["components"]["schemas"].clone();
    type_beside_nullable(&mut doc, &schemas);
    public_operations_say_so(&mut doc);
    if doc
        .get("servers")
        .is_none_or(|s| s.as_array().is_none_or(Vec::is_empty))
    {
        doc["servers"] = json!([{ "url": "/", "description": "The server serving this document" }]);
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned())
}

/// The schema `reference` (`#/components/schemas/X`) names.
fn referenced<'a>(reference: &str, schemas: &'a Value) -> Option<&'a Value> {
    schemas.get(reference.strip_prefix("#/components/schemas/")?)
}

/// The schema referenced among `object`'s `allOf` parts.
fn all_of_target<'a>(object: &Map<String, Value>, schemas: &'a Value) -> Option<&'a Value> {
    object
        .get("allOf")?
        .as_array()?
        .iter()
        .find_map(|part| referenced(part.get("$ref")?.as_str()?, schemas))
}

fn is_nullable(object: &Map<String, Value>) -> bool {
    object.get("nullable") == Some(&Value::Bool(true))
}

/// Gives every `nullable` reference a `type`: an object's beside it; an enum is written out
/// in place (with `null` among its values), since a `type: string` beside the reference
/// would make generated clients forget the enum's words.
fn type_beside_nullable(node: &mut Value, schemas: &Value) {
    match node {
        Value::Object(object) => {
            let parts_nullable = object
                .get("allOf")
                .and_then(Value::as_array)
                .is_some_and(|parts| parts.iter().filter_map(Value::as_object).any(is_nullable));
            if let Some(target) = all_of_target(object, schemas).filter(|_| is_nullable(object) || parts_nullable) {
                if let Some(words) = target.get("enum").and_then(Value::as_array) {
                    let description = object.get("description").cloned().or_else(|| {
                        object["allOf"]
                            .as_array()
                            .and_then(|parts| parts.iter().find_map(|p| p.get("description").cloned()))
                    });
                    let mut words = words.clone();
                    words.push(Value::Null);
                    object.remove("allOf");
                    object.insert(
                        "type".into(),
                        target.get("type").cloned().unwrap_or_else(|| json!("string")),
                    );
                    object.insert("enum".into(), Value::Array(words));
                    object.insert("nullable".into(), Value::Bool(true));
                    if let Some(description) = description {
                        object.insert("description".into(), description);
                    }
                } else if let Some(kind) = target.get("type").cloned() {
                    if is_nullable(object) && !object.contains_key("type") {
                        object.insert("type".into(), kind.clone());
                    }
                    for part in object["allOf"]
                        .as_array_mut()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_object_mut)
                    {
                        if is_nullable(part) && !part.contains_key("type") {
                            part.insert("type".into(), kind.clone());
                        }
                    }
                }
            }
            for child in object.values_mut() {
                type_beside_nullable(child, schemas);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| type_beside_nullable(item, schemas)),
        _ => {}
    }
}

/// Sets `security: []` on each operation that names no security requirement.
fn public_operations_say_so(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for operation in paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(Value::as_object_mut)
    {
        if !operation.contains_key("security") && operation.contains_key("responses") {
            operation.insert("security".into(), json!([]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nullable_reference_gets_its_type_and_public_operations_say_so() {
        let spec = json!({
            "paths": {
                "/health": { "get": { "responses": {} } },
                "/me": { "get": { "responses": {}, "security": [{ "bearer": [] }] } }
            },
            "components": { "schemas": {
                "Cost": { "type": "object" },
                "Reason": { "type": "string", "enum": ["a"] },
                "Answer": { "type": "object", "properties": {
                    "cost": { "allOf": [{ "$ref": "#/components/schemas/Cost" }, { "nullable": true }] },
                    "reason": { "allOf": [{ "$ref": "#/components/schemas/Reason" }], "nullable": true },
                    "note": { "type": "string", "nullable": true }
                } }
            } }
        });
        let out: Value = serde_json::from_str(&for_readers(&spec.to_string())).expect("json");
        let answer = &out["components"]["schemas"]["Answer"]["properties"];
        assert_eq!(answer["cost"]["allOf"][1]["type"], "object");
        assert_eq!(
            answer["reason"],
            json!({ "type": "string", "enum": ["a", null], "nullable": true }),
            "an enum written out, its words kept"
        );
        assert_eq!(answer["note"]["type"], "string");
        assert_eq!(out["paths"]["/health"]["get"]["security"], json!([]));
        assert_eq!(out["paths"]["/me"]["get"]["security"], json!([{ "bearer": [] }]));
        assert_eq!(out["servers"][0]["url"], "/");
    }
}
