//! The spec as a typed OpenAPI 3.0 document (`openapiv3`), which the post-processing
//! modules edit: poem-openapi's JSON is read once, each module applies its rules as
//! functions over the typed model, and the result is written once (issue #27 item 5).
//!
//! - `openapi_workspaces`: each workspace-scoped operation's header, role and 404;
//! - `openapi_contract`: the statuses whole classes of operations answer, event-stream
//!   frames, nullable optional request fields;
//! - `openapi_rules`: the rules core's parsers hold request fields to;
//! - `openapi_examples`: an example on every operation;
//! - `openapi_readers`: what OpenAPI 3.0 readers (redocly's recommended rules) require.
//!
//! Written with sorted keys, as before the typed model: `openapi.json` diffs stay small
//! and a field's place does not depend on where a rule inserted it.

use openapiv3::{
    AdditionalProperties, Components, OpenAPI, Operation, Parameter, ParameterData, ReferenceOr, Schema, SchemaKind,
    Type,
};

/// Where component schemas are referenced from.
const SCHEMAS: &str = "#/components/schemas/";

/// poem-openapi's spec (JSON) with every post-processing rule applied, as published.
///
/// # Panics
/// When poem-openapi's output is not an OpenAPI 3.0 document: the spec is built from
/// code alone, so every test that builds the app would fail first.
pub fn finish(spec: &str) -> String {
    let mut doc: OpenAPI = serde_json::from_str(spec).expect("poem-openapi's spec reads as an OpenAPI 3.0 document");
    // Workspaces first: the rest see the documented header, not its marker.
    crate::openapi_workspaces::with_workspace_roles(&mut doc);
    crate::openapi_contract::with_common_responses(&mut doc);
    crate::openapi_rules::with_request_rules(&mut doc);
    crate::openapi_examples::with_examples(&mut doc);
    crate::openapi_readers::for_readers(&mut doc);
    to_json(&doc)
}

/// The document as pretty JSON with sorted keys (through `serde_json::Value`, whose map
/// sorts them).
pub fn to_json(doc: &OpenAPI) -> String {
    serde_json::to_value(doc)
        .and_then(|value| serde_json::to_string_pretty(&value))
        .expect("an OpenAPI document serializes")
}

/// Every operation, with its path and method (`get`, `post`...).
pub fn operations(doc: &OpenAPI) -> impl Iterator<Item = (&str, &str, &Operation)> {
    doc.paths
        .paths
        .iter()
        .filter_map(|(path, item)| item.as_item().map(|item| (path.as_str(), item)))
        .flat_map(|(path, item)| item.iter().map(move |(method, op)| (path, method, op)))
}

/// Every operation, to edit, with its path and method.
pub fn operations_mut(doc: &mut OpenAPI) -> impl Iterator<Item = (&str, &'static str, &mut Operation)> {
    doc.paths
        .paths
        .iter_mut()
        .filter_map(|(path, item)| match item {
            ReferenceOr::Item(item) => Some((path, item)),
            ReferenceOr::Reference { .. } => None,
        })
        .flat_map(|(path, item)| {
            [
                ("get", &mut item.get),
                ("put", &mut item.put),
                ("post", &mut item.post),
                ("delete", &mut item.delete),
                ("options", &mut item.options),
                ("head", &mut item.head),
                ("patch", &mut item.patch),
                ("trace", &mut item.trace),
            ]
            .into_iter()
            .filter_map(move |(method, op)| op.as_mut().map(|op| (path.as_str(), method, op)))
        })
}

/// The operation named `operation_id`, to edit.
pub fn operation_mut<'a>(doc: &'a mut OpenAPI, operation_id: &str) -> Option<&'a mut Operation> {
    operations_mut(doc)
        .map(|(_, _, op)| op)
        .find(|op| op.operation_id.as_deref() == Some(operation_id))
}

/// A parameter's name, place and schema, whichever place it is in.
pub fn parameter_data_mut(parameter: &mut Parameter) -> &mut ParameterData {
    match parameter {
        Parameter::Query { parameter_data, .. }
        | Parameter::Header { parameter_data, .. }
        | Parameter::Path { parameter_data, .. }
        | Parameter::Cookie { parameter_data, .. } => parameter_data,
    }
}

/// The component schema `name`, to edit (`None` when absent or itself a reference).
pub fn component_schema_mut<'a>(doc: &'a mut OpenAPI, name: &str) -> Option<&'a mut Schema> {
    match doc.components.as_mut()?.schemas.get_mut(name)? {
        ReferenceOr::Item(schema) => Some(schema),
        ReferenceOr::Reference { .. } => None,
    }
}

/// The component schema a `$ref` names.
pub fn referenced<'a>(components: &'a Components, reference: &str) -> Option<&'a Schema> {
    components.schemas.get(component_name(reference)?)?.as_item()
}

/// What a [`ReferenceOr`] holds in place, to edit (`None` for a reference).
pub fn item_mut<T>(node: &mut ReferenceOr<T>) -> Option<&mut T> {
    match node {
        ReferenceOr::Item(item) => Some(item),
        ReferenceOr::Reference { .. } => None,
    }
}

/// A schema as openapiv3 holds it: itself, or boxed (object properties, array items).
pub trait SchemaNode {
    /// The schema.
    fn schema(&self) -> &Schema;
    /// The schema, to edit.
    fn schema_mut(&mut self) -> &mut Schema;
}

impl SchemaNode for Schema {
    fn schema(&self) -> &Schema {
        self
    }
    fn schema_mut(&mut self) -> &mut Schema {
        self
    }
}

impl SchemaNode for Box<Schema> {
    fn schema(&self) -> &Schema {
        self
    }
    fn schema_mut(&mut self) -> &mut Schema {
        self
    }
}

/// `X` of `#/components/schemas/X`.
pub fn component_name(reference: &str) -> Option<&str> {
    reference.strip_prefix(SCHEMAS)
}

/// A reference to the component schema `name`.
pub fn schema_ref<T>(name: &str) -> ReferenceOr<T> {
    ReferenceOr::ref_(&format!("{SCHEMAS}{name}"))
}

/// A schema met inside another: a reference, or written in place.
pub enum Nested<'a> {
    /// `$ref` to a component.
    Reference(&'a str),
    /// A schema written in place.
    Inline(&'a Schema),
}

fn nested_of<T: SchemaNode>(node: &ReferenceOr<T>) -> Nested<'_> {
    match node {
        ReferenceOr::Reference { reference } => Nested::Reference(reference),
        ReferenceOr::Item(schema) => Nested::Inline(schema.schema()),
    }
}

/// The schemas directly inside `schema`: properties, items, compositions.
pub fn nested(schema: &Schema) -> Vec<Nested<'_>> {
    fn additional(extra: &Option<AdditionalProperties>) -> Option<Nested<'_>> {
        match extra {
            Some(AdditionalProperties::Schema(extra)) => Some(nested_of(extra.as_ref())),
            _ => None,
        }
    }
    let mut found = Vec::new();
    match &schema.schema_kind {
        SchemaKind::Type(Type::Object(object)) => {
            found.extend(object.properties.values().map(nested_of));
            found.extend(additional(&object.additional_properties));
        }
        SchemaKind::Type(Type::Array(array)) => found.extend(array.items.iter().map(nested_of)),
        SchemaKind::Type(_) => {}
        SchemaKind::OneOf { one_of: parts }
        | SchemaKind::AllOf { all_of: parts }
        | SchemaKind::AnyOf { any_of: parts } => {
            found.extend(parts.iter().map(nested_of));
        }
        SchemaKind::Not { not } => found.push(nested_of(not.as_ref())),
        SchemaKind::Any(any) => {
            found.extend(any.properties.values().map(nested_of));
            found.extend(additional(&any.additional_properties));
            found.extend(any.items.iter().map(nested_of));
            for parts in [&any.one_of, &any.all_of, &any.any_of] {
                found.extend(parts.iter().map(nested_of));
            }
            found.extend(any.not.iter().map(|not| nested_of(not.as_ref())));
        }
    }
    found
}

fn inline_mut<T: SchemaNode>(node: &mut ReferenceOr<T>) -> Option<&mut Schema> {
    item_mut(node).map(SchemaNode::schema_mut)
}

/// The schemas written in place directly inside `schema`, to edit.
pub fn nested_mut(schema: &mut Schema) -> Vec<&mut Schema> {
    fn additional(extra: &mut Option<AdditionalProperties>) -> Option<&mut Schema> {
        match extra {
            Some(AdditionalProperties::Schema(extra)) => inline_mut(extra.as_mut()),
            _ => None,
        }
    }
    let mut found = Vec::new();
    match &mut schema.schema_kind {
        SchemaKind::Type(Type::Object(object)) => {
            found.extend(object.properties.values_mut().filter_map(inline_mut));
            found.extend(additional(&mut object.additional_properties));
        }
        SchemaKind::Type(Type::Array(array)) => found.extend(array.items.iter_mut().filter_map(inline_mut)),
        SchemaKind::Type(_) => {}
        SchemaKind::OneOf { one_of: parts }
        | SchemaKind::AllOf { all_of: parts }
        | SchemaKind::AnyOf { any_of: parts } => {
            found.extend(parts.iter_mut().filter_map(inline_mut));
        }
        SchemaKind::Not { not } => found.extend(inline_mut(not.as_mut())),
        SchemaKind::Any(any) => {
            found.extend(any.properties.values_mut().filter_map(inline_mut));
            found.extend(additional(&mut any.additional_properties));
            found.extend(any.items.iter_mut().filter_map(inline_mut));
            for parts in [&mut any.one_of, &mut any.all_of, &mut any.any_of] {
                found.extend(parts.iter_mut().filter_map(inline_mut));
            }
            found.extend(any.not.iter_mut().filter_map(|not| inline_mut(not.as_mut())));
        }
    }
    found
}

/// Calls `visit` on every schema written in the document (components, parameters,
/// bodies, answers and their headers) and on every schema nested in those, a parent
/// before what it holds (so what `visit` writes in place is visited too).
pub fn visit_schemas_mut(doc: &mut OpenAPI, visit: &mut impl FnMut(&mut Schema)) {
    fn walk(schema: &mut Schema, visit: &mut impl FnMut(&mut Schema)) {
        visit(schema);
        for child in nested_mut(schema) {
            walk(child, visit);
        }
    }
    fn walk_content(content: &mut openapiv3::Content, visit: &mut impl FnMut(&mut Schema)) {
        for media in content.values_mut() {
            if let Some(schema) = media.schema.as_mut().and_then(inline_mut) {
                walk(schema, visit);
            }
        }
    }
    fn walk_parameter_data(data: &mut ParameterData, visit: &mut impl FnMut(&mut Schema)) {
        match &mut data.format {
            openapiv3::ParameterSchemaOrContent::Schema(schema) => {
                if let Some(schema) = inline_mut(schema) {
                    walk(schema, visit);
                }
            }
            openapiv3::ParameterSchemaOrContent::Content(content) => walk_content(content, visit),
        }
    }
    if let Some(components) = doc.components.as_mut() {
        for schema in components.schemas.values_mut().filter_map(inline_mut) {
            walk(schema, visit);
        }
    }
    for (_, _, op) in operations_mut(doc) {
        for parameter in op.parameters.iter_mut().filter_map(item_mut) {
            walk_parameter_data(parameter_data_mut(parameter), visit);
        }
        if let Some(body) = op.request_body.as_mut().and_then(item_mut) {
            walk_content(&mut body.content, visit);
        }
        for response in op.responses.responses.values_mut().filter_map(item_mut) {
            walk_content(&mut response.content, visit);
            for header in response.headers.values_mut().filter_map(item_mut) {
                if let openapiv3::ParameterSchemaOrContent::Schema(schema) = &mut header.format
                    && let Some(schema) = inline_mut(schema)
                {
                    walk(schema, visit);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn the_typed_model_keeps_every_field_poem_openapi_writes() {
        // What openapiv3 does not model would be dropped silently on the way through:
        // poem-openapi's own spec must come back out with the same content.
        let spec = crate::app::openapi_service().spec();
        let doc: OpenAPI = serde_json::from_str(&spec).expect("reads");
        let before: Value = serde_json::from_str(&spec).expect("json");
        let after: Value = serde_json::from_str(&to_json(&doc)).expect("json");
        let mut lost = Vec::new();
        compare(&before, &after, "#", &mut lost);
        assert!(lost.is_empty(), "changed on the way through openapiv3: {lost:#?}");
    }

    fn is_default(value: &Value) -> bool {
        match value {
            Value::Bool(b) => !b,
            Value::Array(items) => items.is_empty(),
            Value::Object(map) => map.is_empty(),
            _ => false,
        }
    }

    /// Differences between `before` and `after`, but for what OpenAPI 3.0 defines as the
    /// same: a default (`required: false`, `servers: []`) left out, `style` written out at its default, a number
    /// written as a float.
    fn compare(before: &Value, after: &Value, at: &str, lost: &mut Vec<String>) {
        match (before, after) {
            (Value::Object(b), Value::Object(a)) => {
                for (key, value) in b {
                    match a.get(key) {
                        Some(other) => compare(value, other, &format!("{at}/{key}"), lost),
                        // `required: false`, `servers: []`: what leaving them out means.
                        None if is_default(value) => {}
                        None => lost.push(format!("{at}/{key}")),
                    }
                }
                for (key, value) in a {
                    let default_style = key == "style" && (value == "simple" || value == "form");
                    if !b.contains_key(key) && !default_style {
                        lost.push(format!("{at}/{key} (added)"));
                    }
                }
            }
            (Value::Array(b), Value::Array(a)) if b.len() == a.len() => {
                for (i, (b, a)) in b.iter().zip(a).enumerate() {
                    compare(b, a, &format!("{at}/{i}"), lost);
                }
            }
            (Value::Number(b), Value::Number(a)) if b.as_f64() == a.as_f64() => {}
            (b, a) if b == a => {}
            _ => lost.push(at.to_owned()),
        }
    }
}
