//! Choosing the workspace an operation acts in, and checking the caller may act there.
//!
//! Nobody outside a workspace learns that it exists: a workspace the caller is not a
//! member of answers 404 exactly as an id that never existed. A member whose role is
//! below what the operation needs gets 403 naming both roles. A personal API token acts
//! only in the workspace it was made in.

use leadgen_core::{
    ids::WorkspaceId,
    workspace::{Role, WORKSPACE_HEADER},
};
use poem::Request;

use super::{AuthUser, CallerWorkspace, Credential};
use crate::{error::ApiError, state::AppState};

/// What a non-member (or anyone naming an unknown workspace) is told.
pub const NO_SUCH_WORKSPACE: &str = "No such workspace.";

/// The workspace the `Leadgen-Workspace` header names, if it is present.
pub fn from_header(request: &Request) -> Result<Option<WorkspaceId>, ApiError> {
    let Some(value) = request.headers().get(WORKSPACE_HEADER) else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(WorkspaceId::parse)
        .map(Some)
        .ok_or_else(|| {
            ApiError::bad_request(
                "invalid_workspace",
                format!("The {WORKSPACE_HEADER} header must be a workspace id (a UUID)."),
            )
        })
}

/// The workspace the path's `{id}` names: its first parameter, in every path under
/// `/api/workspaces/{id}` (poem-openapi's router names path parameters by position,
/// `param0`, `param1`...). A malformed id names no workspace: 404, like one the caller
/// cannot see.
pub fn from_path(request: &Request) -> Result<WorkspaceId, ApiError> {
    request
        .raw_path_param("param0")
        .or_else(|| request.raw_path_param("id"))
        .and_then(WorkspaceId::parse)
        .ok_or_else(|| ApiError::not_found(NO_SUCH_WORKSPACE))
}

/// The workspace the caller acts in: the one named, else a token's own, else their
/// personal one; checked for membership, the role `needed` and a token's binding.
pub async fn resolve(
    request: &Request,
    caller: &AuthUser,
    named: Option<WorkspaceId>,
    needed: Role,
) -> Result<CallerWorkspace, ApiError> {
    let state = request
        .data::<AppState>()
        .ok_or_else(|| ApiError::internal(&"application state missing"))?;
    let personal = WorkspaceId::personal(&caller.user.id);
    let token_workspace = match &caller.credential {
        Credential::Token(grant) => Some(&grant.workspace_id),
        Credential::Session(_) => None,
    };
    let id = named
        .or_else(|| token_workspace.cloned())
        .unwrap_or_else(|| personal.clone());
    let role = match state.store.member_role(&id, &caller.user.id).await? {
        Some(role) => role,
        // A user an older release signed up during a rollout has no workspace row yet:
        // their personal workspace is made on first use (idempotent).
        None if id == personal => {
            state.store.ensure_personal_workspace(&caller.user.id).await?;
            Role::Owner
        }
        None => return Err(ApiError::not_found(NO_SUCH_WORKSPACE)),
    };
    if token_workspace.is_some_and(|bound| *bound != id) {
        return Err(ApiError::forbidden(
            "token_workspace",
            "This API token was made in another workspace and acts only there. Create a token in this workspace.",
        ));
    }
    if !role.allows(needed) {
        return Err(ApiError::forbidden(
            "role_required",
            format!(
                "This operation needs the {} role in this workspace; you are {} {}.",
                needed.as_str(),
                if role == Role::Admin { "an" } else { "a" },
                role.as_str()
            ),
        ));
    }
    Ok(CallerWorkspace { id, role })
}
