//! Applying a Google field mask to a response: only the named fields come back.

use serde_json::{Value, json};

/// Keeps only the fields named by a Google field mask (`places.id,places.displayName`;
/// `*` keeps all). A place lacking a requested field comes back without it (`{}` when it
/// has none of them), as Google omits empty fields.
pub fn apply_field_mask(response: &Value, mask: &str) -> Value {
    let paths: Vec<Vec<&str>> = mask
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| p.split('.').collect())
        .collect();
    if paths.iter().any(|p| p == &["*"]) {
        return response.clone();
    }
    let mut out = json!({});
    for path in &paths {
        copy_path(response, &mut out, path);
    }
    out
}

fn copy_path(from: &Value, to: &mut Value, path: &[&str]) {
    let Some((head, rest)) = path.split_first() else {
        *to = from.clone();
        return;
    };
    match from {
        Value::Array(items) => {
            // First path through this array: one empty object per item, which later
            // paths fill in further.
            if to.as_array().is_none_or(|t| t.len() != items.len()) {
                *to = Value::Array(items.iter().map(|_| json!({})).collect());
            }
            if let Value::Array(targets) = to {
                for (item, target) in items.iter().zip(targets.iter_mut()) {
                    copy_path(item, target, path);
                }
            }
        }
        Value::Object(map) => {
            if let Some(child) = map.get(*head) {
                let slot = to
                    .as_object_mut()
                    .map(|o| o.entry(head.to_string()).or_insert(Value::Null));
                if let Some(slot) = slot {
                    if rest.is_empty() {
                        *slot = child.clone();
                    } else {
                        if slot.is_null() {
                            *slot = if child.is_array() {
                                Value::Array(vec![])
                            } else {
                                json!({})
                            };
                        }
                        copy_path(child, slot, rest);
                    }
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_mask_keeps_only_named_fields() {
        let full = json!({"places": [{"id": "a", "displayName": {"text": "A"}, "rating": 4.5}], "nextPageToken": "t"});
        assert_eq!(apply_field_mask(&full, "places.id"), json!({"places": [{"id": "a"}]}));
        assert_eq!(
            apply_field_mask(&full, "places.displayName,nextPageToken"),
            json!({"places": [{"displayName": {"text": "A"}}], "nextPageToken": "t"})
        );
        assert_eq!(
            apply_field_mask(&full, "places.displayName.text,places.rating"),
            json!({"places": [{"displayName": {"text": "A"}, "rating": 4.5}]})
        );
        assert_eq!(apply_field_mask(&full, "*"), full);
    }

    #[test]
    fn places_missing_a_field_come_back_without_it() {
        let full = json!({"places": [{"id": "a", "websiteUri": "https://a.example.com/"}, {"id": "b"}]});
        assert_eq!(
            apply_field_mask(&full, "places.websiteUri"),
            json!({"places": [{"websiteUri": "https://a.example.com/"}, {}]})
        );
    }
}
