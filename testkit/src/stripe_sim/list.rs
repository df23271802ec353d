//! Stripe's list object and cursor pagination (`limit`, `starting_after`, `ending_before`).

use serde_json::{Value, json};

use super::{errors::ApiError, form::Params};

/// Stripe's page size when `limit` is not given.
pub const DEFAULT_LIMIT: usize = 10;
/// The largest `limit` Stripe accepts.
pub const MAX_LIMIT: usize = 100;

/// A list object holding `items` as they are, without pagination.
pub(crate) fn whole(items: Vec<Value>, url: &str) -> Value {
    json!({
        "object": "list",
        "data": items,
        "has_more": false,
        "url": url
    })
}

/// One page of `items` (already in Stripe's order, newest first) as a list object.
pub(crate) fn page(items: Vec<Value>, params: &Params, url: &str) -> Result<Value, ApiError> {
    let limit = match params.str(&["limit"]) {
        None => DEFAULT_LIMIT,
        Some(text) => {
            let n: usize = text.parse().map_err(|_| ApiError::invalid_integer("limit", text))?;
            if !(1..=MAX_LIMIT).contains(&n) {
                return Err(ApiError::invalid_param(
                    "limit",
                    format!("Invalid limit: {n}. Must be between 1 and {MAX_LIMIT}."),
                ));
            }
            n
        }
    };
    let position = |id: &str| items.iter().position(|v| v["id"] == id);
    let (start, end) = if let Some(after) = params.str(&["starting_after"]) {
        let i = position(after).ok_or_else(|| invalid_cursor("starting_after", after))?;
        (i + 1, (i + 1 + limit).min(items.len()))
    } else if let Some(before) = params.str(&["ending_before"]) {
        let i = position(before).ok_or_else(|| invalid_cursor("ending_before", before))?;
        (i.saturating_sub(limit), i)
    } else {
        (0, limit.min(items.len()))
    };
    let has_more = if params.str(&["ending_before"]).is_some() {
        start > 0
    } else {
        end < items.len()
    };
    let data: Vec<Value> = items.into_iter().skip(start).take(end - start).collect();
    Ok(json!({
        "object": "list",
        "data": data,
        "has_more": has_more,
        "url": url
    }))
}

fn invalid_cursor(param: &str, id: &str) -> ApiError {
    ApiError::invalid_param(param, format!("Invalid {param}: {id} is not an object in this list."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(n: usize) -> Vec<Value> {
        (0..n).map(|i| json!({"id": format!("x_{i}")})).collect()
    }

    #[test]
    fn pages_with_cursors() {
        let first = page(items(5), &Params::parse(b"limit=2"), "/v1/x").unwrap_or_default();
        assert_eq!(first["data"].as_array().map(Vec::len), Some(2));
        assert_eq!(first["has_more"], true);
        let next = page(items(5), &Params::parse(b"limit=2&starting_after=x_3"), "/v1/x").unwrap_or_default();
        assert_eq!(next["data"][0]["id"], "x_4");
        assert_eq!(next["has_more"], false);
        let back = page(items(5), &Params::parse(b"limit=2&ending_before=x_3"), "/v1/x").unwrap_or_default();
        assert_eq!(back["data"][0]["id"], "x_1");
        assert_eq!(back["has_more"], true);
    }

    #[test]
    fn rejects_bad_limits() {
        assert!(page(items(1), &Params::parse(b"limit=abc"), "/v1/x").is_err());
        assert!(page(items(1), &Params::parse(b"limit=0"), "/v1/x").is_err());
        assert!(page(items(1), &Params::parse(b"limit=101"), "/v1/x").is_err());
    }
}
