//! Google's error bodies, as documented for Google APIs (AIP-193) and observed from
//! Places API (New).

use poem::{Response, http::StatusCode};
use serde_json::{Value, json};

/// Faults a key can ask for by containing a marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyFault {
    /// Marker `INVALIDKEY`: 400 `API_KEY_INVALID` (a well-formed key Google does not know).
    Invalid,
    /// Marker `SERVICEDISABLED`: 403 `SERVICE_DISABLED` with an activation URL.
    ServiceDisabled,
    /// Marker `BILLINGDISABLED`: 403 `BILLING_DISABLED`.
    BillingDisabled,
    /// Marker `QUOTAZERO`: 429 `RESOURCE_EXHAUSTED` with `RetryInfo`.
    QuotaZero,
    /// Marker `BLOCKED`: 403 `API_KEY_SERVICE_BLOCKED`.
    ServiceBlocked,
}

impl KeyFault {
    /// The fault a key asks for, if any.
    pub fn of(key: &str) -> Option<Self> {
        [
            ("INVALIDKEY", Self::Invalid),
            ("SERVICEDISABLED", Self::ServiceDisabled),
            ("BILLINGDISABLED", Self::BillingDisabled),
            ("QUOTAZERO", Self::QuotaZero),
            ("BLOCKED", Self::ServiceBlocked),
        ]
        .into_iter()
        .find_map(|(marker, fault)| key.contains(marker).then_some(fault))
    }

    /// Google's answer for this fault.
    pub fn response(self) -> Response {
        match self {
            Self::Invalid => invalid_key(),
            Self::ServiceDisabled => google_error(
                StatusCode::FORBIDDEN,
                "PERMISSION_DENIED",
                "Places API (New) has not been used in project 1234567 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/places.googleapis.com/overview?project=1234567 then retry.",
                vec![error_info(
                    "SERVICE_DISABLED",
                    json!({
                        "consumer": "projects/1234567",
                        "service": "places.googleapis.com",
                        "activationUrl": "https://console.developers.google.com/apis/api/places.googleapis.com/overview?project=1234567"
                    }),
                )],
            ),
            Self::BillingDisabled => google_error(
                StatusCode::FORBIDDEN,
                "PERMISSION_DENIED",
                "This API method requires billing to be enabled. Please enable billing on project #1234567 then retry.",
                vec![error_info(
                    "BILLING_DISABLED",
                    json!({"consumer": "projects/1234567", "service": "places.googleapis.com"}),
                )],
            ),
            Self::QuotaZero => quota_exhausted(1.0),
            Self::ServiceBlocked => google_error(
                StatusCode::FORBIDDEN,
                "PERMISSION_DENIED",
                "Requests to this API places.googleapis.com method google.maps.places.v1.Places.SearchText are blocked.",
                vec![error_info(
                    "API_KEY_SERVICE_BLOCKED",
                    json!({"service": "places.googleapis.com"}),
                )],
            ),
        }
    }
}

/// 400 `API_KEY_INVALID`.
pub fn invalid_key() -> Response {
    google_error(
        StatusCode::BAD_REQUEST,
        "INVALID_ARGUMENT",
        "API key not valid. Please pass a valid API key.",
        vec![error_info(
            "API_KEY_INVALID",
            json!({"service": "places.googleapis.com"}),
        )],
    )
}

/// 403 for a request without any key.
pub fn missing_key() -> Response {
    google_error(
        StatusCode::FORBIDDEN,
        "PERMISSION_DENIED",
        "The request is missing a valid API key.",
        vec![error_info(
            "API_KEY_MISSING",
            json!({"service": "places.googleapis.com"}),
        )],
    )
}

/// 400 for a request without a field mask.
pub fn missing_field_mask() -> Response {
    invalid_argument(
        "FieldMask is a required parameter. See https://cloud.google.com/apis/docs/system-parameters on how to provide it. As an example, you can set the header 'X-Goog-FieldMask' to value 'places.displayName', 'places.id' to ask for the display name and the place ID of a place. You can also set the value to '*' in manual testing to get all the available response fields.",
    )
}

/// 400 `INVALID_ARGUMENT` with a message.
pub fn invalid_argument(message: &str) -> Response {
    google_error(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", message, vec![])
}

/// 429 `RESOURCE_EXHAUSTED` with a `RetryInfo` delay in seconds.
pub fn quota_exhausted(retry_secs: f64) -> Response {
    google_error(
        StatusCode::TOO_MANY_REQUESTS,
        "RESOURCE_EXHAUSTED",
        "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'places.googleapis.com'.",
        vec![
            error_info(
                "RATE_LIMIT_EXCEEDED",
                json!({"service": "places.googleapis.com", "quota_metric": "places.googleapis.com/requests"}),
            ),
            json!({"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": format!("{retry_secs}s")}),
        ],
    )
}

fn error_info(reason: &str, metadata: Value) -> Value {
    json!({
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": reason,
        "domain": "googleapis.com",
        "metadata": metadata,
    })
}

fn google_error(status: StatusCode, code_name: &str, message: &str, details: Vec<Value>) -> Response {
    let mut error = json!({ "code": status.as_u16(), "message": message, "status": code_name });
    if !details.is_empty() {
        error["details"] = Value::Array(details);
    }
    Response::builder()
        .status(status)
        .content_type("application/json; charset=UTF-8")
        .body(json!({ "error": error }).to_string())
}
