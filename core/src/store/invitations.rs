//! Pending invitations to workspaces. Accepting or revoking one deletes its row (one
//! statement, so one link joins once however often it is clicked); the audit log keeps
//! the history.

use super::handle::Store;
use crate::{
    CoreError, CoreResult,
    ids::{UserId, WorkspaceId},
    invitations::{Invitation, KEEP_EXPIRED_SECS, NewInvitation, Person},
    time::now_unix,
};

/// What accepting a link did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Acceptance {
    /// Joined (or was a member already, who keeps their role): the workspace.
    Joined(WorkspaceId),
    /// No pending invitation has that token (never made, used, revoked or pruned).
    Unknown,
    /// It expired.
    Expired,
}

#[derive(sqlx::FromRow)]
struct InvitationRow {
    id: String,
    workspace_id: String,
    workspace_name: String,
    email: String,
    role: String,
    invited_by: String,
    inviter_email: Option<String>,
    inviter_name: Option<String>,
    created_at: i64,
    expires_at: i64,
}

/// The columns of an [`InvitationRow`], for `concat!` (static SQL: no string is built at
/// run time).
macro_rules! select_invitation {
    () => {
        "SELECT i.id, i.workspace_id, w.name AS workspace_name, i.email, i.role, i.invited_by,
        u.email AS inviter_email, u.name AS inviter_name, i.created_at, i.expires_at
     FROM workspace_invitations i
     JOIN workspaces w ON w.id = i.workspace_id
     LEFT JOIN users u ON u.id = i.invited_by "
    };
}

impl TryFrom<InvitationRow> for Invitation {
    type Error = CoreError;

    fn try_from(row: InvitationRow) -> CoreResult<Self> {
        Ok(Self {
            id: row.id,
            workspace_id: WorkspaceId::from(row.workspace_id),
            workspace_name: row.workspace_name,
            email: row.email,
            role: crate::words::parse(&row.role)
                .ok_or_else(|| CoreError::Internal(format!("unknown role {}", row.role)))?,
            invited_by: Person {
                user_id: UserId::from(row.invited_by),
                email: row.inviter_email,
                name: row.inviter_name,
            },
            created_at: row.created_at,
            expires_at: row.expires_at,
        })
    }
}

impl Store {
    /// Whether someone whose sign-in email is `email_key` (lower case) is a member.
    #[tracing::instrument(skip(self))]
    pub async fn has_member_with_email(&self, workspace: &WorkspaceId, email_key: &str) -> CoreResult<bool> {
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT 1 FROM workspace_members m JOIN users u ON u.id = m.user_id
             WHERE m.workspace_id = $1 AND LOWER(u.email) = $2",
        )
        .bind(workspace)
        .bind(email_key)
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.is_some())
    }

    /// Records an invitation (its token's hash only), replacing a pending one for the same
    /// address in the workspace (whose link stops working).
    #[tracing::instrument(skip_all, fields(workspace = %new.workspace))]
    pub async fn create_invitation(&self, new: &NewInvitation<'_>) -> CoreResult<Invitation> {
        let NewInvitation {
            workspace,
            invited_by,
            email,
            email_key,
            role,
            token_hash,
            expires_at,
        } = *new;
        let id = uuid::Uuid::now_v7().to_string();
        let mut tx = self.pool.begin().await?;
        self.lock_workspace(&mut tx, workspace).await?;
        sqlx::query("DELETE FROM workspace_invitations WHERE workspace_id = $1 AND email_key = $2")
            .bind(workspace)
            .bind(email_key)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO workspace_invitations
               (id, workspace_id, email, email_key, role, token_hash, invited_by, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&id)
        .bind(workspace)
        .bind(email)
        .bind(email_key)
        .bind(role.as_str())
        .bind(token_hash)
        .bind(invited_by)
        .bind(now_unix())
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.invitation(workspace, &id)
            .await?
            .ok_or_else(|| CoreError::Internal("an invitation vanished as it was made".into()))
    }

    /// One invitation of the workspace.
    #[tracing::instrument(skip(self))]
    pub async fn invitation(&self, workspace: &WorkspaceId, id: &str) -> CoreResult<Option<Invitation>> {
        let row = sqlx::query_as::<_, InvitationRow>(concat!(
            select_invitation!(),
            "WHERE i.workspace_id = $1 AND i.id = $2"
        ))
        .bind(workspace)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(Invitation::try_from).transpose()
    }

    /// The workspace's invitations that still work, newest first.
    #[tracing::instrument(skip(self))]
    pub async fn list_invitations(&self, workspace: &WorkspaceId) -> CoreResult<Vec<Invitation>> {
        let rows = sqlx::query_as::<_, InvitationRow>(concat!(
            select_invitation!(),
            "WHERE i.workspace_id = $1 AND i.expires_at > $2 ORDER BY i.id DESC"
        ))
        .bind(workspace)
        .bind(now_unix())
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(Invitation::try_from).collect()
    }

    /// Revokes one of the workspace's invitations: its address, if it existed.
    #[tracing::instrument(skip(self))]
    pub async fn revoke_invitation(&self, workspace: &WorkspaceId, id: &str) -> CoreResult<Option<String>> {
        Ok(
            sqlx::query_scalar("DELETE FROM workspace_invitations WHERE workspace_id = $1 AND id = $2 RETURNING email")
                .bind(workspace)
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// The invitation whose token hashes to `token_hash`, expired or not.
    ///
    /// Not scoped by a workspace: the token *is* the credential that names one (like a
    /// personal token's look-up); its hash is unique.
    #[tracing::instrument(skip_all)]
    pub async fn invitation_by_token(&self, token_hash: &str) -> CoreResult<Option<Invitation>> {
        let row = sqlx::query_as::<_, InvitationRow>(concat!(select_invitation!(), "WHERE i.token_hash = $1"))
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(Invitation::try_from).transpose()
    }

    /// Uses the invitation whose token hashes to `token_hash` for `user`: deletes it and
    /// makes them a member with its role (a member already keeps their role), in one
    /// transaction. Whose email may accept is the caller's rule, checked before.
    #[tracing::instrument(skip(self, token_hash))]
    pub async fn accept_invitation(&self, token_hash: &str, user: &UserId) -> CoreResult<Acceptance> {
        let now = now_unix();
        let mut tx = self.pool.begin().await?;
        let taken: Option<(String, String, i64)> = sqlx::query_as(
            "DELETE FROM workspace_invitations WHERE token_hash = $1 RETURNING workspace_id, role, expires_at",
        )
        .bind(token_hash)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((workspace, role, expires_at)) = taken else {
            return Ok(Acceptance::Unknown);
        };
        if now >= expires_at {
            // Kept: its link goes on saying it expired until it is pruned.
            tx.rollback().await?;
            return Ok(Acceptance::Expired);
        }
        sqlx::query(
            "INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING",
        )
        .bind(&workspace)
        .bind(user)
        .bind(&role)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Acceptance::Joined(WorkspaceId::from(workspace)))
    }

    /// Deletes invitations expired more than [`KEEP_EXPIRED_SECS`] ago. Returns how many.
    #[tracing::instrument(skip(self))]
    pub async fn prune_invitations(&self) -> CoreResult<u64> {
        let done = sqlx::query("DELETE FROM workspace_invitations WHERE expires_at < $1")
            .bind(now_unix() - KEEP_EXPIRED_SECS)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
