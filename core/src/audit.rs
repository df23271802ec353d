//! The audit log (issue #28 item 6): who did what, when, in a workspace. Each action is
//! recorded where it happens with one [`record`] call. `target` and `details` carry
//! settings, ids, addresses of members and figures: never lead data (no lead's name,
//! address, phone or website).

use serde::{Deserialize, Serialize};

use crate::{
    ids::{UserId, WorkspaceId},
    invitations::Person,
    store::Store,
};

/// How long events are kept by default, in days (`LEADGEN_AUDIT_RETENTION_DAYS`).
pub const DEFAULT_RETENTION_DAYS: u32 = 365;
/// Events a page holds by default, and at most.
pub const DEFAULT_PAGE: u32 = 50;
/// The most events one page may hold.
pub const MAX_PAGE: u32 = 100;

/// What was done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "AuditAction", rename_all = "snake_case")
)]
pub enum Action {
    /// The Places key was saved (or replaced).
    KeySaved,
    /// The Places key was removed.
    KeyRemoved,
    /// Someone was invited (target: the address; details: the role).
    InvitationCreated,
    /// An invitation was revoked (target: the address).
    InvitationRevoked,
    /// An invitation was accepted (target: the address; details: the role).
    InvitationAccepted,
    /// A member's role changed (target: their email; details: from, to).
    MemberRoleChanged,
    /// A member was removed by another (target: their email).
    MemberRemoved,
    /// A member left (target: their email).
    MemberLeft,
    /// An API token was made (target: its name; details: its scopes).
    TokenCreated,
    /// An API token was revoked (target: its id; details: whose).
    TokenRevoked,
    /// A webhook endpoint was made (target: its URL's host; details: its events).
    WebhookCreated,
    /// A webhook endpoint was deleted (target: its id).
    WebhookDeleted,
    /// The plan changed (details: the new plan and status).
    PlanChanged,
    /// A search started (target: its id; details: type, location, coverage, cost
    /// estimate).
    SearchStarted,
    /// Leads were exported (target: the search; details: where to).
    ExportMade,
    /// The workspace was created (target: its name).
    WorkspaceCreated,
    /// The workspace was renamed (target: the new name; details: the old one).
    WorkspaceRenamed,
    /// The place memory was turned on or off (target: `on` or `off`).
    PlaceMemoryChanged,
    /// The place memory was forgotten (details: how many place ids).
    PlaceMemoryForgotten,
    /// A saved search was made (target: its id; details: its name, schedule).
    SavedSearchCreated,
    /// A saved search was changed (target: its id; details: its name, schedule, paused).
    SavedSearchUpdated,
    /// A saved search was deleted (target: its id; details: its name).
    SavedSearchDeleted,
    /// A saved search was run (target: its id; details: the run's search id, its name,
    /// whether the schedule started it: then no actor).
    SavedSearchRun,
}

impl Action {
    /// The stored and wire word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::KeySaved => "key_saved",
            Self::KeyRemoved => "key_removed",
            Self::InvitationCreated => "invitation_created",
            Self::InvitationRevoked => "invitation_revoked",
            Self::InvitationAccepted => "invitation_accepted",
            Self::MemberRoleChanged => "member_role_changed",
            Self::MemberRemoved => "member_removed",
            Self::MemberLeft => "member_left",
            Self::TokenCreated => "token_created",
            Self::TokenRevoked => "token_revoked",
            Self::WebhookCreated => "webhook_created",
            Self::WebhookDeleted => "webhook_deleted",
            Self::PlanChanged => "plan_changed",
            Self::SearchStarted => "search_started",
            Self::ExportMade => "export_made",
            Self::WorkspaceCreated => "workspace_created",
            Self::WorkspaceRenamed => "workspace_renamed",
            Self::PlaceMemoryChanged => "place_memory_changed",
            Self::PlaceMemoryForgotten => "place_memory_forgotten",
            Self::SavedSearchCreated => "saved_search_created",
            Self::SavedSearchUpdated => "saved_search_updated",
            Self::SavedSearchDeleted => "saved_search_deleted",
            Self::SavedSearchRun => "saved_search_run",
        }
    }
}

/// One recorded event.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditEvent {
    /// Its id (UUID v7: later events have greater ids; the page cursor).
    pub id: String,
    /// Unix seconds.
    pub at: i64,
    /// Who did it; `None` for the system (the billing provider changing the plan).
    pub actor: Option<Person>,
    /// What.
    pub action: Action,
    /// To what (an address, a name, an id).
    pub target: String,
    /// More about it (JSON object).
    pub details: serde_json::Value,
}

/// Records an event. Called after the action succeeded: a failure to record is logged,
/// not answered, since the action itself is done and a retry would repeat it.
pub async fn record(
    store: &Store,
    workspace: &WorkspaceId,
    actor: Option<&UserId>,
    action: Action,
    target: impl Into<String>,
    details: serde_json::Value,
) {
    let target = target.into();
    if let Err(e) = store
        .insert_audit_event(workspace, actor, action, &target, &details)
        .await
    {
        tracing::error!(error = %e, %workspace, action = action.as_str(), "could not record an audit event");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_reads_back_from_its_word() {
        let all = [
            Action::KeySaved,
            Action::KeyRemoved,
            Action::InvitationCreated,
            Action::InvitationRevoked,
            Action::InvitationAccepted,
            Action::MemberRoleChanged,
            Action::MemberRemoved,
            Action::MemberLeft,
            Action::TokenCreated,
            Action::TokenRevoked,
            Action::WebhookCreated,
            Action::WebhookDeleted,
            Action::PlanChanged,
            Action::SearchStarted,
            Action::ExportMade,
            Action::WorkspaceCreated,
            Action::WorkspaceRenamed,
            Action::PlaceMemoryChanged,
            Action::PlaceMemoryForgotten,
            Action::SavedSearchCreated,
            Action::SavedSearchUpdated,
            Action::SavedSearchDeleted,
            Action::SavedSearchRun,
        ];
        for action in all {
            assert_eq!(crate::words::parse::<Action>(action.as_str()), Some(action));
        }
    }
}
