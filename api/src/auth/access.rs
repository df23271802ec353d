//! What an operation needs of its caller, as types: `Auth<access::SearchesRun>` lets a
//! session or a token with the `searches:run` scope in, acting in a workspace where the
//! caller is at least a member. The requirement lives in the
//! operation's signature, so it cannot be forgotten, and is checked in one place
//! ([`super::Auth`]'s extractor).

use leadgen_core::{personal_tokens::Scope, workspace::Role};

/// What an operation needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// A signed-in session; personal tokens are refused.
    Session,
    /// A session, or a token with this scope.
    Scope(Scope),
    /// A session or any valid token (harmless reads: who am I, the catalogue).
    AnyCredential,
}

/// Where an operation acts: for the person (their profile, their Google Sheets grant),
/// or in a workspace, with the least role it needs there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoping {
    /// The caller's own things; no workspace is chosen.
    User,
    /// The workspace the `Leadgen-Workspace` header names (the caller's personal one when
    /// absent; a personal API token's own workspace when it made the call).
    Workspace(Role),
    /// The workspace the path's `{id}` names (`/api/workspaces/{id}/...`).
    WorkspaceInPath(Role),
}

impl Scoping {
    /// The least role, for a workspace-scoped operation.
    pub const fn role(self) -> Option<Role> {
        match self {
            Self::User => None,
            Self::Workspace(role) | Self::WorkspaceInPath(role) => Some(role),
        }
    }
}

/// A requirement, as a type (see the module docs).
pub trait Access: Send + Sync + 'static {
    /// What the credential needs.
    const NEEDS: Needs;
    /// Where the operation acts, and the role it needs there.
    const SCOPE: Scoping;
}

/// The requirements of operations that act in a workspace: only their callers carry one
/// (`Auth::workspace`), so a handler for the person's own things cannot reach a
/// workspace's data by mistake.
pub trait InWorkspace: Access {}

macro_rules! access {
    ($($(#[$doc:meta])* $name:ident => $needs:expr, $scope:expr;)+) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy)]
            pub struct $name;
            impl Access for $name {
                const NEEDS: Needs = $needs;
                const SCOPE: Scoping = $scope;
            }
        )+
    };
}

macro_rules! in_workspace {
    ($($name:ident),+) => { $(impl InWorkspace for $name {})+ };
}

access! {
    /// A signed-in session only; the person's own things.
    Session => Needs::Session, Scoping::User;
    /// Any valid credential; the person's own things (who am I, the catalogue).
    AnyCredential => Needs::AnyCredential, Scoping::User;
    /// `exports:write`, for the person's own Google Sheets (Sheets access stays personal).
    ExportsWrite => Needs::Scope(Scope::ExportsWrite), Scoping::User;
    /// Any valid credential; reads a workspace's settings (key status, delivery). Member.
    WorkspaceRead => Needs::AnyCredential, Scoping::Workspace(Role::Member);
    /// `searches:run`; member.
    SearchesRun => Needs::Scope(Scope::SearchesRun), Scoping::Workspace(Role::Member);
    /// `usage:read`; member.
    UsageRead => Needs::Scope(Scope::UsageRead), Scoping::Workspace(Role::Member);
    /// `exports:write`, for the workspace's automatic delivery; member.
    DeliveryWrite => Needs::Scope(Scope::ExportsWrite), Scoping::Workspace(Role::Member);
    /// `keys:write`; admin.
    KeysWrite => Needs::Scope(Scope::KeysWrite), Scoping::Workspace(Role::Admin);
    /// `webhooks:write`; admin.
    WebhooksWrite => Needs::Scope(Scope::WebhooksWrite), Scoping::Workspace(Role::Admin);
    /// A session; the caller's own API tokens in the workspace. Member.
    TokensOwn => Needs::Session, Scoping::Workspace(Role::Member);
    /// A session; the workspace's plan and billing. Owner.
    Billing => Needs::Session, Scoping::Workspace(Role::Owner);
    /// A session; a workspace named in the path, read by any member.
    WorkspaceMember => Needs::Session, Scoping::WorkspaceInPath(Role::Member);
    /// A session; a workspace named in the path, its members changed by an admin.
    WorkspaceAdmin => Needs::Session, Scoping::WorkspaceInPath(Role::Admin);
    /// A session; a workspace named in the path, renamed or deleted by an owner.
    WorkspaceOwner => Needs::Session, Scoping::WorkspaceInPath(Role::Owner);
}

in_workspace!(
    WorkspaceRead,
    SearchesRun,
    UsageRead,
    DeliveryWrite,
    KeysWrite,
    WebhooksWrite,
    TokensOwn,
    Billing,
    WorkspaceMember,
    WorkspaceAdmin,
    WorkspaceOwner
);
