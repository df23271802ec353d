//! An example on every operation (issue #15): request bodies, answers, parameters and a
//! `curl` line, added to the spec poem-openapi generates.
//!
//! The examples live in `openapi_examples.json` (operation id → `request`, `response`,
//! `params`, `stream`, `files` by media type for an answer that is a file); an operation without a `request` or `response` there takes its
//! schema's own example (`#[oai(example)]`). Every published spec (the committed
//! `openapi.json`, `/api/openapi.json`, and the interactive docs at `/api/docs`) is this
//! one. The contract tests check that every operation has its examples and that each
//! example has the fields its schema requires and no others.

use openapiv3::{Components, MediaType, OpenAPI, Operation, Parameter, ReferenceOr, Schema, StatusCode};
use serde_json::{Map, Value, json};

use crate::{
    openapi_contract::EVENT_STREAM,
    openapi_document::{item_mut, operations_mut, parameter_data_mut, referenced},
};

/// The examples, by operation id.
const EXAMPLES: &str = include_str!("openapi_examples.json");

/// `doc` with every operation's examples.
pub fn with_examples(doc: &mut OpenAPI) {
    let examples: Map<String, Value> = serde_json::from_str(EXAMPLES).unwrap_or_default();
    let components = doc.components.clone().unwrap_or_default();
    for (path, method, op) in operations_mut(doc) {
        let given = op
            .operation_id
            .as_ref()
            .and_then(|id| examples.get(id))
            .cloned()
            .unwrap_or(Value::Null);
        add_param_examples(op, &given);
        let request = add_request_example(op, &given, &components);
        add_response_example(op, &given, &components);
        add_curl(op, method, path, &given, request.as_ref());
    }
}

/// The example of a `$ref`'d component schema, if it has one.
fn schema_example(schema: Option<&ReferenceOr<Schema>>, components: &Components) -> Option<Value> {
    match schema? {
        ReferenceOr::Reference { reference } => referenced(components, reference)?.schema_data.example.clone(),
        ReferenceOr::Item(_) => None,
    }
}

/// The JSON media types of a `content` map (`application/json; charset=utf-8`).
fn json_media<'a>(
    content: impl Iterator<Item = (&'a String, &'a mut MediaType)>,
) -> impl Iterator<Item = &'a mut MediaType> {
    content
        .filter(|(media_type, _)| media_type.starts_with("application/json"))
        .map(|(_, media)| media)
}

fn add_param_examples(op: &mut Operation, given: &Value) {
    for data in op.parameters.iter_mut().filter_map(item_mut).map(parameter_data_mut) {
        if let Some(example) = given.get("params").and_then(|p| p.get(&data.name)) {
            data.example = Some(example.clone());
        }
    }
}

/// Puts the request example on the JSON body, and returns it (for the curl line).
fn add_request_example(op: &mut Operation, given: &Value, components: &Components) -> Option<Value> {
    let body = op.request_body.as_mut().and_then(item_mut)?;
    let mut used = None;
    for media in json_media(body.content.iter_mut()) {
        let example = given
            .get("request")
            .cloned()
            .or_else(|| schema_example(media.schema.as_ref(), components));
        if let Some(example) = example {
            media.example = Some(example.clone());
            used = Some(example);
        }
    }
    used
}

fn add_response_example(op: &mut Operation, given: &Value, components: &Components) {
    for (status, response) in op.responses.responses.iter_mut() {
        let success = match status {
            StatusCode::Code(code) => (200..300).contains(code),
            StatusCode::Range(range) => *range == 2,
        };
        let Some(response) = item_mut(response).filter(|_| success) else {
            continue;
        };
        for (media_type, media) in response.content.iter_mut() {
            let example = if media_type.starts_with(EVENT_STREAM) {
                // The stream's schema is one frame (`openapi_contract`): so is its example;
                // the whole stream is shown under the curl line.
                given
                    .get("stream")
                    .and_then(Value::as_str)
                    .and_then(|s| frames(s).into_iter().next())
            } else if let Some(file) = given.get("files").and_then(|files| files.get(media_type.as_str())) {
                // A file answer (`export_search`): its text, or what its bytes are.
                Some(file.clone())
            } else {
                given
                    .get("response")
                    .cloned()
                    .or_else(|| schema_example(media.schema.as_ref(), components))
            };
            if let Some(example) = example {
                media.example = Some(example);
            }
        }
    }
}

/// The frames of an event stream's text, as the frame schema has them (`id`, `data`).
fn frames(stream: &str) -> Vec<Value> {
    stream
        .split("\n\n")
        .filter(|block| !block.trim().is_empty())
        .map(|block| {
            let fields: Map<String, Value> = block
                .lines()
                .filter_map(|line| line.split_once(": "))
                .map(|(field, value)| (field.to_owned(), json!(value)))
                .collect();
            Value::Object(fields)
        })
        .collect()
}

/// Appends a `curl` example to the operation's description (and for a stream, what it
/// prints).
fn add_curl(op: &mut Operation, method: &str, path: &str, given: &Value, request: Option<&Value>) {
    let mut url = format!("https://leadgen.example.com{path}");
    let mut query = Vec::new();
    let mut headers = Vec::new();
    for param in op.parameters.iter().filter_map(ReferenceOr::as_item) {
        let name = param.parameter_data_ref().name.as_str();
        let Some(value) = given.get("params").and_then(|p| p.get(name)) else {
            continue;
        };
        let text = value.as_str().map(str::to_owned).unwrap_or_else(|| value.to_string());
        match param {
            Parameter::Path { .. } => url = url.replace(&format!("{{{name}}}"), &text),
            // `error` is the provider's, for a refused sign-in; the example is a success.
            Parameter::Query { .. } if name != "error" => query.push(format!("{name}={text}")),
            Parameter::Header { .. } => headers.push(format!(" \\\n  -H '{name}: {text}'")),
            _ => {}
        }
    }
    if !query.is_empty() {
        url = format!("{url}?{}", query.join("&"));
    }
    let streams = op
        .responses
        .responses
        .values()
        .filter_map(ReferenceOr::as_item)
        .any(|r| r.content.contains_key(EVENT_STREAM));
    // -N: print events as they arrive.
    let mut line = format!(
        "curl{} -X {} '{url}'",
        if streams { " -N" } else { "" },
        method.to_uppercase()
    );
    if op.security.is_some() {
        line.push_str(" \\\n  -H \"Authorization: Bearer $LEADGEN_TOKEN\"");
    }
    for header in headers {
        line.push_str(&header);
    }
    if let Some(body) = request {
        line.push_str(&format!(
            " \\\n  -H 'Content-Type: application/json' \\\n  -d '{}'",
            serde_json::to_string(body).unwrap_or_default()
        ));
    }
    let mut example = format!("Example:\n\n```sh\n{line}\n```");
    if let Some(stream) = given.get("stream").and_then(Value::as_str).filter(|_| streams) {
        example.push_str(&format!(
            "\n\nIt prints frames such as:\n\n```text\n{}\n```",
            stream.trim_end()
        ));
    }
    op.description = Some(match op.description.take().filter(|d| !d.is_empty()) {
        None => example,
        Some(description) => format!("{description}\n\n{example}"),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_example_is_one_frame_and_the_whole_stream_is_described() {
        let frames = frames("id: 1\ndata: {\"type\":\"start\"}\n\nid: 2\ndata: {}\n\n");
        assert_eq!(
            frames,
            vec![
                json!({"id": "1", "data": "{\"type\":\"start\"}"}),
                json!({"id": "2", "data": "{}"})
            ]
        );
        let mut doc: OpenAPI = serde_json::from_str(&crate::app::openapi_service().spec()).expect("spec");
        crate::openapi_contract::with_common_responses(&mut doc);
        with_examples(&mut doc);
        let op = crate::openapi_document::operation_mut(&mut doc, "stream_search_events").expect("operation");
        let description = op.description.clone().unwrap_or_default();
        assert!(description.contains("curl -N -X GET"), "{description}");
        assert!(description.contains("```text\nid: 3\ndata: "), "{description}");
        let ReferenceOr::Item(answer) = &op.responses.responses[&StatusCode::Code(200)] else {
            panic!()
        };
        let example = answer.content[EVENT_STREAM].example.clone().expect("an example");
        assert_eq!(example["id"], "3", "the first frame of the example stream");
    }

    #[test]
    fn every_example_names_an_operation() {
        let doc: Value = serde_json::from_str(&crate::app::openapi_service().spec()).expect("spec");
        let ids: Vec<String> = doc["paths"]
            .as_object()
            .expect("paths")
            .values()
            .flat_map(|item| item.as_object().expect("item").values())
            .map(|op| op["operationId"].as_str().expect("id").to_owned())
            .collect();
        let examples: Map<String, Value> = serde_json::from_str(EXAMPLES).expect("examples JSON");
        for id in examples.keys() {
            assert!(ids.contains(id), "an example for an unknown operation: {id}");
        }
    }
}
