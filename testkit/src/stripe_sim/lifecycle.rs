//! What happens outside the API: a customer paying on the Checkout page or canceling in
//! the portal, a renewal charge being declined. Each change records the events Stripe
//! would send, in Stripe's order, and returns their IDs for delivery.

use anyhow::{Context, bail};
use serde_json::{Value, json};

use super::{
    checkout, clock, customer, event, ids,
    invoice::{self, Outcome},
    store::Store,
    subscription::{self, NewSubscription, STATUSES},
};

/// The subscription a checkout created and the events it caused.
pub(crate) struct Completed {
    pub subscription: String,
    pub events: Vec<String>,
}

/// The customer pays: the session completes, the customer gets a default card, an active
/// subscription and a paid first invoice. Events: `checkout.session.completed`,
/// `customer.subscription.created`, `invoice.paid`.
pub(crate) fn complete_checkout(store: &mut Store, session_id: &str) -> anyhow::Result<Completed> {
    let record = store
        .session(session_id)
        .with_context(|| format!("no such checkout session: {session_id}"))?
        .clone();
    let status = record.json["status"].as_str().unwrap_or_default();
    if status != "open" {
        bail!("checkout session {session_id} is {status}, not open");
    }
    let customer_id = match record.json["customer"].as_str() {
        Some(id) => id.to_owned(),
        None => customer::create_for_checkout(store, record.json["customer_email"].as_str()),
    };
    let payment_method = customer::attach_card(store, &customer_id);
    let invoice_id = ids::invoice();
    let sub = subscription::create(
        store,
        &NewSubscription {
            customer: &customer_id,
            items: &record.line_items,
            metadata: record.subscription_metadata.clone(),
            payment_method: &payment_method,
            latest_invoice: &invoice_id,
        },
    );
    let invoice = invoice::create(store, &invoice_id, &sub, Outcome::PaidAtCreation);
    let sub_id = sub["id"].as_str().unwrap_or_default().to_owned();

    let customer = store.customer(&customer_id).cloned().unwrap_or(Value::Null);
    let session = {
        let Some(record) = store.session_mut(session_id) else {
            bail!("checkout session {session_id} vanished");
        };
        let json = &mut record.json;
        json["status"] = json!("complete");
        json["payment_status"] = json!("paid");
        json["customer"] = json!(customer_id);
        json["customer_creation"] = Value::Null;
        json["subscription"] = json!(sub_id);
        json["invoice"] = json!(invoice_id);
        json["url"] = Value::Null;
        json["customer_details"] = json!({
            "address": {
                "city": null,
                "country": "US",
                "line1": null,
                "line2": null,
                "postal_code": "42424",
                "state": null
            },
            "business_name": null,
            "email": customer["email"],
            "individual_name": null,
            "name": customer["name"],
            "phone": null,
            "tax_exempt": "none",
            "tax_ids": []
        });
        json.clone()
    };

    let events = vec![
        event::record(store, "checkout.session.completed", &session, None),
        event::record(store, "customer.subscription.created", &sub, None),
        event::record(store, "invoice.paid", &invoice, None),
    ];
    Ok(Completed {
        subscription: sub_id,
        events,
    })
}

/// The customer cancels: at the end of the period (`customer.subscription.updated`, with
/// the previous cancellation fields) or at once (`customer.subscription.deleted`).
pub(crate) fn cancel_subscription(store: &mut Store, sub_id: &str, at_period_end: bool) -> anyhow::Result<Vec<String>> {
    let now = clock::now();
    let sub = live_subscription(store, sub_id)?;
    if at_period_end {
        let previous = json!({
            "cancel_at": sub["cancel_at"],
            "cancel_at_period_end": sub["cancel_at_period_end"],
            "canceled_at": sub["canceled_at"],
            "cancellation_details": {"reason": sub["cancellation_details"]["reason"]}
        });
        let updated = update(store, sub_id, |s| {
            s["cancel_at"] = json!(subscription::current_period_end(s));
            s["cancel_at_period_end"] = json!(true);
            s["canceled_at"] = json!(now);
            s["cancellation_details"]["reason"] = json!("cancellation_requested");
        })?;
        Ok(vec![event::record(
            store,
            "customer.subscription.updated",
            &updated,
            Some(previous),
        )])
    } else {
        let deleted = update(store, sub_id, |s| {
            s["status"] = json!("canceled");
            s["canceled_at"] = json!(now);
            s["ended_at"] = json!(now);
            s["cancellation_details"]["reason"] = json!("cancellation_requested");
        })?;
        Ok(vec![event::record(
            store,
            "customer.subscription.deleted",
            &deleted,
            None,
        )])
    }
}

/// A renewal charge is declined: a new open invoice fails (`invoice.payment_failed`) and
/// the subscription turns `past_due` (`customer.subscription.updated`). The billing period
/// is not advanced.
pub(crate) fn fail_payment(store: &mut Store, sub_id: &str) -> anyhow::Result<Vec<String>> {
    let sub = live_subscription(store, sub_id)?;
    let invoice_id = ids::invoice();
    let invoice = invoice::create(store, &invoice_id, &sub, Outcome::RenewalFailed);
    let previous = json!({"latest_invoice": sub["latest_invoice"], "status": sub["status"]});
    let updated = update(store, sub_id, |s| {
        s["status"] = json!("past_due");
        s["latest_invoice"] = json!(invoice_id);
    })?;
    Ok(vec![
        event::record(store, "invoice.payment_failed", &invoice, None),
        event::record(store, "customer.subscription.updated", &updated, Some(previous)),
    ])
}

/// Puts the subscription in any documented status: `customer.subscription.updated` with
/// the previous status, or `customer.subscription.deleted` for `canceled`.
pub(crate) fn set_subscription_status(store: &mut Store, sub_id: &str, status: &str) -> anyhow::Result<Vec<String>> {
    if !STATUSES.contains(&status) {
        bail!(
            "unknown subscription status {status:?}; Stripe's are {}",
            STATUSES.join(", ")
        );
    }
    let sub = store
        .subscription(sub_id)
        .with_context(|| format!("no such subscription: {sub_id}"))?
        .clone();
    let now = clock::now();
    let updated = update(store, sub_id, |s| {
        s["status"] = json!(status);
        if status == "canceled" {
            s["canceled_at"] = json!(now);
            s["ended_at"] = json!(now);
        }
    })?;
    let id = if status == "canceled" {
        event::record(store, "customer.subscription.deleted", &updated, None)
    } else {
        event::record(
            store,
            "customer.subscription.updated",
            &updated,
            Some(json!({"status": sub["status"]})),
        )
    };
    Ok(vec![id])
}

/// The subscription, unless it is missing or already canceled.
fn live_subscription(store: &Store, sub_id: &str) -> anyhow::Result<Value> {
    let sub = store
        .subscription(sub_id)
        .with_context(|| format!("no such subscription: {sub_id}"))?;
    if sub["status"] == "canceled" {
        bail!("subscription {sub_id} is already canceled");
    }
    Ok(sub.clone())
}

/// Applies `change` to the stored subscription and returns the new snapshot.
fn update(store: &mut Store, sub_id: &str, change: impl FnOnce(&mut Value)) -> anyhow::Result<Value> {
    let sub = store
        .subscription_mut(sub_id)
        .with_context(|| format!("no such subscription: {sub_id}"))?;
    change(sub);
    Ok(sub.clone())
}

/// The open session's redirect target after paying, for the hosted page.
pub(crate) fn success_redirect(store: &Store, session_id: &str) -> Option<String> {
    store.session(session_id).and_then(checkout::success_redirect)
}
