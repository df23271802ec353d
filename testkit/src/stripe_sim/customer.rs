//! Customers: `POST /v1/customers`, and the card a completed checkout attaches to them.

use poem::http::StatusCode;
use serde_json::{Value, json};

use super::{clock, errors::ApiError, form::Params, ids, store::Store};

/// Parameters `POST /v1/customers` takes (Stripe's full list; the ones not modelled are
/// accepted and ignored).
const CREATE_PARAMS: &[&str] = &[
    "address",
    "balance",
    "business_name",
    "cash_balance",
    "description",
    "email",
    "expand",
    "individual_name",
    "invoice_prefix",
    "invoice_settings",
    "metadata",
    "name",
    "next_invoice_sequence",
    "payment_method",
    "phone",
    "preferred_locales",
    "shipping",
    "source",
    "tax",
    "tax_exempt",
    "tax_id_data",
    "test_clock",
    "validate",
];

/// `POST /v1/customers`.
pub(crate) fn create(store: &mut Store, params: &Params) -> Result<Value, ApiError> {
    if let Some(key) = params.unknown_key(CREATE_PARAMS) {
        return Err(ApiError::unknown_param(key));
    }
    let mut customer = blank();
    for field in [
        "business_name",
        "description",
        "email",
        "individual_name",
        "name",
        "phone",
        "tax_exempt",
    ] {
        if let Some(value) = params.str(&[field]) {
            customer[field] = json!(value);
        }
    }
    if let Some(prefix) = params.str(&["invoice_prefix"]) {
        customer["invoice_prefix"] = json!(prefix);
    }
    customer["metadata"] = Value::Object(params.string_map(&["metadata"]));
    let locales: Vec<&Value> = params.array(&["preferred_locales"]);
    customer["preferred_locales"] = json!(locales);
    store.customers.push(customer.clone());
    Ok(customer)
}

/// A customer Checkout creates when a session was not given one; returns its ID.
pub(crate) fn create_for_checkout(store: &mut Store, email: Option<&str>) -> String {
    let mut customer = blank();
    customer["email"] = json!(email.unwrap_or("customer@example.com"));
    let id = customer["id"].as_str().unwrap_or_default().to_owned();
    store.customers.push(customer);
    id
}

/// A new customer with nothing set, as Stripe renders one.
fn blank() -> Value {
    json!({
        "id": ids::customer(),
        "object": "customer",
        "address": null,
        "balance": 0,
        "business_name": null,
        "created": clock::now(),
        "currency": null,
        "customer_account": null,
        "default_source": null,
        "delinquent": false,
        "description": null,
        "discount": null,
        "email": null,
        "individual_name": null,
        "invoice_prefix": ids::invoice_prefix(),
        "invoice_settings": {
            "custom_fields": null,
            "default_payment_method": null,
            "footer": null,
            "rendering_options": null
        },
        "livemode": false,
        "metadata": {},
        "name": null,
        "next_invoice_sequence": 1,
        "phone": null,
        "preferred_locales": [],
        "shipping": null,
        "tax_exempt": "none",
        "test_clock": null
    })
}

/// `GET /v1/customers`: newest first, optionally only those with `email`.
pub(crate) fn list(store: &Store, params: &Params) -> Result<Value, ApiError> {
    if let Some(key) = params.unknown_key(&["email", "limit", "starting_after", "ending_before", "expand", "created"]) {
        return Err(ApiError::unknown_param(key));
    }
    let email = params.str(&["email"]);
    let items: Vec<Value> = store
        .customers
        .iter()
        .rev()
        .filter(|c| email.is_none_or(|e| c["email"] == e))
        .cloned()
        .collect();
    super::list::page(items, params, "/v1/customers")
}

/// A test card (Visa 4242) attached to `customer`, made its default for invoices.
pub(crate) fn attach_card(store: &mut Store, customer: &str) -> String {
    let id = ids::payment_method();
    let email = store
        .customer(customer)
        .and_then(|c| c["email"].as_str())
        .map(str::to_owned);
    let name = store
        .customer(customer)
        .and_then(|c| c["name"].as_str())
        .map(str::to_owned);
    store.payment_methods.push(json!({
        "id": id,
        "object": "payment_method",
        "allow_redisplay": "always",
        "billing_details": {
            "address": {
                "city": null,
                "country": "US",
                "line1": null,
                "line2": null,
                "postal_code": "42424",
                "state": null
            },
            "email": email,
            "name": name,
            "phone": null,
            "tax_id": null
        },
        "card": {
            "brand": "visa",
            "checks": {
                "address_line1_check": null,
                "address_postal_code_check": "pass",
                "cvc_check": "pass"
            },
            "country": "US",
            "display_brand": "visa",
            "exp_month": 12,
            "exp_year": 2034,
            "fingerprint": "stripesimvisa4242",
            "funding": "credit",
            "generated_from": null,
            "last4": "4242",
            "networks": {"available": ["visa"], "preferred": null},
            "regulated_status": "unregulated",
            "three_d_secure_usage": {"supported": true},
            "wallet": null
        },
        "created": clock::now(),
        "customer": customer,
        "customer_account": null,
        "livemode": false,
        "metadata": {},
        "type": "card"
    }));
    if let Some(c) = store.customer_mut(customer) {
        c["invoice_settings"]["default_payment_method"] = json!(id);
        c["currency"] = json!("usd");
    }
    id
}

/// The customer, or Stripe's `resource_missing` naming `param`.
pub(crate) fn require<'a>(store: &'a Store, id: &str, status: StatusCode, param: &str) -> Result<&'a Value, ApiError> {
    store
        .customer(id)
        .ok_or_else(|| ApiError::no_such(status, "customer", id, param))
}
