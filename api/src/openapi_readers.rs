//! What OpenAPI 3.0 readers require of the document that poem-openapi leaves out, so that
//! it passes redocly's recommended rules with no error (`ops/openapi-lint`, run by
//! `./leadgen test`):
//!
//! - `nullable` needs a `type` beside it (`nullable-type-sibling`): poem-openapi writes a
//!   nullable reference as `allOf: [$ref, {nullable: true}]`; the type is the referenced
//!   schema's;
//! - an operation open to anyone says so with `security: []` (`security-defined`);
//!
//! The document's server (`no-empty-servers`: `/`, the one serving it) is poem-openapi's
//! own `OpenApiService::server`, in `app.rs`.

use openapiv3::{AnySchema, OpenAPI, ReferenceOr, Schema, SchemaKind, StringType, Type};

use crate::openapi_document::{operations_mut, referenced, visit_schemas_mut};

/// `doc` with what readers require added.
pub fn for_readers(doc: &mut OpenAPI) {
    let components = doc.components.clone().unwrap_or_default();
    visit_schemas_mut(doc, &mut |schema| type_beside_nullable(schema, &components));
    public_operations_say_so(doc);
}

/// The JSON Schema type name of a schema (`None`: it names none).
fn type_name(schema: &Schema) -> Option<String> {
    Some(
        match &schema.schema_kind {
            SchemaKind::Type(Type::String(_)) => "string",
            SchemaKind::Type(Type::Number(_)) => "number",
            SchemaKind::Type(Type::Integer(_)) => "integer",
            SchemaKind::Type(Type::Object(_)) => "object",
            SchemaKind::Type(Type::Array(_)) => "array",
            SchemaKind::Type(Type::Boolean(_)) => "boolean",
            SchemaKind::Any(any) => return any.typ.clone(),
            _ => return None,
        }
        .to_owned(),
    )
}

/// The words of an enum schema.
fn enum_words(schema: &Schema) -> Option<Vec<Option<String>>> {
    match &schema.schema_kind {
        SchemaKind::Type(Type::String(string)) if !string.enumeration.is_empty() => Some(string.enumeration.clone()),
        _ => None,
    }
}

/// Gives a `nullable` reference a `type`: an object's beside it; an enum is written out
/// in place (with `null` among its values), since a `type: string` beside the reference
/// would make generated clients forget the enum's words.
fn type_beside_nullable(schema: &mut Schema, components: &openapiv3::Components) {
    let parts = match &schema.schema_kind {
        SchemaKind::AllOf { all_of } => all_of,
        SchemaKind::Any(any) if !any.all_of.is_empty() => &any.all_of,
        _ => return,
    };
    let parts_nullable = parts
        .iter()
        .filter_map(ReferenceOr::as_item)
        .any(|part| part.schema_data.nullable);
    if !(schema.schema_data.nullable || parts_nullable) {
        return;
    }
    let Some(target) = parts.iter().find_map(|part| match part {
        ReferenceOr::Reference { reference } => referenced(components, reference),
        ReferenceOr::Item(_) => None,
    }) else {
        return;
    };
    if let Some(mut words) = enum_words(target) {
        let description = schema.schema_data.description.clone().or_else(|| {
            parts
                .iter()
                .filter_map(ReferenceOr::as_item)
                .find_map(|part| part.schema_data.description.clone())
        });
        words.push(None);
        schema.schema_kind = SchemaKind::Type(Type::String(StringType {
            enumeration: words,
            ..StringType::default()
        }));
        schema.schema_data.nullable = true;
        schema.schema_data.description = description;
    } else if let Some(kind) = type_name(target) {
        let nullable = schema.schema_data.nullable;
        let parts = match &mut schema.schema_kind {
            // An `allOf` that names a type beside it is openapiv3's "any" schema.
            SchemaKind::AllOf { all_of } if nullable => {
                schema.schema_kind = SchemaKind::Any(AnySchema {
                    typ: Some(kind.clone()),
                    all_of: std::mem::take(all_of),
                    ..AnySchema::default()
                });
                let SchemaKind::Any(any) = &mut schema.schema_kind else {
                    return;
                };
                &mut any.all_of
            }
            SchemaKind::AllOf { all_of } => all_of,
            SchemaKind::Any(any) => {
                if nullable && any.typ.is_none() {
                    any.typ = Some(kind.clone());
                }
                &mut any.all_of
            }
            _ => return,
        };
        for part in parts.iter_mut().filter_map(crate::openapi_document::item_mut) {
            if part.schema_data.nullable && type_name(part).is_none() {
                part.schema_kind = match std::mem::replace(&mut part.schema_kind, SchemaKind::Any(AnySchema::default()))
                {
                    SchemaKind::Any(any) => SchemaKind::Any(AnySchema {
                        typ: Some(kind.clone()),
                        ..any
                    }),
                    other => other,
                };
            }
        }
    }
}

/// Sets `security: []` on each operation that names no security requirement.
fn public_operations_say_so(doc: &mut OpenAPI) {
    for (_, _, operation) in operations_mut(doc) {
        if operation.security.is_none() {
            operation.security = Some(Vec::new());
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn a_nullable_reference_gets_its_type_and_public_operations_say_so() {
        let spec = json!({
            "openapi": "3.0.0",
            "info": { "title": "t", "version": "1" },
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
        let mut doc: OpenAPI = serde_json::from_value(spec).expect("an OpenAPI document");
        for_readers(&mut doc);
        let out: Value = serde_json::from_str(&crate::openapi_document::to_json(&doc)).expect("json");
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
    }

    #[test]
    fn the_published_document_names_its_server() {
        let doc: OpenAPI = serde_json::from_str(&crate::app::openapi_json()).expect("spec");
        assert_eq!(doc.servers.first().map(|s| s.url.as_str()), Some("/"));
    }
}
