//! Google's error bodies, as documented for Google APIs (AIP-193) and observed from
//! Places API (New).

use std::time::Duration;

use poem::{Response, http::StatusCode};
use serde_json::{Value, json};

use crate::sim::google_error::{self, error_info};

/// Faults a key can ask for by containing a marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyFault {
    /// Marker `INVALIDKEY`: 400 `API_KEY_INVALID` (a well-formed key Google does not know).
    Invalid,
    /// Marker `SERVICEDISABLED`: 403 `SERVICE_DISABLED` with an activation URL.
    ServiceDisabled,
    /// Marker `BILLINGDISABLED`: 403 `BILLING_DISABLED`.
    BillingDisabled,
    /// Marker `QUOTAZERO`: 429 `RESOURCE_EXHAUSTED` (a per-minute limit of 0) with `RetryInfo`.
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
            Self::QuotaZero => rate_limited(0, Duration::from_secs(1)),
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

/// 404 `NOT_FOUND` with a message (Place Details of an id Google does not know).
pub fn not_found(message: &str) -> Response {
    google_error(StatusCode::NOT_FOUND, "NOT_FOUND", message, vec![])
}

/// 400 `INVALID_ARGUMENT` with a message.
pub fn invalid_argument(message: &str) -> Response {
    google_error(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", message, vec![])
}

/// 400 for a field-mask path Google does not know (its ESF front end's wording).
pub fn unknown_mask_path(path: &str) -> Response {
    bad_request(&format!(
        "Error expanding 'fields' parameter. Cannot find matching fields for path '{path}'."
    ))
}

/// 400 for a body field the request message does not have (`at`: the enclosing field,
/// for nested messages).
pub fn unknown_body_field(name: &str, at: Option<&str>) -> Response {
    let at = at.map(|a| format!(" at '{a}'")).unwrap_or_default();
    bad_request(&format!(
        "Invalid JSON payload received. Unknown name \"{name}\"{at}: Cannot find field."
    ))
}

/// 400 for a body that is not JSON, or a field of the wrong JSON type.
pub fn invalid_json(detail: &str) -> Response {
    bad_request(&format!("Invalid JSON payload received. {detail}"))
}

/// 400 for an `includedType` outside Table A, as observed from Places API (New).
pub fn invalid_included_type(value: &str) -> Response {
    invalid_argument(&format!(
        "Invalid included_type: '{value}'. See full list of supported types at https://developers.google.com/maps/documentation/places/web-service/supported_types#table1"
    ))
}

/// 400 `INVALID_ARGUMENT` "Request contains an invalid argument." with a
/// `google.rpc.BadRequest` detail saying which.
fn bad_request(description: &str) -> Response {
    google_error(
        StatusCode::BAD_REQUEST,
        "INVALID_ARGUMENT",
        "Request contains an invalid argument.",
        vec![json!({
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            "fieldViolations": [{ "description": description }],
        })],
    )
}

/// 429 `RESOURCE_EXHAUSTED`: the key's project is over its per-minute `SearchTextRequest`
/// quota. `ErrorInfo` (reason `RATE_LIMIT_EXCEEDED`) names the limit; `RetryInfo` says
/// when a retry can succeed.
pub fn rate_limited(limit_per_minute: u32, retry_after: Duration) -> Response {
    google_error(
        StatusCode::TOO_MANY_REQUESTS,
        "RESOURCE_EXHAUSTED",
        "Quota exceeded for quota metric 'SearchTextRequest' and limit 'SearchTextRequest per minute' of service 'places.googleapis.com' for consumer 'project_number:1234567'.",
        vec![
            error_info(
                "RATE_LIMIT_EXCEEDED",
                json!({
                    "service": "places.googleapis.com",
                    "consumer": "projects/1234567",
                    "quota_metric": "places.googleapis.com/SearchTextRequest",
                    "quota_limit": "SearchTextRequestPerMinutePerProject",
                    "quota_limit_value": limit_per_minute.to_string(),
                    "quota_location": "global",
                    "quota_unit": "1/min/{project}",
                }),
            ),
            json!({"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": proto_duration(retry_after)}),
        ],
    )
}

/// 503 `UNAVAILABLE`, Google's answer to a passing back-end failure (retry with backoff).
pub fn unavailable() -> Response {
    google_error(
        StatusCode::SERVICE_UNAVAILABLE,
        "UNAVAILABLE",
        "The service is currently unavailable.",
        vec![],
    )
}

/// A duration in protobuf's JSON form: seconds with 0, 3, 6 or 9 decimals and an `s`.
pub fn proto_duration(d: Duration) -> String {
    let (secs, nanos) = (d.as_secs(), d.subsec_nanos());
    if nanos == 0 {
        format!("{secs}s")
    } else if nanos % 1_000_000 == 0 {
        format!("{secs}.{:03}s", nanos / 1_000_000)
    } else if nanos % 1_000 == 0 {
        format!("{secs}.{:06}s", nanos / 1_000)
    } else {
        format!("{secs}.{nanos:09}s")
    }
}

fn google_error(status: StatusCode, code_name: &str, message: &str, details: Vec<Value>) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json; charset=UTF-8")
        .body(google_error::body(google_error::status(
            status.as_u16(),
            code_name,
            message,
            details,
        )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_use_protobuf_json_form() {
        assert_eq!(proto_duration(Duration::from_secs(30)), "30s");
        assert_eq!(proto_duration(Duration::from_millis(1500)), "1.500s");
        assert_eq!(proto_duration(Duration::from_micros(2_000_001)), "2.000001s");
        assert_eq!(proto_duration(Duration::from_nanos(5)), "0.000000005s");
    }
}
