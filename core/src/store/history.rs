//! Search history (issue #13): each search's metadata as the user sees it in their
//! history. What was asked (type, location, options), how it went (status, counts, cost,
//! times, error) and nothing of its leads.

use super::handle::Store;
use crate::{
    CoreResult,
    ids::{SearchId, WorkspaceId},
};

/// One search as the history lists it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct SearchSummary {
    /// Search id.
    pub id: SearchId,
    /// Catalogue value.
    pub business_type: String,
    /// Location as typed (or an explicit area's label).
    pub location: String,
    /// `quick` or `full`.
    pub coverage: String,
    /// The request's options (filters, budget, area) as JSON.
    pub options: String,
    /// 1 when it keeps running without a listener.
    pub background: i64,
    /// queued, running, complete, failed or cancelled.
    pub status: String,
    /// Leads sent, once finished.
    pub leads_delivered: Option<i64>,
    /// Requests Google billed, once finished.
    pub billable_requests: Option<i64>,
    /// Dollars at list prices, once finished.
    pub cost_usd: Option<f64>,
    /// Why it failed.
    pub error_message: Option<String>,
    /// Why it ended before covering everything (`max_cost`, `allowance`).
    pub stop_reason: Option<String>,
    /// Its automatic delivery, if one was asked for: `email` or `sheets`.
    pub delivery_kind: Option<String>,
    /// `pending`, `sent` or `failed`.
    pub delivery_status: Option<String>,
    /// Why it failed, or where it went.
    pub delivery_detail: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds, once finished.
    pub finished_at: Option<i64>,
    /// The client it was run for, as typed.
    pub client: Option<String>,
    /// Who started it.
    pub started_by: String,
    /// Their sign-in email.
    pub started_by_email: Option<String>,
    /// The saved search it was a run of, if any.
    pub saved_search_id: Option<crate::ids::SavedSearchId>,
    /// With an `exclude`: the matching places it found, those left out included.
    pub found_count: Option<i64>,
    /// With an `exclude`: the places new to the workspace's memory (the ones sent).
    pub new_count: Option<i64>,
}

/// What [`Store::record_search_outcome`] keeps of a finished search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchOutcomeRecord<'a> {
    /// Why it ended before covering everything (`max_cost`, `allowance`).
    pub stop_reason: Option<&'a str>,
    /// With an `exclude`: the matching places found, those left out included.
    pub found_count: Option<u32>,
    /// With an `exclude`: the places new to the workspace's memory (the ones sent).
    pub new_count: Option<u32>,
}

/// Which searches a history page lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryQuery {
    /// Only this status.
    pub status: Option<crate::search::SearchStatus>,
    /// Only this catalogue value.
    pub business_type: Option<String>,
    /// Only searches for this client (its case-folded key, `spend::fold`).
    pub client_key: Option<String>,
    /// Only searches older than this `(created_at, id)` (the previous page's last).
    pub before: Option<(i64, String)>,
    /// At most this many.
    pub limit: i64,
}

/// The columns of [`SearchSummary`] and the tables they come from (a macro, so statements
/// stay static text): a search `s` and who started it, `u`.
macro_rules! summary_columns {
    () => {
        "s.id, s.business_type, s.location, s.coverage, s.options, s.background, s.status, \
         s.leads_delivered, s.billable_requests, s.cost_usd, s.error_message, s.stop_reason, \
         s.delivery_kind, s.delivery_status, s.delivery_detail, s.created_at, s.finished_at, \
         s.client, s.user_id AS started_by, u.email AS started_by_email, s.saved_search_id, \
         s.found_count, s.new_count \
         FROM searches s LEFT JOIN users u ON u.id = s.user_id"
    };
}

impl Store {
    /// Records what a new search asks for (its history entry), the client it is run for
    /// included, in one statement.
    #[tracing::instrument(skip(self, search))]
    pub async fn describe_search(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
        search: &crate::search::ValidSearch,
        background: bool,
        client: Option<&crate::spend::ClientLabel>,
    ) -> CoreResult<()> {
        sqlx::query(
            "UPDATE searches SET location = $3, coverage = $4, options = $5, background = $6, client = $7, client_key = $8
             WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2",
        )
        .bind(search_id)
        .bind(workspace_id)
        .bind(search.location())
        .bind(search.coverage().as_str())
        .bind(search.options_json())
        .bind(i64::from(background))
        .bind(client.map(|c| c.label.as_str()))
        .bind(client.map(|c| c.key.as_str()))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records why a search failed (the message its stream ended with).
    #[tracing::instrument(skip(self))]
    pub async fn record_search_error(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
        message: &str,
    ) -> CoreResult<()> {
        sqlx::query("UPDATE searches SET error_message = $3 WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2")
            .bind(search_id)
            .bind(workspace_id)
            .bind(message)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Records how a finished search went beyond its status: why it ended early
    /// (`max_cost`, `allowance`), and for a search with an `exclude` how many matching
    /// places it found and how many were new. One statement; unset parts stay NULL.
    #[tracing::instrument(skip(self))]
    pub async fn record_search_outcome(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
        outcome: &SearchOutcomeRecord<'_>,
    ) -> CoreResult<()> {
        sqlx::query(
            "UPDATE searches SET stop_reason = $3, found_count = $4, new_count = $5
             WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2",
        )
        .bind(search_id)
        .bind(workspace_id)
        .bind(outcome.stop_reason)
        .bind(outcome.found_count.map(i64::from))
        .bind(outcome.new_count.map(i64::from))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Gives back the monthly search of a search that failed before Google answered
    /// anything (a refused key): it cost the user nothing, so it counts for nothing. Once
    /// per search; true when it was given back now.
    #[tracing::instrument(skip(self))]
    pub async fn refund_unanswered_search(&self, workspace_id: &WorkspaceId, search_id: &SearchId) -> CoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let month: Option<(String,)> = sqlx::query_as(
            "UPDATE searches SET search_refunded = 1
             WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2 AND status = 'failed' AND search_refunded = 0
               AND COALESCE(leads_delivered, 0) = 0
             RETURNING month",
        )
        .bind(search_id)
        .bind(workspace_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((month,)) = month else {
            tx.rollback().await?;
            return Ok(false);
        };
        sqlx::query(
            "UPDATE workspace_usage SET used = CASE WHEN used < 1 THEN 0 ELSE used - 1 END
             WHERE workspace_id = $1 AND period = $2 AND metric = 'searches'",
        )
        .bind(workspace_id)
        .bind(&month)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// One of the user's searches.
    #[tracing::instrument(skip(self))]
    pub async fn search_summary(
        &self,
        workspace_id: &WorkspaceId,
        search_id: &SearchId,
    ) -> CoreResult<Option<SearchSummary>> {
        Ok(sqlx::query_as::<_, SearchSummary>(concat!(
            "SELECT ",
            summary_columns!(),
            " WHERE s.id = $1 AND COALESCE(s.workspace_id, s.user_id) = $2"
        ))
        .bind(search_id)
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// The user's searches, newest first, filtered and paged by `query`.
    #[tracing::instrument(skip(self))]
    pub async fn search_history(
        &self,
        workspace_id: &WorkspaceId,
        query: &HistoryQuery,
    ) -> CoreResult<Vec<SearchSummary>> {
        // One statement for every combination: an unset filter is bound as '' (matches
        // all), the first page as "before the end of time".
        let (before_at, before_id) = query.before.clone().unwrap_or((i64::MAX, String::new()));
        Ok(sqlx::query_as::<_, SearchSummary>(concat!(
            "SELECT ",
            summary_columns!(),
            " WHERE COALESCE(s.workspace_id, s.user_id) = $1
               AND ($2 = '' OR s.status = $2)
               AND ($3 = '' OR s.business_type = $3)
               AND (s.created_at < $4 OR (s.created_at = $4 AND s.id < $5))
               AND ($7 = '' OR s.client_key = $7)
             ORDER BY s.created_at DESC, s.id DESC
             LIMIT $6"
        ))
        .bind(workspace_id)
        .bind(query.status.map_or("", |s| s.as_str()))
        .bind(query.business_type.clone().unwrap_or_default())
        .bind(before_at)
        .bind(before_id)
        .bind(query.limit)
        .bind(query.client_key.clone().unwrap_or_default())
        .fetch_all(&self.pool)
        .await?)
    }
}
