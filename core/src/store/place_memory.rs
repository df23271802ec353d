//! Place memory (issue #29): per workspace, the Google place ids its searches sent and
//! its exports held, with when. IDs only: no statement here takes or stores anything
//! else about a place. Every statement checks the workspace's `place_memory` setting
//! itself, so a workspace that turned it off records nothing, even from a search that
//! started before the change.

use std::collections::HashSet;

use super::handle::Store;
use crate::{CoreResult, ids::WorkspaceId, search::Exclude, time::now_unix};

/// What the memory holds about one place: when, never what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct PlaceMemoryEntry {
    /// When a search first sent it (or an export first held it), Unix seconds.
    pub first_seen_at: i64,
    /// When a search last sent it, Unix seconds.
    pub last_seen_at: i64,
    /// When an export last held it, Unix seconds; `None`: never exported.
    pub last_exported_at: Option<i64>,
}

impl Store {
    /// Whether the workspace keeps a place memory (on unless an admin turned it off).
    #[tracing::instrument(skip(self))]
    pub async fn place_memory_enabled(&self, workspace: &WorkspaceId) -> CoreResult<bool> {
        let on: Option<i64> = sqlx::query_scalar("SELECT place_memory FROM workspaces WHERE id = $1")
            .bind(workspace)
            .fetch_optional(&self.pool)
            .await?;
        Ok(on.unwrap_or(1) == 1)
    }

    /// Turns the workspace's place memory on or off. Turning it off keeps what is
    /// remembered (forgetting is its own, audited action) but records and excludes
    /// nothing until it is on again. Returns whether the workspace exists.
    #[tracing::instrument(skip(self))]
    pub async fn set_place_memory(&self, workspace: &WorkspaceId, on: bool) -> CoreResult<bool> {
        let done = sqlx::query("UPDATE workspaces SET place_memory = $2 WHERE id = $1")
            .bind(workspace)
            .bind(i64::from(on))
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records that a search sent these places (one emitted page's worth): new ids are
    /// first seen now, known ones last seen now. Nothing when the memory is off.
    #[tracing::instrument(skip(self, place_ids), fields(places = place_ids.len()))]
    pub async fn remember_places(&self, workspace: &WorkspaceId, place_ids: &[String]) -> CoreResult<()> {
        self.upsert_places(
            workspace,
            place_ids,
            "INSERT INTO place_memory (workspace_id, place_id, first_seen_at, last_seen_at, last_exported_at)
             SELECT $1, $2, $3, $3, NULL WHERE EXISTS
               (SELECT 1 FROM workspaces WHERE id = $1 AND place_memory = 1)
             ON CONFLICT (workspace_id, place_id) DO UPDATE SET last_seen_at = excluded.last_seen_at",
        )
        .await
    }

    /// Records that an export held these places: each is marked exported now (and seen,
    /// if the memory did not know it yet). Nothing when the memory is off. What the
    /// export code calls once it has produced a file.
    #[tracing::instrument(skip(self, place_ids), fields(places = place_ids.len()))]
    pub async fn mark_exported(&self, workspace: &WorkspaceId, place_ids: &[String]) -> CoreResult<()> {
        self.upsert_places(
            workspace,
            place_ids,
            "INSERT INTO place_memory (workspace_id, place_id, first_seen_at, last_seen_at, last_exported_at)
             SELECT $1, $2, $3, $3, $3 WHERE EXISTS
               (SELECT 1 FROM workspaces WHERE id = $1 AND place_memory = 1)
             ON CONFLICT (workspace_id, place_id) DO UPDATE SET last_exported_at = excluded.last_exported_at",
        )
        .await
    }

    /// One statement (`$1` workspace, `$2` place id, `$3` now) per id, in one
    /// transaction: a page holds at most 60.
    async fn upsert_places(
        &self,
        workspace: &WorkspaceId,
        place_ids: &[String],
        statement: &'static str,
    ) -> CoreResult<()> {
        if place_ids.is_empty() {
            return Ok(());
        }
        let now = now_unix();
        let mut tx = self.pool.begin().await?;
        for id in place_ids.iter().filter(|id| !id.is_empty()) {
            sqlx::query(statement)
                .bind(workspace)
                .bind(id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The place ids a search asking for `exclude` must not send: every remembered one
    /// (`seen`), the exported ones (`exported`), none (`none`, or the memory off).
    #[tracing::instrument(skip(self))]
    pub async fn excluded_places(&self, workspace: &WorkspaceId, exclude: Exclude) -> CoreResult<HashSet<String>> {
        if exclude == Exclude::None || !self.place_memory_enabled(workspace).await? {
            return Ok(HashSet::new());
        }
        let exported_only = i64::from(exclude == Exclude::Exported);
        let ids: Vec<String> = sqlx::query_scalar(
            "SELECT place_id FROM place_memory WHERE workspace_id = $1
               AND ($2 = 0 OR last_exported_at IS NOT NULL)",
        )
        .bind(workspace)
        .bind(exported_only)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids.into_iter().collect())
    }

    /// What the workspace remembers of one place, if anything.
    #[tracing::instrument(skip(self))]
    pub async fn place_memory_entry(
        &self,
        workspace: &WorkspaceId,
        place_id: &str,
    ) -> CoreResult<Option<PlaceMemoryEntry>> {
        Ok(sqlx::query_as::<_, PlaceMemoryEntry>(
            "SELECT first_seen_at, last_seen_at, last_exported_at FROM place_memory
             WHERE workspace_id = $1 AND place_id = $2",
        )
        .bind(workspace)
        .bind(place_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Forgets every place the workspace remembers; answers how many.
    #[tracing::instrument(skip(self))]
    pub async fn forget_place_memory(&self, workspace: &WorkspaceId) -> CoreResult<u64> {
        let done = sqlx::query("DELETE FROM place_memory WHERE workspace_id = $1")
            .bind(workspace)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
