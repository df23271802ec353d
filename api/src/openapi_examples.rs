//! An example on every operation (issue #15): request bodies, answers, parameters and a
//! `curl` line, added to the spec poem-openapi generates.
//!
//! The examples live in `openapi_examples.json` (operation id → `request`, `response`,
//! `params`, `stream`); an operation without a `request` or `response` there takes its
//! schema's own example (`#[oai(example)]`). Every published spec (the committed
//! `openapi.json`, `/api/openapi.json`, and the interactive docs at `/api/docs`) is this
//! one. The contract tests check that every operation has its examples and that each
//! example has the fields its schema requires and no others.

use serde_json::{Map, Value, json};

/// The examples, by operation id.
const EXAMPLES: &str = include_str!("openapi_examples.json");

/// `spec` (poem-openapi's JSON) with every operation's examples.
pub fn with_examples(spec: &str) -> String {
    let mut doc: Value = match serde_json::from_str(spec) {
        Ok(doc) => doc,
        Err(_) => return spec.to_owned(),
    };
    let examples: Map<String, Value> = serde_json::from_str(EXAMPLES).unwrap_or_default();
    let schemas = doc.pointer("/components/schemas").cloned().unwrap_or(Value::Null);
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return spec.to_owned();
    };
    for (path, item) in paths.iter_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for (method, op) in item.iter_mut() {
            let Some(op) = op.as_object_mut() else { continue };
            let id = op
                .get("operationId")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let given = examples.get(&id).cloned().unwrap_or(Value::Null);
            add_param_examples(op, &given);
            let request = add_request_example(op, &given, &schemas);
            add_response_example(op, &given, &schemas);
            add_curl(op, method, path, &given, request.as_ref());
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned())
}

/// The example of a `$ref`'d component schema, if it has one.
fn schema_example(schema: Option<&Value>, schemas: &Value) -> Option<Value> {
    let name = schema?.get("$ref")?.as_str()?.rsplit('/').next()?;
    schemas.get(name)?.get("example").cloned()
}

/// The JSON media types of a `content` object (`application/json; charset=utf-8`).
fn json_media(content: Option<&mut Value>) -> impl Iterator<Item = &mut Map<String, Value>> {
    content
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|c| c.iter_mut())
        .filter(|(media_type, _)| media_type.starts_with("application/json"))
        .filter_map(|(_, media)| media.as_object_mut())
}

fn add_param_examples(op: &mut Map<String, Value>, given: &Value) {
    let Some(params) = op.get_mut("parameters").and_then(Value::as_array_mut) else {
        return;
    };
    for param in params.iter_mut().filter_map(Value::as_object_mut) {
        let name = param.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        if let Some(example) = given.get("params").and_then(|p| p.get(&name)) {
            param.insert("example".into(), example.clone());
        }
    }
}

/// Puts the request example on the JSON body, and returns it (for the curl line).
fn add_request_example(op: &mut Map<String, Value>, given: &Value, schemas: &Value) -> Option<Value> {
    let content = op.get_mut("requestBody").and_then(|b| b.get_mut("content"));
    let mut used = None;
    for media in json_media(content) {
        let example = given
            .get("request")
            .cloned()
            .or_else(|| schema_example(media.get("schema"), schemas));
        if let Some(example) = example {
            media.insert("example".into(), example.clone());
            used = Some(example);
        }
    }
    used
}

fn add_response_example(op: &mut Map<String, Value>, given: &Value, schemas: &Value) {
    let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
        return;
    };
    for (status, response) in responses.iter_mut() {
        if !status.starts_with('2') {
            continue;
        }
        let Some(content) = response.get_mut("content").and_then(Value::as_object_mut) else {
            continue;
        };
        for (media_type, media) in content.iter_mut() {
            let Some(media) = media.as_object_mut() else { continue };
            let example = if media_type.starts_with("text/event-stream") {
                given.get("stream").cloned()
            } else {
                given
                    .get("response")
                    .cloned()
                    .or_else(|| schema_example(media.get("schema"), schemas))
            };
            if let Some(example) = example {
                media.insert("example".into(), example);
            }
        }
    }
}

/// Appends a `curl` example to the operation's description.
fn add_curl(op: &mut Map<String, Value>, method: &str, path: &str, given: &Value, request: Option<&Value>) {
    let mut url = format!("https://leadgen.example.com{path}");
    let mut query = Vec::new();
    let mut headers = Vec::new();
    let params = op
        .get("parameters")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for param in params {
        let name = param.get("name").and_then(Value::as_str).unwrap_or_default();
        let Some(value) = given.get("params").and_then(|p| p.get(name)) else {
            continue;
        };
        let text = value.as_str().map(str::to_owned).unwrap_or_else(|| value.to_string());
        match param.get("in").and_then(Value::as_str) {
            Some("path") => url = url.replace(&format!("{{{name}}}"), &text),
            // `error` is the provider's, for a refused sign-in; the example is a success.
            Some("query") if name != "error" => query.push(format!("{name}={text}")),
            Some("header") => headers.push(format!(" \\\n  -H '{name}: {text}'")),
            _ => {}
        }
    }
    if !query.is_empty() {
        url = format!("{url}?{}", query.join("&"));
    }
    let streams = op
        .get("responses")
        .and_then(Value::as_object)
        .is_some_and(|r| r.values().any(|v| v.pointer("/content/text~1event-stream").is_some()));
    // -N: print events as they arrive.
    let mut line = format!(
        "curl{} -X {} '{url}'",
        if streams { " -N" } else { "" },
        method.to_uppercase()
    );
    if op.contains_key("security") {
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
    let description = op
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let example = format!("Example:\n\n```sh\n{line}\n```");
    op.insert(
        "description".into(),
        json!(if description.is_empty() {
            example
        } else {
            format!("{description}\n\n{example}")
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

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
