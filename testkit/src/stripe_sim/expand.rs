//! `expand[]=...`: replaces an ID with the object it names, following dotted paths
//! (`subscription.latest_invoice`, `data.customer` in lists) as Stripe does.

use serde_json::Value;

use super::{catalogue, errors::ApiError, store::Store};

/// Expands every path in `paths` inside `object`.
pub(crate) fn apply(store: &Store, object: &mut Value, paths: &[String]) -> Result<(), ApiError> {
    for path in paths {
        let segments: Vec<&str> = path.split('.').collect();
        expand_path(store, object, &segments, path)?;
    }
    Ok(())
}

fn expand_path(store: &Store, node: &mut Value, segments: &[&str], full: &str) -> Result<(), ApiError> {
    let Some((field, rest)) = segments.split_first() else {
        return Ok(());
    };
    if node["object"] == "list" && *field == "data" {
        if let Some(items) = node["data"].as_array_mut() {
            for item in items {
                expand_path(store, item, rest, full)?;
            }
        }
        return Ok(());
    }
    let Some(target) = node.as_object_mut().and_then(|map| map.get_mut(*field)) else {
        return Err(ApiError::not_expandable(full));
    };
    if let Some(id) = target.as_str() {
        *target = lookup(store, id).ok_or_else(|| ApiError::not_expandable(full))?;
    }
    if target.is_null() {
        return Ok(());
    }
    if !target.is_object() {
        return Err(ApiError::not_expandable(full));
    }
    expand_path(store, target, rest, full)
}

/// The object an ID names, by its prefix.
fn lookup(store: &Store, id: &str) -> Option<Value> {
    let found = match id.split('_').next()? {
        "cus" => store.customer(id).cloned(),
        "sub" => store.subscription(id).cloned(),
        "in" => store.invoice(id).cloned(),
        "pm" => store.payment_method(id).cloned(),
        "cs" => store.session(id).map(|r| r.json.clone()),
        "prod" => catalogue::product_json(store, id),
        _ => None,
    };
    found.or_else(|| catalogue::price_spec(store, id).map(|p| catalogue::price_json(p, store.catalogue_created)))
}
