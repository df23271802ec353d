//! Areas' plans remembered (issue #30 item 2): per workspace, what a finished full search
//! learned about its area (our rectangles and how many places Google listed in each; no
//! place id, no place's position), found by digests of its query and its area; and, for
//! a few minutes, what an estimate's probes answered (place ids), for the search that
//! follows it. See `search::plan_memory`.

use std::time::Duration;

use futures_util::{FutureExt, future::BoxFuture};

use super::handle::Store;
use crate::{
    CoreResult,
    ids::WorkspaceId,
    search::{PROBES_KEPT, PlanKey, PlanMemory, ProbeAnswers, tiling::Remembered},
    time::now_unix,
};

/// Seconds in a day.
const DAY_SECS: i64 = 24 * 3600;

/// Whole seconds of `age`, as the store's clock counts them.
fn seconds(age: Duration) -> i64 {
    i64::try_from(age.as_secs()).unwrap_or(i64::MAX)
}

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

    /// Takes the probe answers an estimate of the workspace left under `key` less than
    /// `max_age` ago ([`PROBES_KEPT`] for a search): the row is gone afterwards, so the
    /// estimate's probes that go on ([`add_estimate_probes`](Self::add_estimate_probes))
    /// find nothing to add to and stop. A row that cannot be decoded is none, with a log
    /// line.
    #[tracing::instrument(skip(self))]
    pub async fn take_estimate_probes(
        &self,
        workspace: &WorkspaceId,
        key: &PlanKey,
        max_age: Duration,
    ) -> CoreResult<Option<ProbeAnswers>> {
        let row: Option<String> = sqlx::query_scalar(
            "DELETE FROM estimate_probes
             WHERE workspace_id = $1 AND query_digest = $2 AND area_digest = $3 AND probed_at > $4
             RETURNING answers",
        )
        .bind(workspace)
        .bind(&key.query)
        .bind(&key.area)
        .bind(now_unix().saturating_sub(seconds(max_age)))
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.and_then(|answers| {
            serde_json::from_str(&answers)
                .inspect_err(|error| tracing::warn!(%error, "an estimate's probe answers could not be read"))
                .ok()
        }))
    }

    /// Replaces the probe answers left under `key` with `answers`, only while a row is
    /// there and no newer estimate of the workspace left its own: false once a search took
    /// it (or it was pruned), or once the workspace's user estimated something else, so the
    /// probes stop whichever API process runs them (a process stops its own at once; this
    /// reaches the others, within a write). Its age is kept: answers added later are no
    /// fresher than the first ones.
    #[tracing::instrument(skip(self, answers), fields(probes = answers.0.len()))]
    pub async fn add_estimate_probes(
        &self,
        workspace: &WorkspaceId,
        key: &PlanKey,
        answers: &ProbeAnswers,
    ) -> CoreResult<bool> {
        // Rectangles and strings always serialise.
        let encoded = serde_json::to_string(answers).unwrap_or_default();
        let done = sqlx::query(
            "UPDATE estimate_probes SET answers = $4
             WHERE workspace_id = $1 AND query_digest = $2 AND area_digest = $3
               AND NOT EXISTS (
                   SELECT 1 FROM estimate_probes AS newer
                   WHERE newer.workspace_id = $1 AND newer.probed_at > estimate_probes.probed_at
               )",
        )
        .bind(workspace)
        .bind(&key.query)
        .bind(&key.area)
        .bind(encoded)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Leaves an estimate's probe answers under `key` for the workspace, probed now
    /// (replacing the ones there), and forgets the workspace's answers older than
    /// `max_age`, which no search reads any more.
    #[tracing::instrument(skip(self, answers), fields(probes = answers.0.len()))]
    pub async fn leave_estimate_probes(
        &self,
        workspace: &WorkspaceId,
        key: &PlanKey,
        answers: &ProbeAnswers,
        max_age: Duration,
    ) -> CoreResult<()> {
        let now = now_unix();
        // Rectangles and strings always serialise.
        let encoded = serde_json::to_string(answers).unwrap_or_default();
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM estimate_probes WHERE workspace_id = $1 AND probed_at <= $2")
            .bind(workspace)
            .bind(now.saturating_sub(seconds(max_age)))
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO estimate_probes (workspace_id, query_digest, area_digest, answers, probed_at)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (workspace_id, query_digest, area_digest)
             DO UPDATE SET answers = excluded.answers, probed_at = excluded.probed_at",
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

    /// Forgets every workspace's estimate probe answers older than `max_age`
    /// ([`PROBES_KEPT`] for the fleet's pruning: estimates no search followed). Returns
    /// how many were forgotten.
    #[tracing::instrument(skip(self))]
    pub async fn prune_estimate_probes(&self, max_age: Duration) -> CoreResult<u64> {
        let done = sqlx::query("DELETE FROM estimate_probes WHERE probed_at <= $1")
            .bind(now_unix().saturating_sub(seconds(max_age)))
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

    fn take_probes<'a>(&'a self, key: &'a PlanKey) -> BoxFuture<'a, Option<ProbeAnswers>> {
        async move {
            // Unread answers only cost the probes they would have saved.
            self.store
                .take_estimate_probes(self.workspace, key, PROBES_KEPT)
                .await
                .inspect_err(|error| tracing::warn!(%error, "could not read an estimate's probe answers"))
                .ok()
                .flatten()
        }
        .boxed()
    }

    fn leave_probes<'a>(&'a self, key: &'a PlanKey, answers: &'a ProbeAnswers) -> BoxFuture<'a, ()> {
        async move {
            if let Err(error) = self
                .store
                .leave_estimate_probes(self.workspace, key, answers, PROBES_KEPT)
                .await
            {
                tracing::warn!(%error, "could not leave an estimate's probe answers");
            }
        }
        .boxed()
    }

    fn add_probes<'a>(&'a self, key: &'a PlanKey, answers: &'a ProbeAnswers) -> BoxFuture<'a, bool> {
        async move {
            // A write that fails stops the probes: the search then makes the rest.
            self.store
                .add_estimate_probes(self.workspace, key, answers)
                .await
                .inspect_err(|error| tracing::warn!(%error, "could not add to an estimate's probe answers"))
                .unwrap_or(false)
        }
        .boxed()
    }
}
