//! Event objects, as Stripe sends them to webhook endpoints and serves them from
//! `GET /v1/events/{id}`.

use serde_json::{Value, json};

use super::{clock, ids, store::Store};

/// Records an event of `kind` about a snapshot of `object`, with the attributes an update
/// changed (`*.updated` events only), and returns its ID.
///
/// The events the simulator makes stand for things customers do on Stripe's pages or
/// Stripe does on its own (renewals), so, as Stripe does for those, `request.id` and
/// `request.idempotency_key` are null.
pub(crate) fn record(store: &mut Store, kind: &str, object: &Value, previous_attributes: Option<Value>) -> String {
    let id = ids::event();
    let mut data = json!({ "object": object });
    if let Some(previous) = previous_attributes {
        data["previous_attributes"] = previous;
    }
    let event = json!({
        "id": id,
        "object": "event",
        "api_version": store.config.api_version,
        "created": clock::now(),
        "data": data,
        "livemode": false,
        "pending_webhooks": i64::from(store.delivering()),
        "request": {"id": null, "idempotency_key": null},
        "type": kind
    });
    store.events.push(event);
    id
}
