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

use openapiv3::{
    Header, HeaderStyle, IntegerType, MediaType, OpenAPI, ParameterSchemaOrContent, ReferenceOr, Response, Responses,
    Schema, SchemaData, SchemaKind, StatusCode, StringType, Type,
};
use serde_json::json;

use crate::openapi_document::{Nested, component_schema_mut, item_mut, nested, operations, operations_mut, schema_ref};

/// Operations outside the rate limits (their paths are exempt in `rate_limits`).
const NOT_RATE_LIMITED: &[&str] = &["get_health", "get_ready"];

/// The media type poem-openapi gives an event stream.
pub const EVENT_STREAM: &str = "text/event-stream";

/// `doc` with the common statuses added where an operation lacks them, stream frames
/// documented and optional request fields nullable.
pub fn with_common_responses(doc: &mut OpenAPI) {
    for (_, _, op) in operations_mut(doc) {
        let id = op.operation_id.clone().unwrap_or_default();
        let takes_body = op.request_body.is_some();
        let secured = op.security.as_ref().is_some_and(|s| !s.is_empty());
        let responses = &mut op.responses;
        if !NOT_RATE_LIMITED.contains(&id.as_str()) {
            add(responses, 429, too_many_requests());
        }
        if takes_body {
            let limit = crate::body_limit::in_words(crate::body_limit::limit_for_operation(&id));
            add(
                responses,
                413,
                error_answer(&format!(
                    "The body is larger than {limit}, the most this operation takes (`payload_too_large`)."
                )),
            );
            add(
                responses,
                415,
                error_answer("The body is not JSON: send it with `Content-Type: application/json`."),
            );
        }
        if id != "get_health" {
            add(
                responses,
                503,
                error_answer("A backing service (the database or Redis) is unavailable; try again shortly."),
            );
        }
        if secured {
            add(
                responses,
                401,
                error_answer("No valid credential (missing, malformed, expired or revoked)."),
            );
        }
        for answer in responses.responses.values_mut().filter_map(item_mut) {
            if let Some(stream) = answer.content.get_mut(EVENT_STREAM) {
                document_frames(stream);
            }
        }
    }
    for name in request_body_schemas(doc) {
        if let Some(schema) = component_schema_mut(doc, &name) {
            optional_fields_nullable(schema);
        }
    }
}

/// poem-openapi documents an event stream as an array of its events; a reader of
/// OpenAPI 3.0 applies a stream's schema to each frame instead. Says what a frame is.
fn document_frames(stream: &mut MediaType) {
    // An array with a format (poem-openapi's `event-stream`) is openapiv3's "any" schema.
    let items = match stream
        .schema
        .as_ref()
        .and_then(ReferenceOr::as_item)
        .map(|s| &s.schema_kind)
    {
        Some(SchemaKind::Type(Type::Array(array))) => array.items.as_ref(),
        Some(SchemaKind::Any(any)) if any.typ.as_deref() == Some("array") => any.items.as_ref(),
        _ => None,
    };
    let Some(event) = items.and_then(|event| serde_json::to_value(event).ok()) else {
        return;
    };
    let string = |description: &str, string: StringType| {
        ReferenceOr::boxed_item(Schema {
            schema_data: SchemaData {
                description: Some(description.to_owned()),
                ..SchemaData::default()
            },
            schema_kind: SchemaKind::Type(Type::String(string)),
        })
    };
    let mut data = string(
        "One JSON event (`start`, `business_found`, `progress`, `lead_enriched`, `complete`, `error`, or `reconnect` when the server stops and the search goes on).",
        StringType::default(),
    );
    if let ReferenceOr::Item(data) = &mut data {
        // OpenAPI 3.0 has no `contentSchema` (3.1 does): an extension keeps the
        // event's schema beside the frame for readers and generators.
        data.schema_data
            .extensions
            .insert("x-contentMediaType".into(), json!("application/json"));
        data.schema_data.extensions.insert("x-contentSchema".into(), event);
    }
    let frame = openapiv3::ObjectType {
        required: vec!["data".into()],
        properties: [
            (
                "id".to_owned(),
                string(
                    "The event's number in its search (1, 2, ...): send the last one seen as `Last-Event-ID` to resume after it. Absent on `reconnect`, which is not one of the search's events.",
                    StringType {
                        pattern: Some("^[0-9]+$".into()),
                        ..StringType::default()
                    },
                ),
            ),
            (
                "event".to_owned(),
                string(
                    "Always the default type.",
                    StringType {
                        enumeration: vec![Some("message".into())],
                        ..StringType::default()
                    },
                ),
            ),
            ("data".to_owned(), data),
        ]
        .into_iter()
        .collect(),
        ..openapiv3::ObjectType::default()
    };
    stream.schema = Some(ReferenceOr::Item(Schema {
        schema_data: SchemaData {
            description: Some(
                "One Server-Sent Events frame. Keep-alive comments (lines starting with `:`) come between frames."
                    .into(),
            ),
            ..SchemaData::default()
        },
        schema_kind: SchemaKind::Type(Type::Object(frame)),
    }));
}

/// Names of the component schemas a request body can hold, directly or nested.
fn request_body_schemas(doc: &OpenAPI) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut pending: Vec<Nested<'_>> = operations(doc)
        .filter_map(|(_, _, op)| op.request_body.as_ref()?.as_item())
        .flat_map(|body| body.content.values())
        .filter_map(|media| media.schema.as_ref())
        .map(|schema| match schema {
            ReferenceOr::Reference { reference } => Nested::Reference(reference),
            ReferenceOr::Item(schema) => Nested::Inline(schema),
        })
        .collect();
    let components = doc.components.as_ref();
    while let Some(node) = pending.pop() {
        match node {
            Nested::Reference(reference) => {
                let Some(name) = crate::openapi_document::component_name(reference) else {
                    continue;
                };
                if found.iter().any(|f| f == name) {
                    continue;
                }
                found.push(name.to_owned());
                if let Some(schema) = components.and_then(|c| crate::openapi_document::referenced(c, reference)) {
                    pending.extend(nested(schema));
                }
            }
            Nested::Inline(schema) => pending.extend(nested(schema)),
        }
    }
    found
}

/// Marks every property an object does not require as nullable.
fn optional_fields_nullable(schema: &mut Schema) {
    let SchemaKind::Type(Type::Object(object)) = &mut schema.schema_kind else {
        return;
    };
    for (name, property) in object.properties.iter_mut() {
        if object.required.contains(name) {
            continue;
        }
        match property {
            // In OpenAPI 3.0 a keyword beside `$ref` is ignored: wrap the reference first.
            ReferenceOr::Reference { reference } => {
                *property = ReferenceOr::boxed_item(Schema {
                    schema_data: SchemaData {
                        nullable: true,
                        ..SchemaData::default()
                    },
                    schema_kind: SchemaKind::AllOf {
                        all_of: vec![ReferenceOr::ref_(reference)],
                    },
                });
            }
            ReferenceOr::Item(property) => match &mut property.schema_kind {
                // `nullable` needs a `type` beside it (OpenAPI 3.0): a `oneOf` of types
                // (`EmailChoice`: a boolean or a string) takes null on its first one.
                SchemaKind::OneOf { one_of } => {
                    if let Some(ReferenceOr::Item(first)) = one_of.first_mut() {
                        first.schema_data.nullable = true;
                    }
                }
                _ => property.schema_data.nullable = true,
            },
        }
    }
}

fn add(responses: &mut Responses, status: u16, answer: Response) {
    responses
        .responses
        .entry(StatusCode::Code(status))
        .or_insert(ReferenceOr::Item(answer));
}

pub(crate) fn error_answer(description: &str) -> Response {
    Response {
        description: description.to_owned(),
        content: [(
            "application/json; charset=utf-8".to_owned(),
            MediaType {
                schema: Some(schema_ref("ErrorBody")),
                ..MediaType::default()
            },
        )]
        .into_iter()
        .collect(),
        ..Response::default()
    }
}

fn too_many_requests() -> Response {
    let mut answer = error_answer(
        "Too many requests from this user, address or API token (`rate_limited`); try again after `Retry-After` seconds.",
    );
    let seconds = Schema {
        schema_data: SchemaData::default(),
        schema_kind: SchemaKind::Type(Type::Integer(IntegerType {
            minimum: Some(1),
            ..IntegerType::default()
        })),
    };
    answer.headers.insert(
        "Retry-After".into(),
        ReferenceOr::Item(Header {
            description: Some("Seconds to wait before the next request.".into()),
            style: HeaderStyle::Simple,
            required: false,
            deprecated: None,
            format: ParameterSchemaOrContent::Schema(ReferenceOr::Item(seconds)),
            example: None,
            examples: Default::default(),
            extensions: Default::default(),
        }),
    );
    answer
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn adds_what_a_class_of_operations_can_answer_and_keeps_what_is_there() {
        let spec = json!({"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {
            "/api/x": {"post": {"operationId": "make_x", "requestBody": {}, "security": [{"BearerAuth": []}],
                                "responses": {"200": {"description": "ok"}, "401": {"description": "kept"}}}},
            "/api/health": {"get": {"operationId": "get_health", "responses": {"200": {"description": "ok"}}}},
        }});
        let mut doc: OpenAPI = serde_json::from_value(spec).expect("an OpenAPI document");
        with_common_responses(&mut doc);
        let out: Value = serde_json::from_str(&crate::openapi_document::to_json(&doc)).expect("json");
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

    #[test]
    fn every_event_stream_is_documented_frame_by_frame() {
        let mut doc: OpenAPI = serde_json::from_str(&crate::app::openapi_service().spec()).expect("spec");
        with_common_responses(&mut doc);
        let out: Value = serde_json::from_str(&crate::openapi_document::to_json(&doc)).expect("json");
        let mut streams = 0;
        for item in out["paths"].as_object().expect("paths").values() {
            for op in item.as_object().expect("operations").values() {
                for answer in op["responses"].as_object().expect("responses").values() {
                    if let Some(stream) = answer.pointer("/content/text~1event-stream/schema") {
                        streams += 1;
                        assert_eq!(stream["type"], "object", "a frame, not poem-openapi's array: {stream}");
                        assert_eq!(
                            stream["properties"]["data"]["x-contentSchema"]["$ref"],
                            "#/components/schemas/SearchEvent"
                        );
                    }
                }
            }
        }
        assert!(streams >= 2, "the search stream and its replay: {streams}");
    }
}
