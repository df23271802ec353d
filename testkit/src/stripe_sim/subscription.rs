//! Subscriptions as the API version the simulator speaks renders them: billing periods
//! live on the items (`items.data[].current_period_start/end`, moved there from the
//! subscription in 2025-03-31.basil), and new subscriptions use flexible billing mode (the
//! default since 2025-09-30.clover).

use serde_json::{Map, Value, json};

use super::{
    catalogue, clock,
    errors::ApiError,
    form::Params,
    ids, join,
    store::{LineItem, Store},
};

/// The statuses Stripe documents for a subscription.
pub const STATUSES: &[&str] = &[
    "incomplete",
    "incomplete_expired",
    "trialing",
    "active",
    "past_due",
    "canceled",
    "unpaid",
    "paused",
];

/// What a new subscription is made of.
pub(crate) struct NewSubscription<'a> {
    pub customer: &'a str,
    pub items: &'a [LineItem],
    pub metadata: Map<String, Value>,
    pub payment_method: &'a str,
    pub latest_invoice: &'a str,
}

/// Builds an active subscription starting now and stores it.
pub(crate) fn create(store: &mut Store, new: &NewSubscription<'_>) -> Value {
    let id = ids::subscription();
    let start = clock::now();
    let items: Vec<Value> = new
        .items
        .iter()
        .filter_map(|li| {
            let spec = catalogue::price_spec(store, &li.price)?;
            Some(json!({
                "id": ids::subscription_item(),
                "object": "subscription_item",
                "billing_thresholds": null,
                "created": start,
                "current_period_end": clock::period_end(start, &spec.interval),
                "current_period_start": start,
                "discounts": [],
                "metadata": {},
                "plan": catalogue::plan_json(spec, store.catalogue_created),
                "price": catalogue::price_json(spec, store.catalogue_created),
                "quantity": li.quantity,
                "subscription": id,
                "tax_rates": []
            }))
        })
        .collect();
    let first = json!({
        "id": id,
        "object": "subscription",
        "application": null,
        "application_fee_percent": null,
        "automatic_tax": {"disabled_reason": null, "enabled": false, "liability": null},
        "billing_cycle_anchor": start,
        "billing_cycle_anchor_config": null,
        "billing_mode": {"flexible": {"proration_discounts": "included"}, "type": "flexible", "updated_at": start},
        "billing_schedules": [],
        "billing_thresholds": null,
        "cancel_at": null,
        "cancel_at_period_end": false,
        "canceled_at": null,
        "cancellation_details": {"comment": null, "feedback": null, "reason": null},
        "collection_method": "charge_automatically",
        "created": start,
        "currency": "usd",
        "customer": new.customer,
        "customer_account": null,
        "days_until_due": null,
        "default_payment_method": new.payment_method,
        "default_source": null,
        "default_tax_rates": [],
        "description": null,
        "discounts": [],
        "ended_at": null
    });
    let second = json!({
        "invoice_settings": {"account_tax_ids": null, "issuer": {"type": "self"}},
        "items": {
            "object": "list",
            "data": items,
            "has_more": false,
            "total_count": new.items.len(),
            "url": format!("/v1/subscription_items?subscription={id}")
        },
        "latest_invoice": new.latest_invoice,
        "livemode": false,
        "metadata": new.metadata,
        "next_pending_invoice_item_invoice": null,
        "on_behalf_of": null,
        "pause_collection": null,
        "payment_settings": {
            "payment_method_options": null,
            "payment_method_types": null,
            "save_default_payment_method": "off"
        },
        "pending_invoice_item_interval": null,
        "pending_setup_intent": null,
        "pending_update": null,
        "schedule": null,
        "start_date": start,
        "status": "active",
        "test_clock": null,
        "transfer_data": null,
        "trial_end": null,
        "trial_settings": {"end_behavior": {"missing_payment_method": "create_invoice"}},
        "trial_start": null
    });
    let subscription = join::objects([first, second]);
    store.subscriptions.push(subscription.clone());
    subscription
}

/// The end of the subscription's current period (its first item's).
pub(crate) fn current_period_end(subscription: &Value) -> Option<i64> {
    subscription["items"]["data"][0]["current_period_end"].as_i64()
}

/// `GET /v1/subscriptions`: newest first; without `status`, canceled ones are left out,
/// `status=all` includes them, `status=ended` is canceled and incomplete_expired ones.
pub(crate) fn list(store: &Store, params: &Params) -> Result<Value, ApiError> {
    const KNOWN: &[&str] = &[
        "automatic_tax",
        "collection_method",
        "created",
        "current_period_end",
        "current_period_start",
        "customer",
        "customer_account",
        "ending_before",
        "expand",
        "limit",
        "plan",
        "price",
        "starting_after",
        "status",
        "test_clock",
    ];
    if let Some(key) = params.unknown_key(KNOWN) {
        return Err(ApiError::unknown_param(key));
    }
    let status = params.str(&["status"]);
    if status.is_some_and(|s| !STATUSES.contains(&s) && !["all", "ended"].contains(&s)) {
        return Err(ApiError::invalid_param(
            "status",
            format!("Invalid status: must be one of {}, all, or ended", STATUSES.join(", ")),
        ));
    }
    let customer = params.str(&["customer"]);
    let price = params.str(&["price"]);
    let matches_status = |s: &str| match status {
        None => s != "canceled",
        Some("all") => true,
        Some("ended") => s == "canceled" || s == "incomplete_expired",
        Some(wanted) => s == wanted,
    };
    let items: Vec<Value> = store
        .subscriptions
        .iter()
        .rev()
        .filter(|sub| customer.is_none_or(|c| sub["customer"] == c))
        .filter(|sub| matches_status(sub["status"].as_str().unwrap_or_default()))
        .filter(|sub| {
            price.is_none_or(|p| {
                sub["items"]["data"]
                    .as_array()
                    .is_some_and(|items| items.iter().any(|i| i["price"]["id"] == p))
            })
        })
        .cloned()
        .collect();
    super::list::page(items, params, "/v1/subscriptions")
}
