//! Stripe webhook events, applied once each. Events can arrive late, twice, or out of
//! order, so their own copy of the subscription is not trusted: the subscription is read
//! back from Stripe and its current state is stored, in the same transaction that records
//! the event id.

use leadgen_core::{
    audit::{self, Action},
    store::{EventOutcome, Store},
};
use serde_json::Value;

use super::stripe_api::{StripeApi, StripeFailure};

/// Event types that change a subscription.
pub const HANDLED: [&str; 5] = [
    "checkout.session.completed",
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
    "invoice.payment_failed",
];

/// Why an event could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// The body is not a Stripe event.
    #[error("not a Stripe event: {0}")]
    Malformed(String),
    /// Stripe could not be asked for the subscription; Stripe will deliver again.
    #[error(transparent)]
    Stripe(#[from] StripeFailure),
    /// Our store failed; Stripe will deliver again.
    #[error(transparent)]
    Store(#[from] leadgen_core::CoreError),
}

/// What was done with an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handled {
    /// Recorded; the subscription of this workspace (if any) was updated.
    Applied {
        /// Whose subscription changed, when the event was about one we know.
        workspace_id: Option<leadgen_core::ids::WorkspaceId>,
    },
    /// Already applied before.
    Duplicate,
    /// A type we do not act on; acknowledged.
    Ignored,
}

/// Applies one verified event body.
pub async fn handle(store: &Store, stripe: &StripeApi, body: &[u8]) -> Result<Handled, WebhookError> {
    let event: Value = serde_json::from_slice(body).map_err(|e| WebhookError::Malformed(e.to_string()))?;
    let id = event["id"]
        .as_str()
        .filter(|id| id.starts_with("evt_"))
        .ok_or_else(|| WebhookError::Malformed("no event id".into()))?;
    let kind = event["type"]
        .as_str()
        .ok_or_else(|| WebhookError::Malformed("no event type".into()))?;
    if !HANDLED.contains(&kind) {
        return Ok(Handled::Ignored);
    }
    // Stripe retries deliveries: a replay needs no call to Stripe. (The insert below
    // still decides, for two copies racing each other.)
    if store.billing_event_applied(id).await? {
        return Ok(Handled::Duplicate);
    }
    let object = &event["data"]["object"];
    let subscription_id = match kind {
        "checkout.session.completed" => object["subscription"].as_str(),
        "invoice.payment_failed" => object["subscription"]
            .as_str()
            // API versions from 2025 moved it under the invoice's parent.
            .or_else(|| object["parent"]["subscription_details"]["subscription"].as_str()),
        _ => object["id"].as_str(),
    };
    let Some(subscription_id) = subscription_id else {
        // E.g. a one-off invoice: nothing to update, but remember we saw it.
        let outcome = store.apply_billing_event(id, kind, None, None).await?;
        return Ok(match outcome {
            EventOutcome::Applied => Handled::Applied { workspace_id: None },
            EventOutcome::Duplicate => Handled::Duplicate,
        });
    };
    let current = stripe.subscription(subscription_id).await?;
    let workspace_id = match store.workspace_for_customer(&current.customer_id).await? {
        Some(user) => Some(user),
        // The customer is ours only if we recorded it; metadata alone names a user we
        // never billed (or another deployment sharing the Stripe account).
        None => {
            tracing::warn!(customer = %current.customer_id, "webhook for a customer we do not know");
            None
        }
    };
    if let (Some(workspace), Some(named)) = (&workspace_id, &current.workspace_id)
        && workspace.as_str() != named
    {
        tracing::warn!(customer = %current.customer_id, "subscription metadata names another workspace; trusting the customer");
    }
    let outcome = store
        .apply_billing_event(id, kind, workspace_id.as_ref(), Some(&current.subscription))
        .await?;
    if let (EventOutcome::Applied, Some(workspace)) = (&outcome, &workspace_id) {
        // The billing provider acts, not a member: no actor.
        let plan = &current.subscription;
        let details = serde_json::json!({
            "event": kind,
            "plan": plan.plan,
            "status": plan.status,
            "cancelAtPeriodEnd": plan.cancel_at_period_end,
        });
        audit::record(store, workspace, None, Action::PlanChanged, &plan.plan, details).await;
    }
    Ok(match outcome {
        EventOutcome::Applied => Handled::Applied { workspace_id },
        EventOutcome::Duplicate => Handled::Duplicate,
    })
}
