//! Billing rows: Stripe customers, current subscriptions, applied webhook events.

use super::handle::Store;
use crate::ids::WorkspaceId;
use crate::{CoreResult, billing::Subscription, time::now_unix};

#[derive(sqlx::FromRow)]
struct SubscriptionRow {
    subscription_id: String,
    status: String,
    plan: String,
    current_period_end: Option<i64>,
    cancel_at_period_end: i64,
    has_payment_method: i64,
}

impl From<SubscriptionRow> for Subscription {
    fn from(r: SubscriptionRow) -> Self {
        Self {
            subscription_id: r.subscription_id,
            status: r.status,
            plan: r.plan,
            current_period_end: r.current_period_end,
            cancel_at_period_end: r.cancel_at_period_end == 1,
            has_payment_method: r.has_payment_method == 1,
        }
    }
}

/// What applying a webhook event did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventOutcome {
    /// First delivery: recorded, and its effect (if any) written.
    Applied,
    /// Already applied by an earlier delivery: nothing written.
    Duplicate,
}

impl Store {
    /// The user's Stripe customer id, if one was created.
    #[tracing::instrument(skip(self))]
    pub async fn billing_customer(&self, workspace_id: &WorkspaceId) -> CoreResult<Option<String>> {
        Ok(sqlx::query_scalar::<_, String>(
            "SELECT customer_id FROM workspace_billing_customers WHERE workspace_id = $1",
        )
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Records the user's Stripe customer unless one is recorded already; answers the one
    /// that is (so two racing checkouts end up with the same customer).
    #[tracing::instrument(skip(self))]
    pub async fn save_billing_customer(&self, workspace_id: &WorkspaceId, customer_id: &str) -> CoreResult<String> {
        sqlx::query(
            "INSERT INTO workspace_billing_customers (workspace_id, customer_id, created_at) VALUES ($1, $2, $3)
             ON CONFLICT (workspace_id) DO NOTHING",
        )
        .bind(workspace_id)
        .bind(customer_id)
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(self
            .billing_customer(workspace_id)
            .await?
            .unwrap_or_else(|| customer_id.to_owned()))
    }

    /// The workspace a Stripe customer belongs to (webhooks name customers, not workspaces).
    #[tracing::instrument(skip(self))]
    pub async fn workspace_for_customer(&self, customer_id: &str) -> CoreResult<Option<WorkspaceId>> {
        Ok(sqlx::query_scalar::<_, String>(
            "SELECT workspace_id FROM workspace_billing_customers WHERE customer_id = $1",
        )
        .bind(customer_id)
        .fetch_optional(&self.pool)
        .await?
        .map(WorkspaceId::from))
    }

    /// The user's current subscription, if any.
    #[tracing::instrument(skip(self))]
    pub async fn subscription(&self, workspace_id: &WorkspaceId) -> CoreResult<Option<Subscription>> {
        let row = sqlx::query_as::<_, SubscriptionRow>(
            "SELECT subscription_id, status, plan, current_period_end, cancel_at_period_end, has_payment_method
             FROM workspace_subscriptions WHERE workspace_id = $1",
        )
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(Subscription::from))
    }

    /// Whether a webhook event was already applied (so a replay needs no Stripe call).
    #[tracing::instrument(skip(self))]
    pub async fn billing_event_applied(&self, event_id: &str) -> CoreResult<bool> {
        Ok(
            sqlx::query_scalar::<_, String>("SELECT event_id FROM billing_events WHERE event_id = $1")
                .bind(event_id)
                .fetch_optional(&self.pool)
                .await?
                .is_some(),
        )
    }

    /// The user's tier: Pro while their subscription is live, Free otherwise.
    pub async fn tier(&self, workspace_id: &WorkspaceId) -> CoreResult<crate::usage::Tier> {
        Ok(crate::billing::tier_of(self.subscription(workspace_id).await?.as_ref()))
    }

    /// Applies a webhook event once: records its id and writes `subscription` (Stripe's
    /// current state of it, for `workspace_id`) in one transaction. A second delivery of the
    /// same event writes nothing. A subscription other than the stored one replaces it
    /// only if it is live or the stored one is not, so a stale event about an old,
    /// cancelled subscription cannot hide a new active one.
    #[tracing::instrument(skip(self, subscription))]
    pub async fn apply_billing_event(
        &self,
        event_id: &str,
        event_type: &str,
        workspace_id: Option<&WorkspaceId>,
        subscription: Option<&Subscription>,
    ) -> CoreResult<EventOutcome> {
        let mut tx = self.pool.begin().await?;
        let recorded = sqlx::query(
            "INSERT INTO billing_events (event_id, event_type, received_at) VALUES ($1, $2, $3)
             ON CONFLICT (event_id) DO NOTHING",
        )
        .bind(event_id)
        .bind(event_type)
        .bind(now_unix())
        .execute(&mut *tx)
        .await?;
        if recorded.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(EventOutcome::Duplicate);
        }
        if let (Some(workspace_id), Some(sub)) = (workspace_id, subscription) {
            let current = sqlx::query_as::<_, SubscriptionRow>(
                "SELECT subscription_id, status, plan, current_period_end, cancel_at_period_end, has_payment_method
                 FROM workspace_subscriptions WHERE workspace_id = $1",
            )
            .bind(workspace_id)
            .fetch_optional(&mut *tx)
            .await?
            .map(Subscription::from);
            let replaces = match &current {
                None => true,
                Some(c) => c.subscription_id == sub.subscription_id || sub.is_active() || !c.is_active(),
            };
            if replaces {
                sqlx::query(
                    "INSERT INTO workspace_subscriptions (workspace_id, subscription_id, status, plan, current_period_end,
                         cancel_at_period_end, has_payment_method, updated_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                     ON CONFLICT (workspace_id) DO UPDATE SET
                         subscription_id = excluded.subscription_id, status = excluded.status, plan = excluded.plan,
                         current_period_end = excluded.current_period_end,
                         cancel_at_period_end = excluded.cancel_at_period_end,
                         has_payment_method = excluded.has_payment_method, updated_at = excluded.updated_at",
                )
                .bind(workspace_id)
                .bind(&sub.subscription_id)
                .bind(&sub.status)
                .bind(&sub.plan)
                .bind(sub.current_period_end)
                .bind(i64::from(sub.cancel_at_period_end))
                .bind(i64::from(sub.has_payment_method))
                .bind(now_unix())
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(EventOutcome::Applied)
    }
}
