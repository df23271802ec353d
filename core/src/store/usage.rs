//! Usage counters and search records.
//!
//! A grant is one upsert whose update is conditional: it takes what is left up to the limit
//! and records how much it took (`last_grant`), reading the row as it was before the update
//! (as both Postgres and SQLite evaluate `SET`; Postgres' `ON CONFLICT DO UPDATE` locks the
//! row and reads its latest version). Concurrent grants therefore never exceed a limit.

use super::handle::Store;
use crate::ids::{SearchId, UserId, WorkspaceId};
use crate::{CoreResult, time::now_unix};

/// One search's record.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SearchRecord {
    /// Search id.
    pub id: SearchId,
    /// Who ran it.
    pub user_id: UserId,
    /// The workspace it ran in (whose key, usage and history).
    pub workspace_id: WorkspaceId,
    /// Catalogue value searched.
    pub business_type: String,
    /// queued, complete, failed or cancelled.
    pub status: String,
    /// Leads reserved for it.
    pub lead_budget: i64,
    /// Leads it delivered, once finished.
    pub leads_delivered: Option<i64>,
    /// Day (UTC) its leads were reserved against.
    pub day: String,
    /// Month (UTC) it counts in.
    pub month: String,
}

/// Gives back `$4` units of a counter, never below zero.
const RELEASE_SQL: &str = "UPDATE workspace_usage SET used = CASE WHEN used < $4 THEN 0 ELSE used - $4 END
     WHERE workspace_id = $1 AND period = $2 AND metric = $3";
/// Adds `$4` units to a counter, creating it if needed.
const ADD_SQL: &str =
    "INSERT INTO workspace_usage (workspace_id, period, metric, used, last_grant) VALUES ($1, $2, $3, $4, 0)
     ON CONFLICT (workspace_id, period, metric) DO UPDATE SET used = workspace_usage.used + excluded.used";

impl Store {
    /// Takes up to `wanted` units of `metric` in `period`, never passing `limit`. Returns
    /// how many were granted (0 when the limit is reached).
    #[tracing::instrument(skip(self))]
    pub async fn grant_usage(
        &self,
        workspace_id: &WorkspaceId,
        period: &str,
        metric: &str,
        wanted: i64,
        limit: i64,
    ) -> CoreResult<i64> {
        // One statement (two made a search's reservation four round trips): a new counter
        // starts at what is granted; an existing one grows only while under the limit.
        let granted: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO workspace_usage (workspace_id, period, metric, used, last_grant)
             VALUES ($1, $2, $3,
                     CASE WHEN $5 <= 0 THEN 0 WHEN $5 < $4 THEN $5 ELSE $4 END,
                     CASE WHEN $5 <= 0 THEN 0 WHEN $5 < $4 THEN $5 ELSE $4 END)
             ON CONFLICT (workspace_id, period, metric) DO UPDATE SET
                 last_grant = CASE WHEN $5 - workspace_usage.used < $4 THEN $5 - workspace_usage.used ELSE $4 END,
                 used = workspace_usage.used
                     + CASE WHEN $5 - workspace_usage.used < $4 THEN $5 - workspace_usage.used ELSE $4 END
             WHERE workspace_usage.used < $5
             RETURNING last_grant",
        )
        .bind(workspace_id)
        .bind(period)
        .bind(metric)
        .bind(wanted)
        .bind(limit)
        .fetch_optional(&self.pool)
        .await?;
        Ok(granted.map_or(0, |(g,)| g))
    }

    /// Gives back `amount` units (never below zero).
    #[tracing::instrument(skip(self))]
    pub async fn release_usage(
        &self,
        workspace_id: &WorkspaceId,
        period: &str,
        metric: &str,
        amount: i64,
    ) -> CoreResult<()> {
        sqlx::query(RELEASE_SQL)
            .bind(workspace_id)
            .bind(period)
            .bind(metric)
            .bind(amount)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Adds `amount` units without a limit (delivered leads this month).
    #[tracing::instrument(skip(self))]
    pub async fn add_usage(
        &self,
        workspace_id: &WorkspaceId,
        period: &str,
        metric: &str,
        amount: i64,
    ) -> CoreResult<()> {
        sqlx::query(ADD_SQL)
            .bind(workspace_id)
            .bind(period)
            .bind(metric)
            .bind(amount)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Units of `metric` used in `period`.
    #[tracing::instrument(skip(self))]
    pub async fn usage_used(&self, workspace_id: &WorkspaceId, period: &str, metric: &str) -> CoreResult<i64> {
        let row: Option<(i64,)> =
            sqlx::query_as("SELECT used FROM workspace_usage WHERE workspace_id = $1 AND period = $2 AND metric = $3")
                .bind(workspace_id)
                .bind(period)
                .bind(metric)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map_or(0, |(u,)| u))
    }

    /// Units used of each `(period, metric)` counter, in the order asked, in one statement
    /// (the usage report reads three after every search); 0 for a counter never written.
    #[tracing::instrument(skip(self))]
    pub async fn usage_counters(&self, workspace_id: &WorkspaceId, counters: &[(&str, &str)]) -> CoreResult<Vec<i64>> {
        if counters.is_empty() {
            return Ok(Vec::new());
        }
        // Placeholders only: `$2, $3` for the first counter's period and metric, and on.
        let wanted: Vec<String> = (0..counters.len())
            .map(|i| format!("(period = ${} AND metric = ${})", 2 * i + 2, 2 * i + 3))
            .collect();
        let sql = format!(
            "SELECT period, metric, used FROM workspace_usage WHERE workspace_id = $1 AND ({})",
            wanted.join(" OR ")
        );
        let mut query = sqlx::query_as::<_, (String, String, i64)>(sqlx::AssertSqlSafe(sql)).bind(workspace_id);
        for (period, metric) in counters {
            query = query.bind(*period).bind(*metric);
        }
        let rows = query.fetch_all(&self.pool).await?;
        Ok(counters
            .iter()
            .map(|(period, metric)| {
                rows.iter()
                    .find(|(p, m, _)| p == period && m == metric)
                    .map_or(0, |(_, _, used)| *used)
            })
            .collect())
    }

    /// Records a queued search.
    #[tracing::instrument(skip_all, fields(search_id = %record.id))]
    pub async fn create_search(&self, record: &SearchRecord) -> CoreResult<()> {
        sqlx::query(
            "INSERT INTO searches (id, user_id, workspace_id, business_type, status, lead_budget, leads_delivered, day, month, created_at, finished_at)
             VALUES ($1, $2, $9, $3, $4, $5, NULL, $6, $7, $8, NULL)",
        )
        .bind(&record.id)
        .bind(&record.user_id)
        .bind(&record.business_type)
        .bind(&record.status)
        .bind(record.lead_budget)
        .bind(&record.day)
        .bind(&record.month)
        .bind(now_unix())
        .bind(&record.workspace_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The workspace's search record.
    #[tracing::instrument(skip(self))]
    pub async fn search_record(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
    ) -> CoreResult<Option<SearchRecord>> {
        Ok(sqlx::query_as::<_, SearchRecord>(
            "SELECT id, user_id, COALESCE(workspace_id, user_id) AS workspace_id, business_type, status, lead_budget, leads_delivered, day, month
             FROM searches WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2",
        )
        .bind(search_id)
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Marks a queued search as running and says how this run relates to earlier ones:
    /// the first run, a retry of one that did not finish (its worker died or stopped), or
    /// a stale copy of a search already finished (nothing left to do).
    #[tracing::instrument(skip(self))]
    pub async fn start_search(&self, workspace_id: &WorkspaceId, search_id: &SearchId) -> CoreResult<SearchRun> {
        let done =
            sqlx::query("UPDATE searches SET status = 'running' WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2 AND status = 'queued'")
                .bind(search_id)
                .bind(workspace_id)
                .execute(&self.pool)
                .await?;
        if done.rows_affected() == 1 {
            return Ok(SearchRun::First);
        }
        let finished: Option<Option<i64>> = sqlx::query_scalar(
            "SELECT finished_at FROM searches WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2",
        )
        .bind(search_id)
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match finished {
            Some(Some(_)) => SearchRun::AlreadyFinished,
            _ => SearchRun::Retry,
        })
    }

    /// Finishes a search once: records the outcome, gives back the unused lead budget and
    /// counts delivered leads in the month. A second call (a retried job) changes nothing
    /// and returns false.
    #[tracing::instrument(skip(self))]
    pub async fn settle_search(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
        status: crate::search::SearchStatus,
        delivered: i64,
    ) -> CoreResult<bool> {
        debug_assert!(status.is_final(), "settling needs a final status");
        let mut tx = self.pool.begin().await?;
        let row: Option<(i64, String, String)> = sqlx::query_as(
            "UPDATE searches SET status = $3, leads_delivered = $4, finished_at = $5
             WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2 AND finished_at IS NULL
             RETURNING lead_budget, day, month",
        )
        .bind(search_id)
        .bind(workspace_id)
        .bind(status.as_str())
        .bind(delivered)
        .bind(now_unix())
        .fetch_optional(&mut *tx)
        .await?;
        let Some((budget, day, month)) = row else {
            tx.rollback().await?;
            return Ok(false);
        };
        // Writes that would change nothing are not made (a search that used its whole
        // budget gives nothing back; one that sent nothing adds nothing).
        let unused = (budget - delivered).max(0);
        if unused > 0 {
            sqlx::query(RELEASE_SQL)
                .bind(workspace_id)
                .bind(&day)
                .bind("leads")
                .bind(unused)
                .execute(&mut *tx)
                .await?;
        }
        if delivered > 0 {
            sqlx::query(ADD_SQL)
                .bind(workspace_id)
                .bind(&month)
                .bind("leads")
                .bind(delivered)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}

impl Store {
    /// Grants a running search up to `wanted` more leads from its day's counter (never
    /// past `daily_cap`; uncapped when `None`) and adds them to its budget, so settling
    /// gives back what it did not deliver. Returns how many were granted.
    #[tracing::instrument(skip(self))]
    pub async fn extend_search_budget(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
        wanted: i64,
        daily_cap: Option<i64>,
    ) -> CoreResult<i64> {
        let day: Option<(String,)> = sqlx::query_as(
            "SELECT day FROM searches WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2 AND finished_at IS NULL",
        )
        .bind(search_id)
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?;
        let Some((day,)) = day else { return Ok(0) };
        let granted = match daily_cap {
            Some(cap) => self.grant_usage(workspace_id, &day, "leads", wanted, cap).await?,
            None => {
                self.add_usage(workspace_id, &day, "leads", wanted).await?;
                wanted
            }
        };
        if granted > 0 {
            sqlx::query("UPDATE searches SET lead_budget = lead_budget + $3 WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2")
                .bind(search_id)
                .bind(workspace_id)
                .bind(granted)
                .execute(&self.pool)
                .await?;
        }
        Ok(granted)
    }

    /// Records a search's coverage and what it cost the user's key (metadata only).
    #[tracing::instrument(skip(self))]
    pub async fn record_search_cost(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
        coverage: &str,
        billable_requests: i64,
        cost_usd: f64,
    ) -> CoreResult<()> {
        sqlx::query(
            "UPDATE searches SET coverage = $3, billable_requests = $4, cost_usd = $5 WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2",
        )
        .bind(search_id)
        .bind(workspace_id)
        .bind(coverage)
        .bind(billable_requests)
        .bind(cost_usd)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

/// How a search job's run relates to earlier runs of the same search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchRun {
    /// Nobody ran it before.
    First,
    /// A run started and did not finish: run it again.
    Retry,
    /// It already finished: skip it.
    AlreadyFinished,
}
