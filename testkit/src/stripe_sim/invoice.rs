//! Subscription invoices, in the shape since 2025-03-31.basil: what generated an invoice
//! or a line is named under `parent` (`parent.subscription_details.subscription`), not in
//! the old top-level `subscription` fields.

use serde_json::{Value, json};

use super::{catalogue, clock, ids, join, store::Store};

/// How an invoice ended up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The first invoice of a subscription, paid at checkout.
    PaidAtCreation,
    /// A renewal whose charge was declined.
    RenewalFailed,
}

/// Builds an invoice for `subscription` (which must have its items) and stores it; the
/// caller sets `latest_invoice` on the subscription.
pub(crate) fn create(store: &mut Store, id: &str, subscription: &Value, outcome: Outcome) -> Value {
    let now = clock::now();
    let sub_id = subscription["id"].as_str().unwrap_or_default();
    let customer_id = subscription["customer"].as_str().unwrap_or_default();
    let customer = store.customer(customer_id).cloned().unwrap_or(Value::Null);
    let items = subscription["items"]["data"].as_array().cloned().unwrap_or_default();
    let period_start = items
        .first()
        .and_then(|i| i["current_period_start"].as_i64())
        .unwrap_or(now);
    let period_end = items
        .first()
        .and_then(|i| i["current_period_end"].as_i64())
        .unwrap_or(now);
    let lines: Vec<Value> = items
        .iter()
        .map(|item| line(store, id, sub_id, item, subscription["metadata"].clone()))
        .collect();
    let total: i64 = lines.iter().filter_map(|l| l["amount"].as_i64()).sum();
    let paid = outcome == Outcome::PaidAtCreation;
    let number = format!(
        "{}-{:04}",
        customer["invoice_prefix"].as_str().unwrap_or("SIM"),
        store.invoices.len() + 1
    );
    let first = json!({
        "id": id,
        "object": "invoice",
        "account_country": "US",
        "account_name": "Leadgen (stripe-sim)",
        "account_tax_ids": null,
        "amount_due": total,
        "amount_overpaid": 0,
        "amount_paid": if paid { total } else { 0 },
        "amount_remaining": if paid { 0 } else { total },
        "amount_shipping": 0,
        "application": null,
        "attempt_count": 1,
        "attempted": true,
        "auto_advance": !paid,
        "automatic_tax": {"disabled_reason": null, "enabled": false, "liability": null, "provider": null, "status": null},
        "automatically_finalizes_at": null,
        "billing_reason": if paid { "subscription_create" } else { "subscription_cycle" },
        "collection_method": "charge_automatically"
    });
    let second = json!({
        "created": now,
        "currency": "usd",
        "custom_fields": null,
        "customer": customer_id,
        "customer_account": null,
        "customer_address": null,
        "customer_email": customer["email"],
        "customer_name": customer["name"],
        "customer_phone": null,
        "customer_shipping": null,
        "customer_tax_exempt": "none",
        "customer_tax_ids": [],
        "default_payment_method": null,
        "default_source": null,
        "default_tax_rates": [],
        "description": null,
        "discounts": [],
        "due_date": null,
        "effective_at": now,
        "ending_balance": 0,
        "footer": null,
        "from_invoice": null,
        "hosted_invoice_url": format!("https://invoice.stripe.com/i/acct_stripesim/test_{id}"),
        "invoice_pdf": format!("https://pay.stripe.com/invoice/acct_stripesim/test_{id}/pdf"),
        "issuer": {"type": "self"}
    });
    let third = json!({
        "last_finalization_error": null,
        "latest_revision": null,
        "lines": {
            "object": "list",
            "data": lines,
            "has_more": false,
            "total_count": items.len(),
            "url": format!("/v1/invoices/{id}/lines")
        },
        "livemode": false,
        "metadata": {},
        "next_payment_attempt": if paid { Value::Null } else { json!(now + 3 * 86_400) }
    });
    let fourth = json!({
        "number": number,
        "on_behalf_of": null,
        "parent": {
            "quote_details": null,
            "subscription_details": {"metadata": subscription["metadata"], "subscription": sub_id},
            "type": "subscription_details"
        },
        "payment_settings": {"default_mandate": null, "payment_method_options": null, "payment_method_types": null},
        "period_end": period_end,
        "period_start": period_start,
        "post_payment_credit_notes_amount": 0,
        "pre_payment_credit_notes_amount": 0,
        "receipt_number": null,
        "rendering": null,
        "shipping_cost": null,
        "shipping_details": null,
        "starting_balance": 0,
        "statement_descriptor": null,
        "status": if paid { "paid" } else { "open" },
        "status_transitions": {
            "finalized_at": now,
            "marked_uncollectible_at": null,
            "paid_at": if paid { json!(now) } else { Value::Null },
            "voided_at": null
        },
        "subtotal": total,
        "subtotal_excluding_tax": total,
        "test_clock": null,
        "total": total,
        "total_discount_amounts": [],
        "total_excluding_tax": total,
        "total_pretax_credit_amounts": [],
        "total_taxes": [],
        "webhooks_delivered_at": now
    });
    let invoice = join::objects([first, second, third, fourth]);
    store.invoices.push(invoice.clone());
    invoice
}

/// One line per subscription item.
fn line(store: &Store, invoice_id: &str, sub_id: &str, item: &Value, metadata: Value) -> Value {
    let price_id = item["price"]["id"].as_str().unwrap_or_default();
    let spec = catalogue::price_spec(store, price_id);
    let quantity = item["quantity"].as_i64().unwrap_or(1);
    let unit = spec.map_or(0, |s| s.unit_amount);
    let amount = unit.saturating_mul(quantity);
    let description = spec.map_or_else(String::new, |s| {
        format!(
            "{quantity} × {} (at ${}.{:02} / {})",
            s.product_name,
            unit / 100,
            unit % 100,
            s.interval
        )
    });
    json!({
        "id": ids::invoice_line(),
        "object": "line_item",
        "amount": amount,
        "currency": "usd",
        "description": description,
        "discount_amounts": [],
        "discountable": true,
        "discounts": [],
        "invoice": invoice_id,
        "livemode": false,
        "metadata": metadata,
        "parent": {
            "invoice_item_details": null,
            "subscription_item_details": {
                "invoice_item": null,
                "proration": false,
                "proration_details": {"credited_items": null},
                "subscription": sub_id,
                "subscription_item": item["id"]
            },
            "type": "subscription_item_details"
        },
        "period": {"end": item["current_period_end"], "start": item["current_period_start"]},
        "pretax_credit_amounts": [],
        "pricing": {
            "price_details": {"price": price_id, "product": spec.map(|s| s.product_id())},
            "type": "price_details",
            "unit_amount_decimal": unit.to_string()
        },
        "quantity": quantity,
        "subtotal": amount,
        "taxes": []
    })
}
