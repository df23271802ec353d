//! Areas' plans remembered (issue #30 item 2): per workspace, what a finished full search
//! learned about its area (our rectangles and how many places Google listed in each; no
//! place id, no place's position), found by digests of its query and its area. See
//! `search::plan_memory`.

use futures_util::{FutureExt, future::BoxFuture};

use super::handle::Store;
use crate::{
    CoreResult,
    ids::WorkspaceId,
    search::{PlanKey, PlanMemory, tiling::Remembered},
    time::now_unix,
};

/// Seconds in a day.
const DAY_SECS: i64 = 24 * 3600;

impl Store {
    /// The plan the workspace remembers under `key`, if it was learned less than
    /// `max_age_days` ago. A row that cannot be decoded (written by another version, or
    /// damaged) is none, with a log line: the search then plans afresh and replaces it.
    #[tracing::instrument(skip(self))]
    pub async fn area_plan(
        &self,
        workspace: &WorkspaceId,
        key: &PlanKey,
        max_age_days: u32,
    ) -> CoreResult<Option<Remembered>> {
        let row: Option<String> = sqlx::query_scalar(
            "SELECT plan FROM area_plans
             WHERE workspace_id = $1 AND query_digest = $2 AND area_digest = $3 AND planned_at > $4",
        )
        .bind(workspace)
        .bind(&key.query)
        .bind(&key.area)
        .bind(now_unix() - i64::from(max_age_days) * DAY_SECS)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.and_then(|plan| {
            serde_json::from_str(&plan)
                .inspect_err(
                    |error| tracing::warn!(%error, "a remembered area plan could not be read; planning afresh"),
                )
                .ok()
        }))
    }

    /// Remembers `plan` under `key` for the workspace, learned now (replacing the one
    /// there), and forgets the workspace's plans older than `max_age_days`, which no search
    /// reads any more.
    #[tracing::instrument(skip(self, plan), fields(fetches = plan.fetches.len()))]
    pub async fn remember_area_plan(
        &self,
        workspace: &WorkspaceId,
        key: &PlanKey,
        plan: &Remembered,
        max_age_days: u32,
    ) -> CoreResult<()> {
        let now = now_unix();
        // A plain struct of rectangles and numbers always serialises.
        let encoded = serde_json::to_string(plan).unwrap_or_default();
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM area_plans WHERE workspace_id = $1 AND planned_at <= $2")
            .bind(workspace)
            .bind(now - i64::from(max_age_days) * DAY_SECS)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO area_plans (workspace_id, query_digest, area_digest, plan, planned_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (workspace_id, query_digest, area_digest)
             DO UPDATE SET plan = excluded.plan, planned_at = excluded.planned_at",
        )
        .bind(workspace)
        .bind(&key.query)
        .bind(&key.area)
        .bind(encoded)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Forgets every workspace's plans older than `max_age_days` (all of them at 0, the
    /// memory turned off): a workspace that stopped searching keeps none past the window
    /// Google lets such content be kept. Returns how many were forgotten.
    #[tracing::instrument(skip(self))]
    pub async fn prune_area_plans(&self, max_age_days: u32) -> CoreResult<u64> {
        let done = sqlx::query("DELETE FROM area_plans WHERE planned_at <= $1")
            .bind(now_unix() - i64::from(max_age_days) * DAY_SECS)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// How many plans the workspace remembers (fresh or not).
    #[tracing::instrument(skip(self))]
    pub async fn area_plan_count(&self, workspace: &WorkspaceId) -> CoreResult<i64> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM area_plans WHERE workspace_id = $1")
                .bind(workspace)
                .fetch_one(&self.pool)
                .await?,
        )
    }
}

/// One workspace's remembered plans, as its searches read and write them: plans younger
/// than `max_age_days` (`LEADGEN_PLAN_MEMORY_DAYS`, at least 1; 0 turns the memory off
/// and no `WorkspacePlans` is made).
pub struct WorkspacePlans<'a> {
    pub store: &'a Store,
    pub workspace: &'a WorkspaceId,
    pub max_age_days: u32,
}

impl<'a> WorkspacePlans<'a> {
    /// The memory of `workspace`, or `None` when `max_age_days` is 0 (off).
    pub fn new(store: &'a Store, workspace: &'a WorkspaceId, max_age_days: u32) -> Option<Self> {
        (max_age_days > 0).then_some(Self {
            store,
            workspace,
            max_age_days,
        })
    }
}

impl PlanMemory for WorkspacePlans<'_> {
    fn recall<'a>(&'a self, key: &'a PlanKey) -> BoxFuture<'a, Option<Remembered>> {
        async move {
            // A memory that cannot be read only costs the probes it would have saved.
            self.store
                .area_plan(self.workspace, key, self.max_age_days)
                .await
                .inspect_err(|error| tracing::warn!(%error, "could not read the area plans"))
                .ok()
                .flatten()
        }
        .boxed()
    }

    fn remember<'a>(&'a self, key: &'a PlanKey, plan: &'a Remembered) -> BoxFuture<'a, ()> {
        async move {
            if let Err(error) = self
                .store
                .remember_area_plan(self.workspace, key, plan, self.max_age_days)
                .await
            {
                tracing::warn!(%error, "could not remember an area plan");
            }
        }
        .boxed()
    }
}
