//! Builds large objects from several `json!` literals: one literal with every field of an
//! invoice or a Checkout Session exceeds the macro's recursion limit.

use serde_json::{Map, Value};

/// The fields of all `parts` (objects) in one object; later parts win.
pub(crate) fn objects(parts: impl IntoIterator<Item = Value>) -> Value {
    let mut out = Map::new();
    for part in parts {
        if let Value::Object(fields) = part {
            out.extend(fields);
        }
    }
    Value::Object(out)
}
