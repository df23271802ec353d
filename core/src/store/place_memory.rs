//! Place memory (issue #29): per workspace, the Google place ids its searches sent and
//! its exports held, with when. IDs only: no statement here takes or stores anything
//! else about a place. Every statement checks the workspace's `place_memory` setting
//! itself, so a workspace that turned it off records nothing, even from a search that
//! started before the change.

use std::collections::HashSet;

use super::handle::Store;
use crate::{CoreResult, ids::WorkspaceId, search::Exclude, time::now_unix};

/// Most place ids one statement writes: SQLite binds at most 32,766 parameters, and a
/// thousand keeps a statement's plan and its transaction small.
const IDS_A_STATEMENT: usize = 1_000;

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

    /// Records that a search sent these places (a search's worth, or a retried one's all):
    /// new ids are first seen now, known ones last seen now. Nothing when the memory is off.
    #[tracing::instrument(skip(self, place_ids), fields(places = place_ids.len()))]
    pub async fn remember_places(&self, workspace: &WorkspaceId, place_ids: &[String]) -> CoreResult<()> {
        self.upsert_places(workspace, place_ids, "NULL", "last_seen_at = excluded.last_seen_at")
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
            "$2",
            "last_exported_at = excluded.last_exported_at",
        )
        .await
    }

    /// One statement for each [`IDS_A_STATEMENT`] of `place_ids` (`$1` workspace, `$2` now,
    /// the ids from `$3`), inserting each new id with `exported_at` (an SQL expression:
    /// `NULL` or `$2`) and applying `on_known` to the known ones; nothing while the
    /// workspace has its memory off. Statements rather than one an id: a search's pages
    /// were 60 round trips and most of Postgres' work per search (docs/benchmarks.md,
    /// queued searches). An id twice is written once (Postgres refuses to update a row
    /// twice in one statement).
    async fn upsert_places(
        &self,
        workspace: &WorkspaceId,
        place_ids: &[String],
        exported_at: &'static str,
        on_known: &'static str,
    ) -> CoreResult<()> {
        let mut seen = std::collections::HashSet::new();
        let ids: Vec<&String> = place_ids
            .iter()
            .filter(|id| !id.is_empty() && seen.insert(id.as_str()))
            .collect();
        // One time for every part of one call.
        let now = now_unix();
        for chunk in ids.chunks(IDS_A_STATEMENT) {
            let rows = (0..chunk.len())
                .map(|i| format!("(${})", i + 3))
                .collect::<Vec<_>>()
                .join(", ");
            // Both databases name a bare VALUES list's column `column1`.
            let statement = format!(
                "INSERT INTO place_memory (workspace_id, place_id, first_seen_at, last_seen_at, last_exported_at)
                 SELECT $1, ids.column1, $2, $2, {exported_at} FROM (VALUES {rows}) AS ids
                 WHERE EXISTS (SELECT 1 FROM workspaces WHERE id = $1 AND place_memory = 1)
                 ON CONFLICT (workspace_id, place_id) DO UPDATE SET {on_known}"
            );
            // Safe to run as built: only this module's two constant fragments and numbered
            // placeholders go into it; the ids are bound.
            let mut query = sqlx::query(sqlx::AssertSqlSafe(statement)).bind(workspace).bind(now);
            for id in chunk {
                query = query.bind(*id);
            }
            query.execute(&self.pool).await?;
        }
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
