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
use openapiv3::{
    HeaderStyle, OpenAPI, Operation, Parameter, ParameterData, ParameterSchemaOrContent, ReferenceOr, Schema,
    SchemaData, SchemaKind, StatusCode, StringType, Type, VariantOrUnknownOrEmpty,
};
use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use serde_json::Value;

use crate::{auth::access::Scoping, openapi_contract::error_answer, openapi_document::operations_mut};

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

/// `doc` with each marker turned into the header parameter and the role.
pub fn with_workspace_roles(doc: &mut OpenAPI) {
    for (_, _, op) in operations_mut(doc) {
        document_operation(op);
    }
}

/// The role and where the workspace comes from, when `parameter` is a marker.
fn marker_of(parameter: &ReferenceOr<Parameter>) -> Option<(String, String)> {
    let ReferenceOr::Item(parameter) = parameter else {
        return None;
    };
    let ParameterSchemaOrContent::Schema(ReferenceOr::Item(schema)) = &parameter.parameter_data_ref().format else {
        return None;
    };
    let title = schema.schema_data.title.as_deref()?.strip_prefix(MARKER)?;
    let (role, from) = title.split_once(':')?;
    Some((role.to_owned(), from.to_owned()))
}

/// The documented `Leadgen-Workspace` header.
fn workspace_header() -> Parameter {
    let schema = Schema {
        schema_data: SchemaData::default(),
        schema_kind: SchemaKind::Type(Type::String(StringType {
            format: VariantOrUnknownOrEmpty::Unknown("uuid".to_owned()),
            ..StringType::default()
        })),
    };
    Parameter::Header {
        parameter_data: ParameterData {
            name: WORKSPACE_HEADER.to_owned(),
            description: Some(
                "The workspace to act in (its id, from `list_workspaces`); your personal workspace when absent, or an API token's own workspace. A workspace you are not a member of answers 404.".to_owned(),
            ),
            required: false,
            deprecated: None,
            format: ParameterSchemaOrContent::Schema(ReferenceOr::Item(schema)),
            example: None,
            examples: Default::default(),
            explode: None,
            extensions: Default::default(),
        },
        style: HeaderStyle::Simple,
    }
}

fn document_operation(op: &mut Operation) {
    let Some((index, (role, from))) = op
        .parameters
        .iter()
        .enumerate()
        .find_map(|(index, parameter)| marker_of(parameter).map(|marker| (index, marker)))
    else {
        return;
    };
    if from == "header" {
        op.parameters[index] = ReferenceOr::Item(workspace_header());
        // A header that is not a workspace id is refused before anything else.
        op.responses
            .responses
            .entry(StatusCode::Code(400))
            .or_insert_with(|| {
                ReferenceOr::Item(error_answer(
                    "The request cannot be accepted; `message` says why (`invalid_workspace`: the Leadgen-Workspace header is not a workspace id).",
                ))
            });
    } else {
        op.parameters.remove(index);
    }
    let line = format!("Workspace role: at least `{role}` (403 `role_required` below it).");
    op.description = Some(match op.description.take() {
        Some(text) if !text.is_empty() => format!("{text}\n\n{line}"),
        _ => line,
    });
    op.extensions.insert(ROLE_EXTENSION.to_owned(), Value::String(role));
    // Every workspace-scoped operation answers a non-member 404, whatever else it does.
    op.responses.responses.entry(StatusCode::Code(404)).or_insert_with(|| {
        ReferenceOr::Item(error_answer(
            "No such workspace, or you are not a member of it (the two answer alike), or nothing of that kind in it.",
        ))
    });
}
