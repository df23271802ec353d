//! The `/v1/*` endpoints: which method and path go where, and retrieval by ID with
//! Stripe's `resource_missing` 404s. Runs with the store locked, so every request sees and
//! leaves a consistent state.

use poem::http::{Method, StatusCode};
use serde_json::Value;

use super::{
    catalogue, checkout, customer, errors::ApiError, expand, form::Params, list, portal, store::Store, subscription,
};

/// Answers one authenticated request with the object (or list) to send back with 200.
pub(crate) fn dispatch(store: &mut Store, method: &Method, path: &str, params: &Params) -> Result<Value, ApiError> {
    let segments: Vec<&str> = path.trim_start_matches("/v1/").split('/').collect();
    let expansions = params.expand();
    let mut answer = match (method.as_str(), segments.as_slice()) {
        ("POST", ["customers"]) => customer::create(store, params)?,
        ("GET", ["customers"]) => customer::list(store, params)?,
        ("GET", ["customers", id]) => retrieve(params, store.customer(id).cloned(), "customer", id)?,
        ("GET", ["prices", id]) => {
            let price = catalogue::price_spec(store, id).map(|p| catalogue::price_json(p, store.catalogue_created));
            retrieve(params, price, "price", id)?
        }
        ("GET", ["products", id]) => retrieve(params, catalogue::product_json(store, id), "product", id)?,
        ("POST", ["checkout", "sessions"]) => {
            let record = checkout::create(store, params)?;
            with_line_items(store, record.json.clone(), &expansions)
        }
        ("GET", ["checkout", "sessions", id]) => {
            let session = retrieve(
                params,
                store.session(id).map(|r| r.json.clone()),
                "checkout.session",
                id,
            )?;
            with_line_items(store, session, &expansions)
        }
        ("GET", ["checkout", "sessions", id, "line_items"]) => {
            let record = store
                .session(id)
                .ok_or_else(|| ApiError::no_such(StatusCode::NOT_FOUND, "checkout.session", id, "id"))?;
            let items = checkout::line_items_list(store, record)["data"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            list::page(items, params, &format!("/v1/checkout/sessions/{id}/line_items"))?
        }
        ("POST", ["billing_portal", "sessions"]) => portal::create(store, params)?,
        ("GET", ["subscriptions"]) => subscription::list(store, params)?,
        ("GET", ["subscriptions", id]) => retrieve(params, store.subscription(id).cloned(), "subscription", id)?,
        ("GET", ["invoices", id]) => retrieve(params, store.invoice(id).cloned(), "invoice", id)?,
        ("GET", ["payment_methods", id]) => retrieve(params, store.payment_method(id).cloned(), "PaymentMethod", id)?,
        ("GET", ["events", id]) => retrieve(params, store.event(id).cloned(), "event", id)?,
        _ => return Err(ApiError::unrecognized_url(method.as_str(), path)),
    };
    expand::apply(store, &mut answer, &expansions)?;
    Ok(answer)
}

/// A retrieve endpoint: only `expand` is accepted, a missing object is a 404.
fn retrieve(params: &Params, found: Option<Value>, object: &str, id: &str) -> Result<Value, ApiError> {
    if let Some(key) = params.unknown_key(&["expand"]) {
        return Err(ApiError::unknown_param(key));
    }
    found.ok_or_else(|| ApiError::no_such(StatusCode::NOT_FOUND, object, id, "id"))
}

/// Adds `line_items` to a session when it is expanded: Stripe leaves it out otherwise.
fn with_line_items(store: &Store, mut session: Value, expansions: &[String]) -> Value {
    let wanted = expansions
        .iter()
        .any(|p| p == "line_items" || p.starts_with("line_items."));
    if wanted {
        let id = session["id"].as_str().unwrap_or_default().to_owned();
        if let Some(record) = store.session(&id) {
            session["line_items"] = checkout::line_items_list(store, record);
        }
    }
    session
}
