//! Google's JSON error envelope for its REST APIs (AIP-193): `{"error": {"code",
//! "message", "status", "details"?}}`, with `google.rpc` detail messages.

use serde_json::{Value, json};

/// The `error` object: HTTP `code`, `message`, the canonical `status` name, and
/// `details` when there are any.
pub fn status(code: u16, status_name: &str, message: &str, details: Vec<Value>) -> Value {
    let mut error = json!({ "code": code, "message": message, "status": status_name });
    if !details.is_empty() {
        error["details"] = Value::Array(details);
    }
    error
}

/// The whole body: `{"error": ...}`.
pub fn body(error: Value) -> String {
    json!({ "error": error }).to_string()
}

/// A `google.rpc.ErrorInfo` detail from `googleapis.com`.
pub fn error_info(reason: &str, metadata: Value) -> Value {
    json!({
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": reason,
        "domain": "googleapis.com",
        "metadata": metadata,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_has_details_only_when_given() {
        let bare = status(404, "NOT_FOUND", "Requested entity was not found.", vec![]);
        assert_eq!(
            bare,
            json!({"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND"})
        );
        let info = error_info("API_KEY_INVALID", json!({"service": "places.googleapis.com"}));
        let full: Value = serde_json::from_str(&body(status(400, "INVALID_ARGUMENT", "m", vec![info]))).expect("json");
        assert_eq!(full["error"]["details"][0]["reason"], "API_KEY_INVALID");
        assert_eq!(
            full["error"]["details"][0]["@type"],
            "type.googleapis.com/google.rpc.ErrorInfo"
        );
    }
}
