//! Stripe's error envelope: `{"error": {"type", "code", "message", "param", "doc_url",
//! "request_log_url"}}`, with the status codes Stripe uses for each kind.

use poem::http::StatusCode;
use serde_json::{Map, Value, json};

/// One error answer, before it is rendered for a particular request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    /// `invalid_request_error`, `idempotency_error`, `api_error`, ...
    pub kind: &'static str,
    /// `resource_missing`, `parameter_missing`, ... when Stripe gives one.
    pub code: Option<&'static str>,
    pub message: String,
    pub param: Option<String>,
}

impl ApiError {
    fn new(status: StatusCode, kind: &'static str, code: Option<&'static str>, message: String) -> Self {
        Self {
            status,
            kind,
            code,
            message,
            param: None,
        }
    }

    fn with_param(mut self, param: &str) -> Self {
        self.param = Some(param.to_owned());
        self
    }

    /// 401 without an `Authorization` header.
    pub fn no_api_key() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            None,
            "You did not provide an API key. You need to provide your API key in the Authorization header, \
             using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication \
             for details, or we can help at https://support.stripe.com/."
                .to_owned(),
        )
    }

    /// 401 for a key the simulator does not know; the key is masked as Stripe masks it.
    pub fn invalid_api_key(key: &str) -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            None,
            format!("Invalid API Key provided: {}", mask_key(key)),
        )
    }

    /// 404 (retrieve) or 400 (a reference in a create) for an ID that does not exist.
    pub fn no_such(status: StatusCode, object: &str, id: &str, param: &str) -> Self {
        Self::new(
            status,
            "invalid_request_error",
            Some("resource_missing"),
            format!("No such {object}: '{id}'"),
        )
        .with_param(param)
    }

    /// 400 for a required parameter that was not sent.
    pub fn missing_param(param: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some("parameter_missing"),
            format!("Missing required param: {param}."),
        )
        .with_param(param)
    }

    /// 400 for a parameter the endpoint does not take.
    pub fn unknown_param(param: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some("parameter_unknown"),
            format!("Received unknown parameter: {param}"),
        )
        .with_param(param)
    }

    /// 400 for a parameter whose value is not allowed.
    pub fn invalid_param(param: &str, message: String) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "invalid_request_error", None, message).with_param(param)
    }

    /// 400 for an integer parameter that is not one.
    pub fn invalid_integer(param: &str, value: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            Some("parameter_invalid_integer"),
            format!("Invalid integer: {value}"),
        )
        .with_param(param)
    }

    /// 400 for an `expand` path that names nothing expandable.
    pub fn not_expandable(path: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            None,
            format!("This property cannot be expanded ({path})."),
        )
    }

    /// 400 for an idempotency key reused on another endpoint.
    pub fn idempotency_other_endpoint(key: &str, first: &str, now: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "idempotency_error",
            None,
            format!(
                "Keys for idempotent requests can only be used for the same endpoint they were first used for \
                 ('{first}' vs '{now}'). Try using a key other than '{key}' if you meant to execute a different request."
            ),
        )
    }

    /// 400 for an idempotency key reused with other parameters.
    pub fn idempotency_other_params(key: &str) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "idempotency_error",
            None,
            format!(
                "Keys for idempotent requests can only be used with the same parameters they were first used with. \
                 Try using a key other than '{key}' if you meant to execute a different request."
            ),
        )
    }

    /// 404 for a URL no endpoint serves.
    pub fn unrecognized_url(method: &str, path: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "invalid_request_error",
            None,
            format!(
                "Unrecognized request URL ({method}: {path}). Please see https://stripe.com/docs or we can help at \
                 https://support.stripe.com/."
            ),
        )
    }

    /// The JSON body, with a request log URL for `request_id` as Stripe adds to errors
    /// from authenticated requests.
    pub fn body(&self, request_id: Option<&str>) -> Value {
        let mut error = Map::new();
        if let Some(code) = self.code {
            error.insert("code".into(), json!(code));
            error.insert(
                "doc_url".into(),
                json!(format!(
                    "https://stripe.com/docs/error-codes/{}",
                    code.replace('_', "-")
                )),
            );
        }
        error.insert("message".into(), json!(self.message));
        if let Some(param) = &self.param {
            error.insert("param".into(), json!(param));
        }
        if let Some(id) = request_id {
            error.insert(
                "request_log_url".into(),
                json!(format!("https://dashboard.stripe.com/test/logs/{id}")),
            );
        }
        error.insert("type".into(), json!(self.kind));
        json!({ "error": error })
    }
}

/// `sk_test_abcdefgh1234` → `sk_test_********1234`: Stripe keeps the prefix up to the
/// mode and the last four characters.
fn mask_key(key: &str) -> String {
    let prefix_len = ["sk_test_", "sk_live_", "rk_test_", "rk_live_"]
        .iter()
        .find(|p| key.starts_with(**p))
        .map_or(0, |p| p.len());
    let chars: Vec<char> = key.chars().collect();
    if chars.len() <= prefix_len + 4 {
        return key.to_owned();
    }
    let keep_tail = chars.len() - 4;
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| if i < prefix_len || i >= keep_tail { *c } else { '*' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_masked_but_keep_mode_and_tail() {
        assert_eq!(mask_key("sk_test_abcdefgh1234"), "sk_test_********1234");
        assert_eq!(mask_key("sk_x"), "sk_x");
        assert_eq!(mask_key("whatever1234"), "********1234");
    }

    #[test]
    fn resource_missing_has_stripe_shape() {
        let e = ApiError::no_such(StatusCode::NOT_FOUND, "customer", "cus_x", "id");
        let body = e.body(Some("req_1"));
        assert_eq!(body["error"]["type"], "invalid_request_error");
        assert_eq!(body["error"]["code"], "resource_missing");
        assert_eq!(body["error"]["message"], "No such customer: 'cus_x'");
        assert_eq!(body["error"]["param"], "id");
        assert_eq!(
            body["error"]["doc_url"],
            "https://stripe.com/docs/error-codes/resource-missing"
        );
    }
}
