//! The audit log's rows: written by `audit::record`, read newest first in pages.

use super::handle::Store;
use crate::{
    CoreError, CoreResult,
    audit::{Action, AuditEvent},
    ids::{UserId, WorkspaceId},
    invitations::Person,
    time::now_unix,
};

/// One page of events.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditPage {
    /// Newest first.
    pub events: Vec<AuditEvent>,
    /// The cursor of the next (older) page; `None` on the last one.
    pub next_cursor: Option<String>,
}

#[derive(sqlx::FromRow)]
struct EventRow {
    id: String,
    at: i64,
    actor_id: Option<String>,
    actor_email: Option<String>,
    actor_name: Option<String>,
    action: String,
    target: String,
    details: String,
}

impl Store {
    /// Adds an event (see `audit::record`).
    #[tracing::instrument(skip(self, details))]
    pub async fn insert_audit_event(
        &self,
        workspace: &WorkspaceId,
        actor: Option<&UserId>,
        action: Action,
        target: &str,
        details: &serde_json::Value,
    ) -> CoreResult<()> {
        sqlx::query(
            "INSERT INTO audit_events (id, workspace_id, at, actor_id, action, target, details)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(workspace)
        .bind(now_unix())
        .bind(actor)
        .bind(action.as_str())
        .bind(target)
        .bind(details.to_string())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The workspace's events older than the event `before` (all when `None`), newest
    /// first, at most `limit`.
    #[tracing::instrument(skip(self))]
    pub async fn list_audit_events(
        &self,
        workspace: &WorkspaceId,
        before: Option<&str>,
        limit: u32,
    ) -> CoreResult<AuditPage> {
        let rows = sqlx::query_as::<_, EventRow>(
            "SELECT e.id, e.at, e.actor_id, u.email AS actor_email, u.name AS actor_name, e.action, e.target, e.details
             FROM audit_events e LEFT JOIN users u ON u.id = e.actor_id
             WHERE e.workspace_id = $1 AND e.id < $2
             ORDER BY e.id DESC LIMIT $3",
        )
        .bind(workspace)
        // No cursor: below "g", which every id (hex digits and dashes) sorts below; one
        // statement with a typed parameter, rather than a NULL Postgres cannot type.
        .bind(before.unwrap_or("g"))
        .bind(i64::from(limit) + 1)
        .fetch_all(&self.pool)
        .await?;
        let more = rows.len() > limit as usize;
        let events = rows
            .into_iter()
            .take(limit as usize)
            .map(|row| {
                Ok(AuditEvent {
                    action: crate::words::parse(&row.action)
                        .ok_or_else(|| CoreError::Internal(format!("unknown audit action {}", row.action)))?,
                    details: serde_json::from_str(&row.details)
                        .map_err(|e| CoreError::Internal(format!("audit details: {e}")))?,
                    actor: row.actor_id.map(|id| Person {
                        user_id: UserId::from(id),
                        email: row.actor_email,
                        name: row.actor_name,
                    }),
                    id: row.id,
                    at: row.at,
                    target: row.target,
                })
            })
            .collect::<CoreResult<Vec<_>>>()?;
        let next_cursor = more.then(|| events.last().map(|e| e.id.clone())).flatten();
        Ok(AuditPage { events, next_cursor })
    }

    /// Deletes events older than `days` days. Returns how many.
    #[tracing::instrument(skip(self))]
    pub async fn prune_audit_events(&self, days: u32) -> CoreResult<u64> {
        let done = sqlx::query("DELETE FROM audit_events WHERE at < $1")
            .bind(now_unix() - i64::from(days) * 86_400)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
