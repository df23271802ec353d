//! One error envelope for every failure: `{"error": "<code>", "message": "<text>"}`,
//! with the spec's messages where it gives them (see docs/api-design.md).

use leadgen_core::CoreError;
use poem::{Response, http::StatusCode};
use poem_openapi::{ApiResponse, Object, payload::Json};

/// The spec's text for a request without a bearer token.
pub const MISSING_TOKEN: &str = "Authorization header required - no token provided";
/// The spec's text for a token that is invalid, expired or revoked.
pub const SESSION_INVALID: &str = "Authentication required. Please log in again.";
/// What a 500 says: nothing of the cause, which is logged instead.
const INTERNAL: &str = "Something went wrong on our side. Please try again.";

/// The body of every error response.
#[derive(Debug, Clone, Object)]
pub struct ErrorBody {
    /// Machine-readable code, e.g. `invalid_api_key`.
    pub error: String,
    /// Human-readable explanation, safe to show to the user.
    pub message: String,
    /// Present (true) when the user must grant Google Sheets access again.
    #[oai(rename = "needsReauth", skip_serializing_if_is_none)]
    pub needs_reauth: Option<bool>,
}

/// Every way an operation can fail.
#[derive(Debug, ApiResponse)]
pub enum ApiError {
    /// The request cannot be accepted; `message` says why.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No valid session token (missing, malformed, expired, revoked).
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// Nothing of that kind belongs to the caller.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// A usage limit is reached; `message` says which and when it resets.
    #[oai(status = 429)]
    TooManyRequests(Json<ErrorBody>),
    /// An unexpected failure on our side; details are logged, not returned.
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    /// Google (or another upstream) failed in a way the user cannot fix here.
    #[oai(status = 502)]
    BadGateway(Json<ErrorBody>),
    /// A dependency (database, Redis, upstream quota) is unavailable for now.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

pub(crate) fn body(code: &str, message: impl Into<String>) -> Json<ErrorBody> {
    Json(ErrorBody {
        error: code.to_owned(),
        message: message.into(),
        needs_reauth: None,
    })
}

impl ApiError {
    /// 400 with a code and message.
    pub fn bad_request(code: &str, message: impl Into<String>) -> Self {
        Self::BadRequest(body(code, message))
    }

    /// 401 with the spec's message for an unusable session.
    pub fn session_invalid() -> Self {
        Self::Unauthorized(body("unauthorized", SESSION_INVALID))
    }

    /// 404 with a message.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(body("not_found", message))
    }

    /// 502 with a code and message.
    pub fn bad_gateway(code: &str, message: impl Into<String>) -> Self {
        Self::BadGateway(body(code, message))
    }

    /// 503 with a code and message.
    pub fn unavailable(code: &str, message: impl Into<String>) -> Self {
        Self::Unavailable(body(code, message))
    }

    /// 429 with a code and message.
    pub fn too_many(code: &str, message: impl Into<String>) -> Self {
        Self::TooManyRequests(body(code, message))
    }

    /// 500; the cause is logged here and never shown.
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::Internal(body("internal_error", INTERNAL))
    }
}

impl From<CoreError> for ApiError {
    fn from(error: CoreError) -> Self {
        match error {
            CoreError::Invalid(message) => Self::bad_request("invalid_request", message),
            CoreError::Unauthorized(_) => Self::session_invalid(),
            CoreError::NotFound(message) => Self::not_found(message),
            CoreError::Redis(e) => {
                tracing::error!(error = %e, "redis unavailable");
                Self::unavailable(
                    "unavailable",
                    "A backing service is unavailable. Please try again shortly.",
                )
            }
            other => Self::internal(&other),
        }
    }
}

/// Builds the JSON envelope response.
pub fn envelope(status: StatusCode, code: &str, message: &str) -> Response {
    let json = serde_json::json!({ "error": code, "message": message });
    Response::builder()
        .status(status)
        .content_type("application/json; charset=utf-8")
        .body(json.to_string())
}

/// Turns every error that escaped a handler (parse failures, missing auth, unknown
/// routes) into the envelope.
pub async fn render(error: poem::Error) -> Response {
    // Keep the operation id through the conversion: the HTTP metrics label by it.
    let operation = error.data::<poem_openapi::OperationId>().map(|op| op.0);
    let mut response = render_error(error);
    if let Some(op) = operation {
        response.set_data(poem_openapi::OperationId(op));
    }
    response
}

fn render_error(error: poem::Error) -> Response {
    // Our own errors (from handlers and the bearer checker) already carry the envelope.
    if error.is_from_response() {
        return error.into_response();
    }
    let status = error.status();
    if error.is::<poem_openapi::error::AuthorizationError>() {
        return envelope(StatusCode::UNAUTHORIZED, "unauthorized", MISSING_TOKEN);
    }
    match status {
        StatusCode::NOT_FOUND => envelope(status, "not_found", "Not found"),
        StatusCode::METHOD_NOT_ALLOWED => envelope(status, "method_not_allowed", "Method not allowed"),
        s if s.is_client_error() => envelope(status, "invalid_request", &error.to_string()),
        _ => {
            tracing::error!(error = %error, "unhandled error");
            let _ = error.into_response();
            envelope(StatusCode::INTERNAL_SERVER_ERROR, "internal_error", INTERNAL)
        }
    }
}
