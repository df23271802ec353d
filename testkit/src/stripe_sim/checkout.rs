//! Checkout Sessions: `POST /v1/checkout/sessions`, their line items, and where their
//! hosted page lives.

use poem::http::StatusCode;
use serde_json::{Value, json};

use super::{
    catalogue, clock,
    config::{PageHost, STRIPE_CHECKOUT_HOST},
    customer,
    errors::ApiError,
    form::Params,
    ids, join, list,
    store::{CheckoutRecord, LineItem, Store},
};

/// How long an open session stays usable, as Stripe's default.
const EXPIRES_AFTER_SECS: i64 = 24 * 60 * 60;

/// The template Stripe replaces with the session ID in `success_url`.
pub const SESSION_ID_TEMPLATE: &str = "{CHECKOUT_SESSION_ID}";

/// Parameters `POST /v1/checkout/sessions` takes (Stripe's full list; the ones not
/// modelled are accepted and ignored).
const CREATE_PARAMS: &[&str] = &[
    "adaptive_pricing",
    "after_expiration",
    "allow_promotion_codes",
    "allowed_payment_method_types",
    "automatic_tax",
    "billing_address_collection",
    "branding_settings",
    "cancel_url",
    "client_reference_id",
    "consent_collection",
    "currency",
    "custom_fields",
    "custom_text",
    "customer",
    "customer_account",
    "customer_creation",
    "customer_email",
    "customer_update",
    "discounts",
    "excluded_payment_method_types",
    "expand",
    "expires_at",
    "integration_identifier",
    "invoice_creation",
    "line_items",
    "locale",
    "managed_payments",
    "metadata",
    "mode",
    "name_collection",
    "optional_items",
    "origin_context",
    "payment_intent_data",
    "payment_method_collection",
    "payment_method_configuration",
    "payment_method_data",
    "payment_method_options",
    "permissions",
    "phone_number_collection",
    "redirect_on_completion",
    "return_url",
    "saved_payment_method_options",
    "setup_intent_data",
    "shipping_address_collection",
    "shipping_options",
    "submit_type",
    "subscription_data",
    "success_url",
    "tax_id_collection",
    "ui_mode",
    "wallet_options",
];

/// `POST /v1/checkout/sessions`, checked in the order Stripe reports problems: unknown
/// parameters, required ones, then references to other objects.
pub(crate) fn create(store: &mut Store, params: &Params) -> Result<CheckoutRecord, ApiError> {
    if let Some(key) = params.unknown_key(CREATE_PARAMS) {
        return Err(ApiError::unknown_param(key));
    }
    let mode = params.str(&["mode"]).ok_or_else(|| ApiError::missing_param("mode"))?;
    if !["payment", "setup", "subscription"].contains(&mode) {
        return Err(ApiError::invalid_param(
            "mode",
            format!("Invalid mode: must be one of payment, setup, or subscription (got {mode})."),
        ));
    }
    if mode != "subscription" {
        return Err(ApiError::invalid_param(
            "mode",
            format!("stripe-sim only simulates Checkout in subscription mode, not {mode}."),
        ));
    }
    if let Some(ui_mode) = params.str(&["ui_mode"]).filter(|m| *m != "hosted_page") {
        return Err(ApiError::invalid_param(
            "ui_mode",
            format!("stripe-sim only simulates the hosted_page ui_mode, not {ui_mode}."),
        ));
    }
    let allow_promotion_codes = match params.str(&["allow_promotion_codes"]) {
        None => None,
        Some(text) => Some(parse_bool("allow_promotion_codes", text)?),
    };
    let line_items = line_items(store, params)?;
    let customer = match params.str(&["customer"]) {
        Some(id) => Some(customer::require(store, id, StatusCode::BAD_REQUEST, "customer")?["id"].clone()),
        None => None,
    };

    let id = ids::checkout_session();
    let created = clock::now();
    let amount: i64 = line_items.iter().map(|li| amount_of(store, li)).sum();
    let first = json!({
        "id": id,
        "object": "checkout.session",
        "adaptive_pricing": null,
        "after_expiration": null,
        "allow_promotion_codes": allow_promotion_codes,
        "amount_subtotal": amount,
        "amount_total": amount,
        "automatic_tax": {"enabled": false, "liability": null, "provider": null, "status": null},
        "billing_address_collection": params.str(&["billing_address_collection"]),
        "cancel_url": params.str(&["cancel_url"]),
        "client_reference_id": params.str(&["client_reference_id"]),
        "client_secret": null,
        "consent": null,
        "consent_collection": null,
        "created": created,
        "currency": "usd",
        "currency_conversion": null,
        "custom_fields": [],
        "custom_text": {"after_submit": null, "shipping_address": null, "submit": null, "terms_of_service_acceptance": null},
        "customer": customer,
        "customer_account": null,
        "customer_creation": if customer.is_some() { Value::Null } else { json!("always") },
        "customer_details": null,
        "customer_email": params.str(&["customer_email"]),
        "discounts": [],
        "expires_at": created + EXPIRES_AFTER_SECS,
        "integration_identifier": null,
        "invoice": null,
        "invoice_creation": null
    });
    let second = json!({
        "livemode": false,
        "locale": params.str(&["locale"]),
        "metadata": params.string_map(&["metadata"]),
        "mode": mode,
        "origin_context": null,
        "payment_intent": null,
        "payment_link": null,
        "payment_method_collection": "always",
        "payment_method_configuration_details": null,
        "payment_method_options": {"card": {"request_three_d_secure": "automatic"}},
        "payment_method_types": ["card"],
        "payment_status": "unpaid",
        "permissions": null,
        "phone_number_collection": {"enabled": false},
        "recovered_from": null,
        "saved_payment_method_options": {
            "allow_redisplay_filters": ["always"],
            "payment_method_remove": "disabled",
            "payment_method_save": null
        },
        "setup_intent": null,
        "shipping_address_collection": null,
        "shipping_cost": null,
        "shipping_options": [],
        "status": "open",
        "submit_type": null,
        "subscription": null,
        "success_url": params.str(&["success_url"]),
        "total_details": {"amount_discount": 0, "amount_shipping": 0, "amount_tax": 0},
        "ui_mode": "hosted_page",
        "url": page_url(store, &id),
        "wallet_options": null
    });
    let json = join::objects([first, second]);
    let record = CheckoutRecord {
        json,
        line_item_ids: line_items.iter().map(|_| ids::checkout_line_item()).collect(),
        line_items,
        subscription_metadata: params.string_map(&["subscription_data", "metadata"]),
    };
    store.checkout_sessions.push(record.clone());
    Ok(record)
}

/// Reads `line_items[i][price]` and `line_items[i][quantity]`; every price must exist.
fn line_items(store: &Store, params: &Params) -> Result<Vec<LineItem>, ApiError> {
    let raw = params.array(&["line_items"]);
    if raw.is_empty() {
        return Err(ApiError::missing_param("line_items"));
    }
    let mut items = Vec::with_capacity(raw.len());
    for (i, item) in raw.iter().enumerate() {
        let field = |name: &str| item.get(name).and_then(Value::as_str).filter(|s| !s.is_empty());
        if item.get("price_data").is_some() {
            return Err(ApiError::invalid_param(
                &format!("line_items[{i}][price_data]"),
                "stripe-sim only knows configured prices; pass line_items[i][price].".to_owned(),
            ));
        }
        let price_param = format!("line_items[{i}][price]");
        let price = field("price").ok_or_else(|| ApiError::missing_param(&price_param))?;
        if catalogue::price_spec(store, price).is_none() {
            return Err(ApiError::no_such(StatusCode::BAD_REQUEST, "price", price, &price_param));
        }
        let quantity_param = format!("line_items[{i}][quantity]");
        let quantity_text = field("quantity").ok_or_else(|| ApiError::missing_param(&quantity_param))?;
        let quantity: u64 = quantity_text
            .parse()
            .map_err(|_| ApiError::invalid_integer(&quantity_param, quantity_text))?;
        items.push(LineItem {
            price: price.to_owned(),
            quantity,
        });
    }
    Ok(items)
}

fn parse_bool(param: &str, text: &str) -> Result<bool, ApiError> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(ApiError::invalid_param(param, format!("Invalid boolean: {other}"))),
    }
}

/// Price times quantity, in cents.
pub(crate) fn amount_of(store: &Store, item: &LineItem) -> i64 {
    let unit = catalogue::price_spec(store, &item.price).map_or(0, |p| p.unit_amount);
    unit.saturating_mul(i64::try_from(item.quantity).unwrap_or(i64::MAX))
}

/// Where the customer pays: Stripe's host, or the simulator's own page.
fn page_url(store: &Store, id: &str) -> String {
    match &store.config.page_host {
        PageHost::Stripe => format!("{STRIPE_CHECKOUT_HOST}/c/pay/{id}"),
        PageHost::Sim => format!("{}/_sim/checkout/{id}", store.base_url),
        PageHost::Base(base) => format!("{}/_sim/checkout/{id}", base.trim_end_matches('/')),
    }
}

/// The session's line items as the list object `expand[]=line_items` (and
/// `GET /v1/checkout/sessions/{id}/line_items`) shows.
pub(crate) fn line_items_list(store: &Store, record: &CheckoutRecord) -> Value {
    let id = record.json["id"].as_str().unwrap_or_default();
    let items: Vec<Value> = record
        .line_items
        .iter()
        .zip(&record.line_item_ids)
        .map(|(item, item_id)| {
            let spec = catalogue::price_spec(store, &item.price);
            let amount = amount_of(store, item);
            json!({
                "id": item_id,
                "object": "item",
                "amount_discount": 0,
                "amount_subtotal": amount,
                "amount_tax": 0,
                "amount_total": amount,
                "currency": "usd",
                "description": spec.map(|s| s.product_name.clone()),
                "metadata": {},
                "price": spec.map(|s| catalogue::price_json(s, store.catalogue_created)),
                "quantity": item.quantity
            })
        })
        .collect();
    list::whole(items, &format!("/v1/checkout/sessions/{id}/line_items"))
}

/// `success_url` with `{CHECKOUT_SESSION_ID}` replaced, where the browser goes after paying.
pub(crate) fn success_redirect(record: &CheckoutRecord) -> Option<String> {
    let id = record.json["id"].as_str()?;
    record.json["success_url"]
        .as_str()
        .map(|url| url.replace(SESSION_ID_TEMPLATE, id))
}
