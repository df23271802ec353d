//! Spend for agencies (issue #28 item 7): a workspace's monthly spend cap, what its
//! searches spent in a month, its client labels, and the month by member and by client.
//! Read from the searches' own history rows (what each was asked for and cost) and from
//! `lookup_costs`, what locating a place for the map and estimating a search cost
//! (issue #30): Google bills those too. No lead data.

use super::handle::Store;
use crate::{
    CoreResult,
    ids::{SearchId, UserId, WorkspaceId},
    spend::{ClientSpend, MemberSpend, SpendBreakdown, SpendTotals},
};

/// A workspace's month as rows `s` of one shape, its searches and its lookups together:
/// `user_id`, `client`, `client_key`, `counted` (1 for a search that counts: one given
/// back because it failed before Google answered counts for nothing, as in the monthly
/// allowance), `leads`, `cost_usd`, and `lookup_usd` (a lookup's cost, 0 for a search).
/// Binds `$1` the workspace and `$2` the month. A macro, so statements stay static text.
macro_rules! month_rows {
    () => {
        "(SELECT user_id, client, client_key,
                 CASE WHEN search_refunded = 0 THEN 1 ELSE 0 END AS counted,
                 COALESCE(leads_delivered, 0) AS leads,
                 CAST(COALESCE(cost_usd, 0) AS DOUBLE PRECISION) AS cost_usd,
                 CAST(0 AS DOUBLE PRECISION) AS lookup_usd
          FROM searches WHERE COALESCE(workspace_id, user_id) = $1 AND month = $2
          UNION ALL
          SELECT user_id, client, client_key, 0, 0, cost_usd, cost_usd
          FROM lookup_costs WHERE workspace_id = $1 AND month = $2) s"
    };
}

/// The figures every breakdown row sums, over [`month_rows`].
macro_rules! totals_columns {
    () => {
        "CAST(COALESCE(SUM(s.counted), 0) AS BIGINT) AS searches,
         CAST(COALESCE(SUM(s.leads), 0) AS BIGINT) AS leads,
         CAST(COALESCE(SUM(s.cost_usd), 0) AS DOUBLE PRECISION) AS spent_usd,
         CAST(COALESCE(SUM(s.lookup_usd), 0) AS DOUBLE PRECISION) AS lookup_usd"
    };
}

/// What a lookup outside a search paid Google for (`lookup_costs.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookupKind {
    /// Locating a typed place for the map (`locate_area`).
    Locate,
    /// Estimating a search (`estimate_search`): its locate request and its count.
    Estimate,
}

impl LookupKind {
    fn as_str(self) -> &'static str {
        match self {
            Self::Locate => "locate",
            Self::Estimate => "estimate",
        }
    }
}

#[derive(sqlx::FromRow)]
struct MemberRow {
    user_id: String,
    email: String,
    searches: i64,
    leads: i64,
    spent_usd: f64,
    lookup_usd: f64,
}

#[derive(sqlx::FromRow)]
struct ClientRow {
    client: Option<String>,
    searches: i64,
    leads: i64,
    spent_usd: f64,
    lookup_usd: f64,
}

impl Store {
    /// The workspace's monthly spend cap, in US cents (`None`: no cap).
    #[tracing::instrument(skip(self))]
    pub async fn spend_cap_cents(&self, workspace: &WorkspaceId) -> CoreResult<Option<i64>> {
        let cap: Option<Option<i64>> =
            sqlx::query_scalar("SELECT monthly_spend_cap_cents FROM workspaces WHERE id = $1")
                .bind(workspace)
                .fetch_optional(&self.pool)
                .await?;
        Ok(cap.flatten())
    }

    /// Sets (or, with `None`, clears) the workspace's monthly spend cap. Returns whether
    /// the workspace exists.
    #[tracing::instrument(skip(self))]
    pub async fn set_spend_cap_cents(&self, workspace: &WorkspaceId, cents: Option<i64>) -> CoreResult<bool> {
        let done = sqlx::query("UPDATE workspaces SET monthly_spend_cap_cents = $2 WHERE id = $1")
            .bind(workspace)
            .bind(cents)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// What the workspace's searches and lookups of `month` (`YYYY-MM`) cost its Google
    /// key, US dollars; `except` leaves one search out (the one now running, whose own cost
    /// the search counts itself). A search's cost is recorded when it ends, and after each
    /// page while it runs in a workspace with a spend cap (docs/decisions.md, "Spend for
    /// agencies"); a lookup's when it answers.
    #[tracing::instrument(skip(self))]
    pub async fn month_spend_usd(
        &self,
        workspace: &WorkspaceId,
        month: &str,
        except: Option<&SearchId>,
    ) -> CoreResult<f64> {
        let spent: f64 = sqlx::query_scalar(
            "SELECT CAST(
                 (SELECT COALESCE(SUM(cost_usd), 0) FROM searches
                  WHERE COALESCE(workspace_id, user_id) = $1 AND month = $2 AND id <> $3)
               + (SELECT COALESCE(SUM(cost_usd), 0) FROM lookup_costs
                  WHERE workspace_id = $1 AND month = $2)
             AS DOUBLE PRECISION)",
        )
        .bind(workspace)
        .bind(month)
        .bind(except.map_or("", |id| id.as_str()))
        .fetch_one(&self.pool)
        .await?;
        Ok(spent)
    }

    /// Records what a lookup outside a search (`kind`) cost the workspace's Google key in
    /// `month`, started by `user` (for an estimate, for `client`). Nothing is recorded for
    /// a lookup that cost nothing (answered from the cache).
    #[tracing::instrument(skip(self))]
    pub async fn record_lookup_cost(
        &self,
        workspace: &WorkspaceId,
        user: &UserId,
        month: &str,
        kind: LookupKind,
        client: Option<&crate::spend::ClientLabel>,
        cost_usd: f64,
    ) -> CoreResult<()> {
        if cost_usd.is_nan() || cost_usd <= 0.0 {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO lookup_costs (id, workspace_id, user_id, month, kind, client, client_key, cost_usd, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(workspace)
        .bind(user)
        .bind(month)
        .bind(kind.as_str())
        .bind(client.map(|c| c.label.as_str()))
        .bind(client.map(|c| c.key.as_str()))
        .bind(cost_usd)
        .bind(crate::time::now_unix())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records the client a search was run for (its history row).
    #[tracing::instrument(skip(self))]
    pub async fn label_search_client(
        &self,
        workspace: &WorkspaceId,
        search_id: &SearchId,
        client: &crate::spend::ClientLabel,
    ) -> CoreResult<()> {
        sqlx::query(
            "UPDATE searches SET client = $3, client_key = $4 WHERE id = $1 AND COALESCE(workspace_id, user_id) = $2",
        )
        .bind(search_id)
        .bind(workspace)
        .bind(&client.label)
        .bind(&client.key)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The client labels the workspace's searches used, one per client (labels that
    /// differ only in case are one; the first typed names it), by name.
    #[tracing::instrument(skip(self))]
    pub async fn workspace_clients(&self, workspace: &WorkspaceId) -> CoreResult<Vec<String>> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT s.client_key, MIN(s.client) FROM searches s
             WHERE COALESCE(s.workspace_id, s.user_id) = $1 AND s.client_key IS NOT NULL
             GROUP BY s.client_key
             ORDER BY s.client_key",
        )
        .bind(workspace)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|(_, label)| label).collect())
    }

    /// The workspace's searches and lookups of `month` by member and by client:
    /// searches, leads and Google cost; the most expensive first. A lookup is its
    /// member's, and an estimate its client's (or no client's).
    #[tracing::instrument(skip(self))]
    pub async fn spend_breakdown(&self, workspace: &WorkspaceId, month: &str) -> CoreResult<SpendBreakdown> {
        let members = sqlx::query_as::<_, MemberRow>(concat!(
            "SELECT s.user_id, u.email, ",
            totals_columns!(),
            " FROM ",
            month_rows!(),
            " JOIN users u ON u.id = s.user_id
             GROUP BY s.user_id, u.email
             ORDER BY spent_usd DESC, u.email"
        ))
        .bind(workspace)
        .bind(month)
        .fetch_all(&self.pool)
        .await?;
        let clients = sqlx::query_as::<_, ClientRow>(concat!(
            "SELECT MIN(s.client) AS client, ",
            totals_columns!(),
            " FROM ",
            month_rows!(),
            " GROUP BY s.client_key
             ORDER BY spent_usd DESC, MIN(s.client_key)"
        ))
        .bind(workspace)
        .bind(month)
        .fetch_all(&self.pool)
        .await?;
        Ok(SpendBreakdown {
            members: members
                .into_iter()
                .map(|r| MemberSpend {
                    user_id: UserId::from(r.user_id),
                    email: r.email,
                    totals: SpendTotals {
                        searches: r.searches,
                        leads: r.leads,
                        cost_usd: r.spent_usd,
                        lookups_usd: r.lookup_usd,
                    },
                })
                .collect(),
            clients: clients
                .into_iter()
                .map(|r| ClientSpend {
                    client: r.client,
                    totals: SpendTotals {
                        searches: r.searches,
                        leads: r.leads,
                        cost_usd: r.spent_usd,
                        lookups_usd: r.lookup_usd,
                    },
                })
                .collect(),
        })
    }
}
