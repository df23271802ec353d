//! The audit log (issue #28 item 6): `GET /api/workspaces/{id}/audit-events`, newest
//! first, paged by a cursor. Admins and owners read it (docs/decisions.md, "Invitations
//! and the audit log").

use leadgen_core::{
    audit::{self, Action, AuditEvent},
    ids::WorkspaceId,
};
use poem::web::Data;
use poem_openapi::{
    Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};

use super::{ApiTags, invitations::PersonInfo, searches::rfc3339};
use crate::{
    auth::{Auth, access},
    error::{ApiError, Fails, status::*},
    state::AppState,
};

/// One thing someone did in the workspace.
#[derive(Debug, Object)]
pub struct AuditEventInfo {
    /// Its id.
    pub id: String,
    /// When (RFC 3339).
    pub at: String,
    /// Who; null for the system (the billing provider changing the plan).
    #[oai(nullable)]
    pub actor: Option<PersonInfo>,
    /// What.
    pub action: Action,
    /// To what: an address, a name, an id (never a lead's data).
    pub target: String,
    /// More about it, by action: e.g. a role change's `from` and `to`, a search's `type`,
    /// `location`, `coverage` and `estimatedCostUsd`.
    pub details: serde_json::Value,
}

impl From<AuditEvent> for AuditEventInfo {
    fn from(e: AuditEvent) -> Self {
        Self {
            id: e.id,
            at: rfc3339(e.at),
            actor: e.actor.map(PersonInfo::from),
            action: e.action,
            target: e.target,
            details: e.details,
        }
    }
}

/// A page of the audit log.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AuditEventPage {
    /// Newest first.
    pub events: Vec<AuditEventInfo>,
    /// Pass as `before` for the next (older) page; null on the last page.
    #[oai(nullable)]
    pub next_cursor: Option<String>,
}

/// The audit log.
pub struct AuditApi;

#[OpenApi(tag = "ApiTags::Workspaces")]
impl AuditApi {
    /// The workspace's audit log
    ///
    /// Who did what and when: keys, invitations, members, tokens, webhooks, the plan,
    /// searches started and exports. Newest first, `limit` a page (1 to 100, default
    /// 50); pass the answer's `nextCursor` as `before` for the next page. Kept a year (a
    /// setting of the server). Admins and owners read it.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(
        path = "/workspaces/:id/audit-events",
        method = "get",
        operation_id = "list_audit_events"
    )]
    async fn list_audit_events(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceAdmin>,
        // The extractor reads and checks it (`auth`); named here for the contract.
        #[oai(name = "id")] _id: Path<WorkspaceId>,
        /// The `nextCursor` of the page before.
        #[oai(validator(
            max_length = 36,
            pattern = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
        ))]
        before: Query<Option<String>>,
        /// Events a page, 1 to 100 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
        limit: Query<Option<u32>>,
    ) -> Result<Json<AuditEventPage>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let before = before.0.filter(|b| !b.is_empty());
        if before.as_deref().is_some_and(|b| uuid::Uuid::parse_str(b).is_err()) {
            return Err(ApiError::bad_request(
                "invalid_cursor",
                "`before` must be a `nextCursor` from an earlier page.",
            )
            .into());
        }
        let limit = limit.0.unwrap_or(audit::DEFAULT_PAGE).clamp(1, audit::MAX_PAGE);
        let page = state
            .store
            .list_audit_events(auth.workspace(), before.as_deref(), limit)
            .await?;
        Ok(Json(AuditEventPage {
            events: page.events.into_iter().map(AuditEventInfo::from).collect(),
            next_cursor: page.next_cursor,
        }))
    }
}
