//! Workspaces in the contract: each workspace-scoped operation documents its
//! `Leadgen-Workspace` header and the least role it needs (`x-leadgen-role`, and a line of
//! its description), both from its signature's requirement type (`auth::access`), and
//! the 404 every one of them answers a non-member.
//!
//! poem-openapi names a parameter after the handler's argument (`auth`), and an extractor
//! cannot add an operation extension. So the `Auth` extractor of a workspace-scoped
//! operation declares a marker parameter whose schema title carries its role and where the
//! workspace comes from ([`marker_schema`]), and [`with_workspace_roles`] turns each
//! marker into the documented header (or drops it when the path names the workspace) and
//! the role. It runs first, so the other post-processing sees the final parameters.

use leadgen_core::workspace::WORKSPACE_HEADER;
use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use serde_json::{Value, json};

use crate::auth::access::Scoping;

/// Start of a marker's schema title: `x-leadgen-workspace:<role>:<header|path>`.
const MARKER: &str = "x-leadgen-workspace:";

/// The extension naming an operation's least role.
pub const ROLE_EXTENSION: &str = "x-leadgen-role";

/// The marker parameter's schema for a requirement that acts in a workspace.
pub fn marker_schema(scope: Scoping) -> Option<MetaSchemaRef> {
    let (role, from) = match scope {
        Scoping::User => return None,
        Scoping::Workspace(role) => (role, "header"),
        Scoping::WorkspaceInPath(role) => (role, "path"),
    };
    let mut schema = MetaSchema::new_with_format("string", "uuid");
    schema.title = Some(format!("{MARKER}{}:{from}", role.as_str()));
    Some(MetaSchemaRef::Inline(Box::new(schema)))
}

/// `spec` (JSON) with each marker turned into the header parameter and the role.
pub fn with_workspace_roles(spec: &str) -> String {
    let Ok(mut doc) = serde_json::from_str::<Value>(spec) else {
        return spec.to_owned();
    };
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return spec.to_owned();
    };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for op in item.values_mut() {
            document_operation(op);
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|_| spec.to_owned())
}

fn document_operation(op: &mut Value) {
    let Some(params) = op.get_mut("parameters").and_then(Value::as_array_mut) else {
        return;
    };
    let marker = params
        .iter()
        .position(|p| p["schema"]["title"].as_str().is_some_and(|t| t.starts_with(MARKER)));
    let Some(index) = marker else { return };
    let title = params[index]["schema"]["title"].as_str().unwrap_or_default().to_owned();
    let mut parts = title.trim_start_matches(MARKER).split(':');
    let (role, from) = (
        parts.next().unwrap_or_default().to_owned(),
        parts.next().unwrap_or_default(),
    );
    if from == "header" {
        params[index] = json!({
            "name": WORKSPACE_HEADER,
            "in": "header",
            "required": false,
            "description": "The workspace to act in (its id, from `list_workspaces`); your personal workspace when absent, or an API token's own workspace. A workspace you are not a member of answers 404.",
            "schema": { "type": "string", "format": "uuid" },
        });
    } else {
        params.remove(index);
    }
    if params.is_empty()
        && let Some(op) = op.as_object_mut()
    {
        op.remove("parameters");
    }
    let line = format!("Workspace role: at least `{role}` (403 `role_required` below it).");
    let description = match op["description"].as_str() {
        Some(text) if !text.is_empty() => format!("{text}\n\n{line}"),
        _ => line,
    };
    op["description"] = Value::String(description);
    op[ROLE_EXTENSION] = Value::String(role);
    // Every workspace-scoped operation answers a non-member 404, whatever else it does.
    if let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) {
        responses.entry("404").or_insert_with(|| {
            json!({
                "description": "No such workspace, or you are not a member of it (the two answer alike), or nothing of that kind in it.",
                "content": { "application/json; charset=utf-8": { "schema": { "$ref": "#/components/schemas/ErrorBody" } } },
            })
        });
    }
}
