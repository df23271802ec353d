//! Workspaces and their members (issue #28): `/api/workspaces`. The workspace is the
//! tenant; who may call each operation is in its signature (`auth::access`): the least
//! role, checked by the extractor, which answers a non-member 404 as if the workspace did
//! not exist. The rules about *whom* an operation may touch (only an owner makes or
//! unmakes owners; anyone may leave) are here, beside the operations.

use leadgen_core::{
    audit::{self, Action},
    ids::{UserId, WorkspaceId},
    spend,
    store::MemberChange,
    workspace::{self, Member, Role, WorkspaceSummary},
};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json, types::MaybeUndefined};
use serde_json::json;

use super::{ApiTags, searches::rfc3339};
use crate::{
    auth::{Auth, CallerWorkspace, access, workspace::NO_SUCH_WORKSPACE},
    error::{ApiError, Fails, status::*},
    state::AppState,
    text::Text,
};

/// A workspace as the caller sees it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct WorkspaceInfo {
    /// Its id: the value of the `Leadgen-Workspace` header that acts in it.
    pub id: WorkspaceId,
    /// Its name.
    pub name: String,
    /// Your role in it.
    pub role: Role,
    /// Whether it is your personal workspace (made at your first sign-in; it cannot be
    /// deleted and you cannot leave it).
    pub personal: bool,
    /// What its searches may spend on its Google key in a calendar month (UTC), US
    /// dollars; null: no cap. An owner sets it with `update_workspace`.
    #[oai(nullable)]
    pub monthly_spend_cap_usd: Option<f64>,
    /// What its searches of this month (UTC) spent on its Google key so far, US dollars
    /// at list prices (finished searches).
    pub month_spend_usd: f64,
    /// Whether its searches remember the Google place ids they send (ids only, never
    /// lead data), so a search can leave them out with `exclude`. On by default; an
    /// admin changes it with `update_workspace`.
    pub place_memory: bool,
}

impl From<WorkspaceSummary> for WorkspaceInfo {
    fn from(w: WorkspaceSummary) -> Self {
        Self {
            id: w.id,
            name: w.name,
            role: w.role,
            personal: w.personal,
            monthly_spend_cap_usd: w.monthly_spend_cap_cents.map(spend::cents_to_usd),
            month_spend_usd: leadgen_core::money::round_cents(w.month_spend_usd),
            place_memory: w.place_memory,
        }
    }
}

/// The caller's workspaces.
#[derive(Debug, Object)]
pub struct WorkspaceList {
    /// Personal first, then by name.
    pub workspaces: Vec<WorkspaceInfo>,
}

/// A new workspace, or a new name for one.
#[derive(Debug, Object)]
pub struct WorkspaceNameRequest {
    /// 1 to 80 characters.
    #[oai(validator(max_length = 400))]
    pub name: Text,
}

/// What to change in a workspace: its name, its monthly spend cap, or both.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct UpdateWorkspaceRequest {
    /// A new name: 1 to 80 characters.
    #[oai(validator(max_length = 400))]
    pub name: Option<Text>,
    /// A monthly cap on what the workspace's searches spend on its Google key, US
    /// dollars (above 0, at most 100,000, whole cents); null removes the cap, absent
    /// leaves it. A search that would pass it stops with what it has (`spend_cap`); once
    /// it is reached, new searches are refused (403 `spend_cap_reached`) until next month.
    pub monthly_spend_cap_usd: MaybeUndefined<f64>,
    /// Turns the place memory on or off (an admin may; the other fields need an owner).
    /// Off: searches record nothing and `exclude` leaves nothing out; what is remembered
    /// stays until `forget_place_memory`.
    pub place_memory: Option<bool>,
}

/// What `forget_place_memory` answers.
#[derive(Debug, Object)]
pub struct PlaceMemoryForgotten {
    /// How many place ids were forgotten.
    pub forgotten: u64,
}

/// A member of a workspace.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct MemberInfo {
    /// Their user id (for `update_member` and `remove_member`).
    pub user_id: UserId,
    /// Their sign-in email.
    pub email: String,
    /// Their name, when their identity provider gave one.
    #[oai(nullable)]
    pub name: Option<String>,
    /// Their role.
    pub role: Role,
    /// When they joined (RFC 3339).
    pub joined_at: String,
}

impl From<Member> for MemberInfo {
    fn from(m: Member) -> Self {
        Self {
            user_id: m.user_id,
            email: m.email,
            name: m.name,
            role: m.role,
            joined_at: rfc3339(m.joined_at),
        }
    }
}

/// The members of a workspace.
#[derive(Debug, Object)]
pub struct MemberList {
    /// Owners first, then admins, then members; by email within each.
    pub members: Vec<MemberInfo>,
}

/// A member's new role.
#[derive(Debug, Object)]
pub struct UpdateMemberRequest {
    /// `owner`, `admin` or `member`.
    pub role: Role,
}

/// What `delete_workspace` answers.
#[derive(Debug, ApiResponse)]
pub enum DeleteWorkspaceResponse {
    /// Deleted, with everything in it.
    #[oai(status = 204)]
    Deleted,
}

/// What `remove_member` answers.
#[derive(Debug, ApiResponse)]
pub enum RemoveMemberResponse {
    /// Removed (or left): their next request in the workspace is refused.
    #[oai(status = 204)]
    Removed,
}

/// 403: a workspace keeps an owner (a refusal of the action, like a role's, not a malformed
/// request: the same request succeeds once another member is an owner).
fn last_owner() -> ApiError {
    ApiError::forbidden(
        "last_owner",
        "A workspace needs an owner: make another member an owner first.",
    )
}

fn no_such_member() -> ApiError {
    ApiError::not_found("No member of this workspace has that user id.")
}

/// Only an owner makes or unmakes owners.
fn may_touch(caller: &CallerWorkspace, target: Role, new: Option<Role>) -> Result<(), ApiError> {
    let touches_owner = target == Role::Owner || new == Some(Role::Owner);
    if touches_owner && caller.role != Role::Owner {
        return Err(ApiError::forbidden(
            "role_required",
            "Only an owner may make, demote or remove an owner.",
        ));
    }
    Ok(())
}

/// Workspace operations.
pub struct WorkspacesApi;

#[OpenApi(tag = "ApiTags::Workspaces", prefix_path = "/workspaces")]
impl WorkspacesApi {
    /// Your workspaces
    ///
    /// Each with its id (the `Leadgen-Workspace` header's value), name, your role and
    /// whether it is your personal one.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/", method = "get", operation_id = "list_workspaces")]
    async fn list_workspaces(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::Session>,
    ) -> Result<Json<WorkspaceList>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        let user = &auth.0.user.id;
        let mut workspaces = state.store.list_workspaces(user).await?;
        if !workspaces.iter().any(|w| w.personal) {
            // A user an older release signed up during a rollout: made on first use.
            state.store.ensure_personal_workspace(user).await?;
            workspaces = state.store.list_workspaces(user).await?;
        }
        Ok(Json(WorkspaceList {
            workspaces: workspaces.into_iter().map(WorkspaceInfo::from).collect(),
        }))
    }

    /// Create a workspace
    ///
    /// A shared workspace with you as its owner: its own key, plan, usage, history, tokens
    /// and webhooks.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/", method = "post", operation_id = "create_workspace")]
    async fn create_workspace(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::Session>,
        body: Json<WorkspaceNameRequest>,
    ) -> Result<Json<WorkspaceInfo>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN }>> {
        let name = workspace::parse_name(&body.name)?;
        let created = state.store.create_workspace(&auth.0.user.id, &name).await?;
        audit::record(
            &state.store,
            &created.id,
            Some(&auth.0.user.id),
            Action::WorkspaceCreated,
            &name,
            json!({}),
        )
        .await;
        Ok(Json(created.into()))
    }

    /// Rename a workspace, set its monthly spend cap, or turn its place memory on or off
    ///
    /// `name` renames it; `monthlySpendCapUsd` sets (a number) or removes (null) the cap
    /// on what its searches spend on its Google key in a calendar month (UTC); both need
    /// an owner (403 `role_required` for admins). `placeMemory` turns the place memory on
    /// or off; an admin may. An empty body changes nothing and answers the workspace.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/:id", method = "patch", operation_id = "update_workspace")]
    async fn update_workspace(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceAdmin>,
        id: Path<WorkspaceId>,
        body: Json<UpdateWorkspaceRequest>,
    ) -> Result<Json<WorkspaceInfo>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        debug_assert_eq!(&id.0, auth.workspace());
        // Everything is checked before anything changes.
        let name = body.name.as_deref().map(workspace::parse_name).transpose()?;
        let cap = match &body.monthly_spend_cap_usd {
            MaybeUndefined::Undefined => None,
            MaybeUndefined::Null => Some(None),
            MaybeUndefined::Value(usd) => Some(Some(spend::parse_monthly_cap_usd(*usd)?)),
        };
        if (name.is_some() || cap.is_some()) && auth.caller_workspace().role != Role::Owner {
            return Err(ApiError::forbidden(
                "role_required",
                "Renaming the workspace or setting its spend cap needs the owner role in this workspace.",
            )
            .into());
        }
        // An empty body changes nothing (a PATCH of no field) and answers the workspace.
        let before = state.store.workspace_for(auth.workspace(), &auth.0.user.id).await?;
        if let Some(name) = &name {
            state.store.rename_workspace(auth.workspace(), name).await?;
            audit::record(
                &state.store,
                auth.workspace(),
                Some(&auth.0.user.id),
                Action::WorkspaceRenamed,
                name,
                json!({"from": before.as_ref().map(|w| w.name.clone())}),
            )
            .await;
        }
        if let Some(cents) = cap {
            state.store.set_spend_cap_cents(auth.workspace(), cents).await?;
        }
        if let Some(on) = body.place_memory
            && before.as_ref().is_some_and(|w| w.place_memory != on)
        {
            state.store.set_place_memory(auth.workspace(), on).await?;
            audit::record(
                &state.store,
                auth.workspace(),
                Some(&auth.0.user.id),
                Action::PlaceMemoryChanged,
                if on { "on" } else { "off" },
                json!({}),
            )
            .await;
        }
        let renamed = state
            .store
            .workspace_for(auth.workspace(), &auth.0.user.id)
            .await?
            .ok_or_else(|| ApiError::not_found(NO_SUCH_WORKSPACE))?;
        Ok(Json(renamed.into()))
    }

    /// Delete a workspace
    ///
    /// Deletes it and everything in it: its key, plan records, usage, history, tokens and
    /// webhooks. A personal workspace cannot be deleted (403 `personal_workspace`).
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/:id", method = "delete", operation_id = "delete_workspace")]
    async fn delete_workspace(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceOwner>,
        id: Path<WorkspaceId>,
    ) -> Result<DeleteWorkspaceResponse, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        debug_assert_eq!(&id.0, auth.workspace());
        if !state.store.delete_workspace(auth.workspace()).await? {
            return Err(ApiError::forbidden("personal_workspace", "Your personal workspace cannot be deleted.").into());
        }
        Ok(DeleteWorkspaceResponse::Deleted)
    }

    /// Forget the workspace's place memory
    ///
    /// Deletes every Google place id the workspace's searches and exports remembered
    /// (the memory holds nothing else), and answers how many. Later searches with
    /// `exclude` leave nothing out until places are remembered again. Needs an admin;
    /// recorded in the activity log.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/:id/place-memory", method = "delete", operation_id = "forget_place_memory")]
    async fn forget_place_memory(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceAdmin>,
        id: Path<WorkspaceId>,
    ) -> Result<Json<PlaceMemoryForgotten>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        debug_assert_eq!(&id.0, auth.workspace());
        let forgotten = state.store.forget_place_memory(auth.workspace()).await?;
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::PlaceMemoryForgotten,
            "place memory",
            json!({"places": forgotten}),
        )
        .await;
        Ok(Json(PlaceMemoryForgotten { forgotten }))
    }

    /// The members of a workspace
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/:id/members", method = "get", operation_id = "list_members")]
    async fn list_members(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceMember>,
        // The extractor reads and checks it (`auth`); named here for the contract.
        #[oai(name = "id")] _id: Path<WorkspaceId>,
    ) -> Result<Json<MemberList>, Fails<{ UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let members = state.store.list_members(auth.workspace()).await?;
        Ok(Json(MemberList {
            members: members.into_iter().map(MemberInfo::from).collect(),
        }))
    }

    /// Change a member's role
    ///
    /// Admins and owners change roles; only an owner makes or demotes an owner. The last
    /// owner cannot be demoted (403 `last_owner`).
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/:id/members/:user_id", method = "patch", operation_id = "update_member")]
    async fn update_member(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceAdmin>,
        // The extractor reads and checks it (`auth`); named here for the contract.
        #[oai(name = "id")] _id: Path<WorkspaceId>,
        user_id: Path<UserId>,
        body: Json<UpdateMemberRequest>,
    ) -> Result<Json<MemberInfo>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let workspace = auth.workspace();
        let current = state
            .store
            .member_role(workspace, &user_id.0)
            .await?
            .ok_or_else(no_such_member)?;
        may_touch(auth.caller_workspace(), current, Some(body.role))?;
        match state.store.set_member_role(workspace, &user_id.0, body.role).await? {
            MemberChange::Done => {}
            MemberChange::NotMember => return Err(no_such_member().into()),
            MemberChange::LastOwner => return Err(last_owner().into()),
        }
        let member = state
            .store
            .list_members(workspace)
            .await?
            .into_iter()
            .find(|m| m.user_id == user_id.0)
            .ok_or_else(no_such_member)?;
        if current != body.role {
            audit::record(
                &state.store,
                workspace,
                Some(&auth.0.user.id),
                Action::MemberRoleChanged,
                &member.email,
                json!({"userId": member.user_id, "from": current.as_str(), "to": body.role.as_str()}),
            )
            .await;
        }
        Ok(Json(member.into()))
    }

    /// Remove a member, or leave
    ///
    /// Your own user id leaves the workspace (any member may; the last owner may not, 403
    /// `last_owner`). Removing someone else needs an admin, or an owner for an owner.
    /// Removal is immediate: their next request in the workspace is refused, their API
    /// tokens made there are revoked, and their running searches there are cancelled (the
    /// history keeps them, cancelled).
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/:id/members/:user_id", method = "delete", operation_id = "remove_member")]
    async fn remove_member(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceMember>,
        // The extractor reads and checks it (`auth`); named here for the contract.
        #[oai(name = "id")] _id: Path<WorkspaceId>,
        user_id: Path<UserId>,
    ) -> Result<RemoveMemberResponse, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let caller = auth.caller_workspace();
        let leaving = user_id.0 == auth.0.user.id;
        if !leaving {
            if !caller.role.allows(Role::Admin) {
                return Err(ApiError::forbidden(
                    "role_required",
                    "Removing another member needs the admin role in this workspace; you are a member.",
                )
                .into());
            }
            let current = state
                .store
                .member_role(&caller.id, &user_id.0)
                .await?
                .ok_or_else(no_such_member)?;
            may_touch(caller, current, None)?;
        }
        // Their address, for the log, read before they go.
        let email = state
            .store
            .list_members(&caller.id)
            .await?
            .into_iter()
            .find(|m| m.user_id == user_id.0)
            .map(|m| m.email);
        let removal = state.store.remove_member(&caller.id, &user_id.0).await?;
        match removal.change {
            MemberChange::Done => {}
            MemberChange::NotMember => return Err(no_such_member().into()),
            MemberChange::LastOwner => return Err(last_owner().into()),
        }
        audit::record(
            &state.store,
            &caller.id,
            Some(&auth.0.user.id),
            if leaving {
                Action::MemberLeft
            } else {
                Action::MemberRemoved
            },
            email.unwrap_or_default(),
            json!({
                "userId": user_id.0,
                "tokensRevoked": removal.tokens_revoked,
                "searchesCancelled": removal.unfinished_searches.len(),
            }),
        )
        .await;
        for search in &removal.unfinished_searches {
            if let Err(e) = state.bus.cancel(search).await {
                tracing::warn!(error = %e, %search, "could not cancel a removed member's search");
            }
        }
        Ok(RemoveMemberResponse::Removed)
    }
}
