//! Saved searches (issue #29): a workspace's named searches and their schedules, and the
//! conditional update with which a scheduler claims a due run (so that however many
//! workers look at once, each due run starts once).

use super::handle::Store;
use crate::{
    CoreError, CoreResult,
    delivery::DeliveryStatus,
    ids::{SavedSearchId, SearchId, UserId, WorkspaceId},
    saved_search::{Channel, MAX_PER_WORKSPACE},
    time::now_unix,
};

/// A saved search as stored.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct SavedSearchRecord {
    /// Its id.
    pub id: SavedSearchId,
    /// The workspace it belongs to (whose key, usage and history its runs use).
    pub workspace_id: WorkspaceId,
    /// Who made it (`None` once they are deleted).
    pub created_by: Option<UserId>,
    /// Its name.
    pub name: String,
    /// The search's body as `search_leads` takes it (JSON).
    pub request: String,
    /// The same search validated, in the queue's form (JSON of `ValidSearch`).
    pub search: String,
    /// The client label its runs carry, if any.
    pub client: Option<String>,
    /// Five-field cron expression, when scheduled.
    pub cron: Option<String>,
    /// IANA zone of `cron`.
    pub time_zone: Option<String>,
    /// 1: runs report only places the workspace has not seen.
    pub only_new: i64,
    /// Delivery choices (JSON of `saved_search::Delivery`).
    pub delivery: String,
    /// 1: the schedule is paused.
    pub paused: i64,
    /// When the next scheduled run is due (Unix seconds); `None` unscheduled or paused.
    pub next_run_at: Option<i64>,
    /// When the last run started.
    pub last_run_at: Option<i64>,
    /// The last run's search.
    pub last_search_id: Option<SearchId>,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds.
    pub updated_at: i64,
}

/// What a create or an update writes (everything but the ids and the run record).
#[derive(Debug, Clone)]
pub struct SavedSearchFields<'a> {
    /// Name, validated.
    pub name: &'a str,
    /// Request JSON.
    pub request: &'a str,
    /// Queue-form JSON.
    pub search: &'a str,
    /// Client label.
    pub client: Option<&'a str>,
    /// Cron expression and zone, when scheduled.
    pub schedule: Option<(&'a str, &'a str)>,
    /// Only new places.
    pub only_new: bool,
    /// Delivery JSON.
    pub delivery: &'a str,
    /// Paused.
    pub paused: bool,
    /// The next run, computed by the caller from the schedule (`None`: unscheduled or
    /// paused).
    pub next_run_at: Option<i64>,
}

macro_rules! saved_columns {
    () => {
        "id, workspace_id, created_by, name, request, search, client, cron, time_zone, only_new, delivery, paused, next_run_at, last_run_at, last_search_id, created_at, updated_at"
    };
}

impl Store {
    /// Records a new saved search of `workspace_id`, made by `user_id`. Refused beyond
    /// [`MAX_PER_WORKSPACE`], counted in the insert under the workspace's lock.
    #[tracing::instrument(skip(self, fields))]
    pub async fn create_saved_search(
        &self,
        workspace_id: &WorkspaceId,
        user_id: &UserId,
        fields: &SavedSearchFields<'_>,
    ) -> CoreResult<SavedSearchRecord> {
        let now = now_unix();
        let (cron, zone) = fields.schedule.unzip();
        let mut tx = self.pool.begin().await?;
        self.lock_workspace(&mut tx, workspace_id).await?;
        let created = sqlx::query_as::<_, SavedSearchRecord>(concat!(
            "INSERT INTO saved_searches (id, workspace_id, created_by, name, request, search, client, cron, time_zone, only_new, delivery, paused, next_run_at, created_at, updated_at)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14
             WHERE (SELECT COUNT(*) FROM saved_searches WHERE workspace_id = $2) < $15
             RETURNING ",
            saved_columns!()
        ))
        .bind(SavedSearchId::from(uuid::Uuid::now_v7().to_string()))
        .bind(workspace_id)
        .bind(user_id)
        .bind(fields.name)
        .bind(fields.request)
        .bind(fields.search)
        .bind(fields.client)
        .bind(cron)
        .bind(zone)
        .bind(i64::from(fields.only_new))
        .bind(fields.delivery)
        .bind(i64::from(fields.paused))
        .bind(fields.next_run_at)
        .bind(now)
        .bind(MAX_PER_WORKSPACE)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        created.ok_or_else(|| {
            CoreError::Invalid(format!(
                "This workspace has {MAX_PER_WORKSPACE} saved searches already. Delete one first."
            ))
        })
    }

    /// The workspace's saved searches, newest first.
    #[tracing::instrument(skip(self))]
    pub async fn list_saved_searches(&self, workspace_id: &WorkspaceId) -> CoreResult<Vec<SavedSearchRecord>> {
        Ok(sqlx::query_as::<_, SavedSearchRecord>(concat!(
            "SELECT ",
            saved_columns!(),
            " FROM saved_searches WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC"
        ))
        .bind(workspace_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The workspace's saved search `id`.
    #[tracing::instrument(skip(self))]
    pub async fn saved_search(
        &self,
        workspace_id: &WorkspaceId,
        id: &SavedSearchId,
    ) -> CoreResult<Option<SavedSearchRecord>> {
        Ok(sqlx::query_as::<_, SavedSearchRecord>(concat!(
            "SELECT ",
            saved_columns!(),
            " FROM saved_searches WHERE id = $1 AND workspace_id = $2"
        ))
        .bind(id)
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Replaces the workspace's saved search `id` with `fields` (its run record stays);
    /// `None` when it has no such saved search.
    #[tracing::instrument(skip(self, fields))]
    pub async fn update_saved_search(
        &self,
        workspace_id: &WorkspaceId,
        id: &SavedSearchId,
        fields: &SavedSearchFields<'_>,
    ) -> CoreResult<Option<SavedSearchRecord>> {
        let (cron, zone) = fields.schedule.unzip();
        Ok(sqlx::query_as::<_, SavedSearchRecord>(concat!(
            "UPDATE saved_searches SET name = $3, request = $4, search = $5, client = $6, cron = $7, time_zone = $8,
                 only_new = $9, delivery = $10, paused = $11, next_run_at = $12, updated_at = $13
             WHERE id = $1 AND workspace_id = $2
             RETURNING ",
            saved_columns!()
        ))
        .bind(id)
        .bind(workspace_id)
        .bind(fields.name)
        .bind(fields.request)
        .bind(fields.search)
        .bind(fields.client)
        .bind(cron)
        .bind(zone)
        .bind(i64::from(fields.only_new))
        .bind(fields.delivery)
        .bind(i64::from(fields.paused))
        .bind(fields.next_run_at)
        .bind(now_unix())
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Deletes the workspace's saved search `id` (its runs stay in the history); false
    /// when there was none.
    #[tracing::instrument(skip(self))]
    pub async fn delete_saved_search(&self, workspace_id: &WorkspaceId, id: &SavedSearchId) -> CoreResult<bool> {
        let done = sqlx::query("DELETE FROM saved_searches WHERE id = $1 AND workspace_id = $2")
            .bind(id)
            .bind(workspace_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Scheduled, unpaused saved searches of every workspace due at `now` (Unix seconds),
    /// the longest overdue first, at most `limit`. The scheduler's read; each is then
    /// claimed with [`Store::claim_saved_run`].
    #[tracing::instrument(skip(self))]
    pub async fn due_saved_searches(&self, now: i64, limit: i64) -> CoreResult<Vec<SavedSearchRecord>> {
        Ok(sqlx::query_as::<_, SavedSearchRecord>(concat!(
            "SELECT ",
            saved_columns!(),
            " FROM saved_searches WHERE next_run_at IS NOT NULL AND next_run_at <= $1 AND paused = 0
              ORDER BY next_run_at, id LIMIT $2"
        ))
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Seconds since the longest-overdue scheduled run was due at `now` (Unix seconds), 0
    /// when none is: the `leadgen_saved_search_overdue_seconds` gauge.
    #[tracing::instrument(skip(self))]
    pub async fn saved_search_overdue_secs(&self, now: i64) -> CoreResult<i64> {
        let oldest: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(next_run_at) FROM saved_searches WHERE next_run_at IS NOT NULL AND next_run_at <= $1 AND paused = 0",
        )
        .bind(now)
        .fetch_one(&self.pool)
        .await?;
        Ok(oldest.map_or(0, |due| (now - due).max(0)))
    }

    /// Whether any saved search is due at `now` (scheduled, not paused).
    #[tracing::instrument(skip(self))]
    pub async fn saved_search_due(&self, now: i64) -> CoreResult<bool> {
        let due: Option<i64> = sqlx::query_scalar(
            "SELECT next_run_at FROM saved_searches WHERE next_run_at IS NOT NULL AND next_run_at <= $1 AND paused = 0 LIMIT 1",
        )
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(due.is_some())
    }

    /// Claims the run of saved search `id` due at `due` (the `next_run_at` read), moving
    /// its next run to `next` (`None`: the expression never runs again). True for exactly
    /// one of any number of concurrent claims of the same due run: the update only matches
    /// while `next_run_at` still holds the value read, and both stores serialize writers
    /// of one row (Postgres re-checks the condition on the updated row; SQLite has one
    /// writer at a time).
    #[tracing::instrument(skip(self))]
    pub async fn claim_saved_run(&self, id: &SavedSearchId, due: i64, next: Option<i64>) -> CoreResult<bool> {
        let done = sqlx::query(
            "UPDATE saved_searches SET next_run_at = $3, last_run_at = $4
             WHERE id = $1 AND next_run_at = $2 AND paused = 0",
        )
        .bind(id)
        .bind(due)
        .bind(next)
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records that `search_id` is a run of saved search `id`: the search's history row
    /// links to it, and the saved search shows it as its last run.
    #[tracing::instrument(skip(self))]
    pub async fn record_saved_run(
        &self,
        workspace_id: &WorkspaceId,
        id: &SavedSearchId,
        search_id: &SearchId,
    ) -> CoreResult<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE searches SET saved_search_id = $3 WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2")
            .bind(search_id)
            .bind(workspace_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE saved_searches SET last_search_id = $3, last_run_at = $4 WHERE id = $1 AND workspace_id = $2",
        )
        .bind(id)
        .bind(workspace_id)
        .bind(search_id)
        .bind(now_unix())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The searches run for saved search `id`, newest first (ids), at most `limit`.
    #[tracing::instrument(skip(self))]
    pub async fn saved_search_runs(
        &self,
        workspace_id: &WorkspaceId,
        id: &SavedSearchId,
        limit: i64,
    ) -> CoreResult<Vec<SearchId>> {
        let rows: Vec<(SearchId,)> = sqlx::query_as(
            "SELECT id FROM searches WHERE saved_search_id = $1 AND COALESCE(workspace_id, user_id) = $2
             ORDER BY created_at DESC, id DESC LIMIT $3",
        )
        .bind(id)
        .bind(workspace_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }
}

/// How a saved search's last delivery by one channel went, as stored.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct SavedDeliveryRecord {
    /// The saved search.
    pub saved_search_id: SavedSearchId,
    /// `webhook`, `email` or `sheet` ([`Channel::as_str`]).
    pub channel: String,
    /// `pending`, `sent` or `failed` ([`DeliveryStatus::as_str`]).
    pub status: String,
    /// Where it went, or why not, in words for the user.
    pub detail: Option<String>,
    /// The run it delivered.
    pub search_id: Option<SearchId>,
    /// Unix seconds.
    pub at: i64,
}

impl Store {
    /// Records how the delivery of run `search_id` of saved search `id` by `channel`
    /// went, replacing that channel's last record (`search_id` `None`: the same run as
    /// recorded, for a retry's outcome). Nothing happens when the workspace has
    /// no such saved search (deleted meanwhile).
    #[tracing::instrument(skip(self, detail))]
    pub async fn record_saved_delivery(
        &self,
        workspace_id: &WorkspaceId,
        id: &SavedSearchId,
        search_id: Option<&SearchId>,
        channel: Channel,
        status: DeliveryStatus,
        detail: Option<&str>,
    ) -> CoreResult<()> {
        sqlx::query(
            "INSERT INTO saved_search_deliveries (saved_search_id, workspace_id, channel, status, detail, search_id, at)
             SELECT id, workspace_id, $3, $4, $5, $6, $7 FROM saved_searches WHERE id = $1 AND workspace_id = $2
             ON CONFLICT (saved_search_id, channel)
             DO UPDATE SET status = excluded.status, detail = excluded.detail, search_id = COALESCE(excluded.search_id, saved_search_deliveries.search_id), at = excluded.at",
        )
        .bind(id)
        .bind(workspace_id)
        .bind(channel.as_str())
        .bind(status.as_str())
        .bind(detail)
        .bind(search_id)
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The last delivery records of the workspace's saved searches (every channel of
    /// every one; a handful of rows each).
    #[tracing::instrument(skip(self))]
    pub async fn saved_deliveries(&self, workspace_id: &WorkspaceId) -> CoreResult<Vec<SavedDeliveryRecord>> {
        Ok(sqlx::query_as::<_, SavedDeliveryRecord>(
            "SELECT saved_search_id, channel, status, detail, search_id, at FROM saved_search_deliveries
             WHERE workspace_id = $1 ORDER BY saved_search_id, channel",
        )
        .bind(workspace_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The saved search that `search_id` is a run of, if any (read when the run ends, to
    /// deliver what it found new).
    #[tracing::instrument(skip(self))]
    pub async fn saved_search_of_run(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
    ) -> CoreResult<Option<SavedSearchRecord>> {
        Ok(sqlx::query_as::<_, SavedSearchRecord>(concat!(
            "SELECT ",
            saved_columns!(),
            " FROM saved_searches WHERE workspace_id = $2
               AND id = (SELECT saved_search_id FROM searches WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2)"
        ))
        .bind(search_id)
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?)
    }
}
