//! Prices, their products, and the legacy `plan` view of a price that subscription items
//! still carry. All amounts are USD cents, licensed (not metered), billed per unit.

use serde_json::{Value, json};

use super::{config::PriceSpec, store::Store};

/// The configured price with this ID.
pub(crate) fn price_spec<'a>(store: &'a Store, id: &str) -> Option<&'a PriceSpec> {
    store.config.prices.iter().find(|p| p.id == id)
}

/// The Price object.
pub(crate) fn price_json(spec: &PriceSpec, created: i64) -> Value {
    json!({
        "id": spec.id,
        "object": "price",
        "active": true,
        "billing_scheme": "per_unit",
        "created": created,
        "currency": "usd",
        "custom_unit_amount": null,
        "livemode": false,
        "lookup_key": null,
        "metadata": {},
        "nickname": null,
        "product": spec.product_id(),
        "recurring": {
            "interval": spec.interval,
            "interval_count": 1,
            "meter": null,
            "trial_period_days": null,
            "usage_type": "licensed"
        },
        "tax_behavior": "unspecified",
        "tiers_mode": null,
        "transform_quantity": null,
        "type": "recurring",
        "unit_amount": spec.unit_amount,
        "unit_amount_decimal": spec.unit_amount.to_string()
    })
}

/// The Plan object Stripe still shows next to `price` on subscription items.
pub(crate) fn plan_json(spec: &PriceSpec, created: i64) -> Value {
    json!({
        "id": spec.id,
        "object": "plan",
        "active": true,
        "amount": spec.unit_amount,
        "amount_decimal": spec.unit_amount.to_string(),
        "billing_scheme": "per_unit",
        "created": created,
        "currency": "usd",
        "interval": spec.interval,
        "interval_count": 1,
        "livemode": false,
        "metadata": {},
        "meter": null,
        "nickname": null,
        "product": spec.product_id(),
        "tiers_mode": null,
        "transform_usage": null,
        "trial_period_days": null,
        "usage_type": "licensed"
    })
}

/// The Product object of the product with this ID, if a configured price names it.
pub(crate) fn product_json(store: &Store, id: &str) -> Option<Value> {
    let spec = store.config.prices.iter().find(|p| p.product_id() == id)?;
    let default_price = store
        .config
        .prices
        .iter()
        .find(|p| p.product_id() == id)
        .map(|p| p.id.clone());
    Some(json!({
        "id": id,
        "object": "product",
        "active": true,
        "created": store.catalogue_created,
        "default_price": default_price,
        "description": null,
        "images": [],
        "livemode": false,
        "marketing_features": [],
        "metadata": {},
        "name": spec.product_name,
        "package_dimensions": null,
        "shippable": null,
        "statement_descriptor": null,
        "tax_code": null,
        "type": "service",
        "unit_label": null,
        "updated": store.catalogue_created,
        "url": null
    }))
}
