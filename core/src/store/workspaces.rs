//! Workspaces and their members. The last-owner rule is held by the statements that
//! change a role or remove a member (a guard in the statement, under a lock of the
//! workspace's row on Postgres), so two owners demoting or removing each other at the
//! same moment still leave one.

use super::handle::{Backend, Store};
use crate::{
    CoreError, CoreResult,
    ids::{SearchId, UserId, WorkspaceId},
    time::now_unix,
    workspace::{Member, Role, WorkspaceSummary},
};

/// The guard shared by demotions and removals: the row `$2` of workspace `$1` is not an
/// owner, or another owner remains.
macro_rules! keeps_an_owner {
    () => {
        "(role <> 'owner' OR (SELECT COUNT(*) FROM workspace_members o
           WHERE o.workspace_id = $1 AND o.role = 'owner' AND o.user_id <> $2) > 0)"
    };
}

/// Why a member change was refused (the API maps each to its status).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberChange {
    /// Done.
    Done,
    /// No such member.
    NotMember,
    /// They are the last owner: the workspace would have none.
    LastOwner,
}

/// What removing a member left to do outside the store: their unfinished searches there,
/// to cancel on the bus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    /// The outcome.
    pub change: MemberChange,
    /// Their searches in the workspace that had not finished.
    pub unfinished_searches: Vec<SearchId>,
    /// How many of their API tokens made there were revoked.
    pub tokens_revoked: u64,
}

#[derive(sqlx::FromRow)]
struct SummaryRow {
    id: String,
    name: String,
    role: String,
    personal_of: Option<String>,
    monthly_spend_cap_cents: Option<i64>,
    month_spend_usd: f64,
    place_memory: i64,
}

/// A workspace as a member sees it, over `workspace_members m JOIN workspaces w`, with the
/// month (`$3`)'s spend on its key (a macro, so statements stay static text).
macro_rules! summary_columns {
    () => {
        "SELECT w.id, w.name, m.role, w.personal_of, w.monthly_spend_cap_cents, w.place_memory,
           (SELECT CAST(COALESCE(SUM(s.cost_usd), 0) AS DOUBLE PRECISION) FROM searches s
             WHERE COALESCE(s.workspace_id, s.user_id) = w.id AND s.month = $3) AS month_spend_usd
         FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id"
    };
}

/// This month (UTC), as the usage counters name it.
fn this_month() -> String {
    crate::usage::periods(chrono::Utc::now()).month
}

fn role_of(word: &str) -> CoreResult<Role> {
    crate::words::parse(word).ok_or_else(|| CoreError::Internal(format!("unknown role {word}")))
}

impl Store {
    /// Makes sure `user` has their personal workspace and owns it (at sign-in, and for a
    /// user an older release created during a rollout). Idempotent.
    #[tracing::instrument(skip(self))]
    pub async fn ensure_personal_workspace(&self, user: &UserId) -> CoreResult<()> {
        let now = now_unix();
        sqlx::query(
            "INSERT INTO workspaces (id, name, personal_of, created_at) VALUES ($1, 'Personal', $1, $2)
             ON CONFLICT DO NOTHING",
        )
        .bind(user)
        .bind(now)
        .execute(&self.pool)
        .await?;
        sqlx::query(
            "INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $1, 'owner', $2)
             ON CONFLICT DO NOTHING",
        )
        .bind(user)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `user`'s role in `workspace`; `None` when they are not a member (or it does not
    /// exist: the caller cannot tell the two apart, and must not).
    #[tracing::instrument(skip(self))]
    pub async fn member_role(&self, workspace: &WorkspaceId, user: &UserId) -> CoreResult<Option<Role>> {
        let role: Option<String> =
            sqlx::query_scalar("SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2")
                .bind(workspace)
                .bind(user)
                .fetch_optional(&self.pool)
                .await?;
        role.as_deref().map(role_of).transpose()
    }

    /// The workspaces `user` belongs to: the personal one first, then by name.
    #[tracing::instrument(skip(self))]
    pub async fn list_workspaces(&self, user: &UserId) -> CoreResult<Vec<WorkspaceSummary>> {
        let rows = sqlx::query_as::<_, SummaryRow>(concat!(
            summary_columns!(),
            " WHERE m.user_id = $1 AND m.user_id = $2
             ORDER BY CASE WHEN w.personal_of = $1 THEN 0 ELSE 1 END, w.name, w.id"
        ))
        .bind(user)
        .bind(user)
        .bind(this_month())
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(|r| summary(r, user)).collect()
    }

    /// One workspace as `user` sees it, if they are a member.
    #[tracing::instrument(skip(self))]
    pub async fn workspace_for(&self, workspace: &WorkspaceId, user: &UserId) -> CoreResult<Option<WorkspaceSummary>> {
        let row = sqlx::query_as::<_, SummaryRow>(concat!(
            summary_columns!(),
            " WHERE m.workspace_id = $1 AND m.user_id = $2"
        ))
        .bind(workspace)
        .bind(user)
        .bind(this_month())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| summary(r, user)).transpose()
    }

    /// A new shared workspace, `owner` its first owner.
    #[tracing::instrument(skip(self))]
    pub async fn create_workspace(&self, owner: &UserId, name: &str) -> CoreResult<WorkspaceSummary> {
        let id = WorkspaceId::random();
        let now = now_unix();
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO workspaces (id, name, personal_of, created_at) VALUES ($1, $2, NULL, $3)")
            .bind(&id)
            .bind(name)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, 'owner', $3)",
        )
        .bind(&id)
        .bind(owner)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(WorkspaceSummary {
            id,
            name: name.to_owned(),
            role: Role::Owner,
            personal: false,
            monthly_spend_cap_cents: None,
            month_spend_usd: 0.0,
            place_memory: true,
        })
    }

    /// Renames a workspace. Returns whether it exists.
    #[tracing::instrument(skip(self))]
    pub async fn rename_workspace(&self, workspace: &WorkspaceId, name: &str) -> CoreResult<bool> {
        let done = sqlx::query("UPDATE workspaces SET name = $2 WHERE id = $1")
            .bind(workspace)
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes a shared workspace and everything in it (the foreign keys cascade: members,
    /// searches, tokens, webhooks, key, usage, plan rows). A personal workspace is never
    /// deleted this way. Returns whether one was deleted.
    #[tracing::instrument(skip(self))]
    pub async fn delete_workspace(&self, workspace: &WorkspaceId) -> CoreResult<bool> {
        let done = sqlx::query("DELETE FROM workspaces WHERE id = $1 AND personal_of IS NULL")
            .bind(workspace)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Adds `user` to the workspace with `role`; a member already there keeps their role.
    /// Returns whether they were added. (Invitations, when they land, add members through
    /// this; tests use it to make teams.)
    #[tracing::instrument(skip(self))]
    pub async fn add_member(&self, workspace: &WorkspaceId, user: &UserId, role: Role) -> CoreResult<bool> {
        let done = sqlx::query(
            "INSERT INTO workspace_members (workspace_id, user_id, role, joined_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT DO NOTHING",
        )
        .bind(workspace)
        .bind(user)
        .bind(role.as_str())
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The members of a workspace, owners first, then by email.
    #[tracing::instrument(skip(self))]
    pub async fn list_members(&self, workspace: &WorkspaceId) -> CoreResult<Vec<Member>> {
        let rows: Vec<(String, String, Option<String>, String, i64)> = sqlx::query_as(
            "SELECT u.id, u.email, u.name, m.role, m.joined_at FROM workspace_members m
             JOIN users u ON u.id = m.user_id
             WHERE m.workspace_id = $1
             ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, u.email, u.id",
        )
        .bind(workspace)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(id, email, name, role, joined_at)| {
                Ok(Member {
                    user_id: UserId::from(id),
                    email,
                    name,
                    role: role_of(&role)?,
                    joined_at,
                })
            })
            .collect()
    }

    /// Gives `member` the role `role`, unless that would leave the workspace without an
    /// owner. Who may ask for it (admin+, owners for owners) is the caller's rule.
    #[tracing::instrument(skip(self))]
    pub async fn set_member_role(
        &self,
        workspace: &WorkspaceId,
        member: &UserId,
        role: Role,
    ) -> CoreResult<MemberChange> {
        let mut tx = self.pool.begin().await?;
        self.lock_workspace(&mut tx, workspace).await?;
        let done = sqlx::query(concat!(
            "UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2
               AND ($3 = 'owner' OR ",
            keeps_an_owner!(),
            ")"
        ))
        .bind(workspace)
        .bind(member)
        .bind(role.as_str())
        .execute(&mut *tx)
        .await?;
        let change = if done.rows_affected() == 1 {
            MemberChange::Done
        } else {
            self.why_unchanged(&mut tx, workspace, member).await?
        };
        tx.commit().await?;
        Ok(change)
    }

    /// Removes `member` from the workspace (or lets them leave), unless they are its last
    /// owner. In the same transaction their API tokens made there are revoked; their
    /// unfinished searches there are answered for the caller to cancel.
    #[tracing::instrument(skip(self))]
    pub async fn remove_member(&self, workspace: &WorkspaceId, member: &UserId) -> CoreResult<Removal> {
        let mut tx = self.pool.begin().await?;
        self.lock_workspace(&mut tx, workspace).await?;
        let done = sqlx::query(concat!(
            "DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2 AND ",
            keeps_an_owner!()
        ))
        .bind(workspace)
        .bind(member)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            let change = self.why_unchanged(&mut tx, workspace, member).await?;
            tx.rollback().await?;
            return Ok(Removal {
                change,
                unfinished_searches: Vec::new(),
                tokens_revoked: 0,
            });
        }
        let tokens =
            sqlx::query("DELETE FROM personal_tokens WHERE COALESCE(workspace_id, user_id) = $1 AND user_id = $2")
                .bind(workspace)
                .bind(member)
                .execute(&mut *tx)
                .await?;
        let unfinished: Vec<String> = sqlx::query_scalar(
            "SELECT id FROM searches WHERE COALESCE(workspace_id, user_id) = $1 AND user_id = $2
               AND finished_at IS NULL",
        )
        .bind(workspace)
        .bind(member)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Removal {
            change: MemberChange::Done,
            unfinished_searches: unfinished.into_iter().map(SearchId::from).collect(),
            tokens_revoked: tokens.rows_affected(),
        })
    }

    /// Queues changes to one workspace's members behind each other (Postgres: the row
    /// lock; the guarded statement that follows the wait reads the committed result of
    /// the one before). SQLite: a write statement holds the one write lock from its read
    /// to its write, so the guard alone is enough.
    pub(super) async fn lock_workspace(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        workspace: &WorkspaceId,
    ) -> CoreResult<()> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT id FROM workspaces WHERE id = $1 FOR UPDATE")
                .bind(workspace)
                .fetch_optional(&mut **tx)
                .await?;
        }
        Ok(())
    }

    async fn why_unchanged(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        workspace: &WorkspaceId,
        member: &UserId,
    ) -> CoreResult<MemberChange> {
        let exists: Option<String> =
            sqlx::query_scalar("SELECT role FROM workspace_members WHERE workspace_id = $1 AND user_id = $2")
                .bind(workspace)
                .bind(member)
                .fetch_optional(&mut **tx)
                .await?;
        Ok(if exists.is_some() {
            MemberChange::LastOwner
        } else {
            MemberChange::NotMember
        })
    }
}

fn summary(row: SummaryRow, user: &UserId) -> CoreResult<WorkspaceSummary> {
    Ok(WorkspaceSummary {
        personal: row.personal_of.as_deref() == Some(user.as_str()),
        id: WorkspaceId::from(row.id),
        name: row.name,
        role: role_of(&row.role)?,
        monthly_spend_cap_cents: row.monthly_spend_cap_cents,
        month_spend_usd: row.month_spend_usd,
        place_memory: row.place_memory != 0,
    })
}
