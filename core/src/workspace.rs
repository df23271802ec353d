//! Workspaces (issue #28): the tenant. A workspace has members, each with a role; the
//! Places key, plan, usage, history, API tokens and webhooks belong to it. Every user has
//! a personal workspace (id = the user's id) that cannot be deleted or shared away.

use serde::{Deserialize, Serialize};

use crate::ids::{UserId, WorkspaceId};

/// The header that chooses the workspace an operation acts in (the personal one when
/// absent).
pub const WORKSPACE_HEADER: &str = "Leadgen-Workspace";

/// Longest workspace name, in characters.
pub const MAX_NAME_CHARS: usize = 80;

/// What a member may do, from least to most: each role may do everything the ones before
/// it may (the derived order is that order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "WorkspaceRole", rename_all = "snake_case")
)]
pub enum Role {
    /// Runs searches, exports, reads history and usage, manages their own tokens.
    Member,
    /// Also the key, members, tokens and webhooks.
    Admin,
    /// Also billing, renaming and deleting the workspace, and making owners.
    Owner,
}

impl Role {
    /// The stored and wire word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Member => "member",
            Self::Admin => "admin",
            Self::Owner => "owner",
        }
    }

    /// Whether this role may do what needs `needed`.
    pub fn allows(self, needed: Role) -> bool {
        self >= needed
    }
}

/// A workspace as one of its members sees it in their list.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkspaceSummary {
    /// Its id.
    pub id: WorkspaceId,
    /// Its name.
    pub name: String,
    /// The caller's role in it.
    pub role: Role,
    /// Whether it is the caller's personal workspace.
    pub personal: bool,
    /// What its searches may spend on its Google key in a month, US cents (`None`: no
    /// cap).
    pub monthly_spend_cap_cents: Option<i64>,
    /// What its searches of this month (UTC) spent on its key so far, US dollars
    /// (finished searches).
    pub month_spend_usd: f64,
    /// Whether its searches remember the place ids they send (issue #29; on by default).
    pub place_memory: bool,
}

/// A member of a workspace, as the member list shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Their user id.
    pub user_id: UserId,
    /// Their sign-in email.
    pub email: String,
    /// Their display name.
    pub name: Option<String>,
    /// Their role.
    pub role: Role,
    /// When they joined (Unix seconds).
    pub joined_at: i64,
}

/// A workspace name, trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters.
pub fn parse_name(text: &str) -> Result<String, crate::CoreError> {
    let name = text.trim();
    if name.is_empty() {
        return Err(crate::CoreError::Invalid("A workspace needs a name.".into()));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(crate::CoreError::Invalid(format!(
            "A workspace name has at most {MAX_NAME_CHARS} characters."
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(crate::CoreError::Invalid(
            "A workspace name cannot hold control characters (new lines, tabs).".into(),
        ));
    }
    Ok(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_order_from_member_to_owner() {
        assert!(Role::Owner.allows(Role::Admin));
        assert!(Role::Admin.allows(Role::Member));
        assert!(!Role::Member.allows(Role::Admin));
        assert!(!Role::Admin.allows(Role::Owner));
        for role in [Role::Member, Role::Admin, Role::Owner] {
            assert_eq!(crate::words::parse::<Role>(role.as_str()), Some(role));
        }
    }

    #[test]
    fn a_name_is_trimmed_and_bounded() {
        assert_eq!(parse_name("  Acme agency ").expect("ok"), "Acme agency");
        assert!(parse_name("   ").is_err());
        assert!(parse_name(&"x".repeat(MAX_NAME_CHARS + 1)).is_err());
        assert!(parse_name("a\nb").is_err());
        assert!(parse_name(&"é".repeat(MAX_NAME_CHARS)).is_ok(), "characters, not bytes");
    }
}
