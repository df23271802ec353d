//! One error envelope for every failure: `{"error": "<code>", "message": "<text>"}`,
//! with the spec's messages where it gives them (see docs/api-design.md).

use leadgen_core::CoreError;
use poem::{Response, http::StatusCode};
use poem_openapi::{ApiResponse, Object, payload::Json};

/// The spec's text for a request without a bearer token.
pub const MISSING_TOKEN: &str = "Authorization header required - no token provided";
/// The spec's text for a token that is invalid, expired or revoked.
pub const SESSION_INVALID: &str = "Authentication required. Please log in again.";
/// What a 401 says for a personal token that does not work.
pub const TOKEN_INVALID: &str = "This API token is invalid, expired or revoked.";
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
    /// The credential is valid but may not do this: an API token without the scope the
    /// operation needs, or one used where a signed-in session is required.
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// Nothing of that kind belongs to the caller.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// The request conflicts with what exists (e.g. inviting someone who is already a
    /// member); `message` says what.
    #[oai(status = 409)]
    Conflict(Json<ErrorBody>),
    /// It existed, but what was asked for is gone (a finished search's results, kept in
    /// memory for minutes only).
    #[oai(status = 410)]
    Gone(Json<ErrorBody>),
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

    /// 401 for a personal token that is unknown, expired or revoked.
    pub fn token_invalid() -> Self {
        Self::Unauthorized(body("unauthorized", TOKEN_INVALID))
    }

    /// 403 with a code and message.
    pub fn forbidden(code: &str, message: impl Into<String>) -> Self {
        Self::Forbidden(body(code, message))
    }

    /// 404 with a message.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(body("not_found", message))
    }

    /// 409 with a code and message.
    pub fn conflict(code: &str, message: impl Into<String>) -> Self {
        Self::Conflict(body(code, message))
    }

    /// 410 with a code and message.
    pub fn gone(code: &str, message: impl Into<String>) -> Self {
        Self::Gone(body(code, message))
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

    /// The value a stored word names (`core::words`); a word no version wrote is a
    /// corrupt row: 500, the column named in the log.
    pub fn stored<T: serde::de::DeserializeOwned>(column: &str, word: &str) -> Result<T, Self> {
        leadgen_core::words::parse(word).ok_or_else(|| Self::internal(&format!("{column} holds '{word}'")))
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
            // The store cannot be reached (stopped, restarting, unreachable): say so as
            // a 503 the client may retry, as for Redis, not as our own failure.
            e if e.is_store_unreachable() => {
                tracing::error!(error = %e, "database unavailable");
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
        // A body the operation could not read: `payload_errors` rewords it from the body.
        StatusCode::BAD_REQUEST if error.is::<poem_openapi::error::ParseRequestPayloadError>() => {
            let mut response = envelope(
                status,
                "invalid_request",
                "The body does not match what this operation takes: see its schema in /api/docs.",
            );
            response.set_data(crate::payload_errors::PayloadRejected);
            response
        }
        StatusCode::BAD_REQUEST
            if error.is::<poem_openapi::error::ParseParamError>()
                || error.is::<poem_openapi::error::ParsePathError>() =>
        {
            let message = error.to_string();
            let plain = crate::payload_errors::explain_parameter(&message).unwrap_or(message);
            envelope(status, "invalid_request", &plain)
        }
        s if s.is_client_error() => envelope(status, "invalid_request", &error.to_string()),
        _ => {
            tracing::error!(error = %error, "unhandled error");
            let _ = error.into_response();
            envelope(StatusCode::INTERNAL_SERVER_ERROR, "internal_error", INTERNAL)
        }
    }
}

/// Statuses an operation may fail with, as bits for [`Fails`]. 500 is always possible.
pub mod status {
    /// 400: the request cannot be accepted.
    pub const BAD_REQUEST: u16 = 1 << 0;
    /// 401: no valid session token.
    pub const UNAUTHORIZED: u16 = 1 << 1;
    /// 404: the thing looked up is not the caller's (or does not exist).
    pub const NOT_FOUND: u16 = 1 << 2;
    /// 429: a usage limit is reached.
    pub const TOO_MANY_REQUESTS: u16 = 1 << 3;
    /// 502: an upstream (Google, Stripe) failed.
    pub const BAD_GATEWAY: u16 = 1 << 4;
    /// 503: a dependency is unavailable for now (Redis, an upstream quota, or a
    /// feature this server has not configured).
    pub const UNAVAILABLE: u16 = 1 << 5;
    /// 410: what was asked for existed and is gone.
    pub const GONE: u16 = 1 << 6;
    /// 403: an API token may not do this (scope, or a session is needed).
    pub const FORBIDDEN: u16 = 1 << 7;
    /// 409: it conflicts with what exists.
    pub const CONFLICT: u16 = 1 << 8;
}

impl ApiError {
    /// This error's bit in [`status`] (0 for 500, which every operation may answer).
    fn status_bit(&self) -> u16 {
        match self {
            Self::BadRequest(_) => status::BAD_REQUEST,
            Self::Unauthorized(_) => status::UNAUTHORIZED,
            Self::Forbidden(_) => status::FORBIDDEN,
            Self::NotFound(_) => status::NOT_FOUND,
            Self::Conflict(_) => status::CONFLICT,
            Self::Gone(_) => status::GONE,
            Self::TooManyRequests(_) => status::TOO_MANY_REQUESTS,
            Self::Internal(_) => 0,
            Self::BadGateway(_) => status::BAD_GATEWAY,
            Self::Unavailable(_) => status::UNAVAILABLE,
        }
    }
}

/// The errors one operation documents and can return: [`ApiError`] restricted to the
/// statuses in `ALLOWED` (bits of [`status`]; 500 is always allowed). Its OpenAPI
/// description lists exactly those, so an integrator sees what the operation really
/// answers. An error outside the set is a bug: tests panic on it (debug builds), and a
/// release build logs it and answers 500 rather than break the contract.
#[derive(Debug)]
pub struct Fails<const ALLOWED: u16>(pub ApiError);

impl<const ALLOWED: u16> From<ApiError> for Fails<ALLOWED> {
    fn from(error: ApiError) -> Self {
        let bit = error.status_bit();
        if bit != 0 && ALLOWED & bit == 0 {
            debug_assert!(false, "an undocumented error for this operation: {error:?}");
            return Self(ApiError::internal(&format!(
                "undocumented error for this operation: {error:?}"
            )));
        }
        Self(error)
    }
}

impl<const ALLOWED: u16> From<CoreError> for Fails<ALLOWED> {
    fn from(error: CoreError) -> Self {
        ApiError::from(error).into()
    }
}

impl<const ALLOWED: u16> poem::IntoResponse for Fails<ALLOWED> {
    fn into_response(self) -> Response {
        self.0.into_response()
    }
}

impl<const ALLOWED: u16> poem_openapi::ApiResponse for Fails<ALLOWED> {
    fn meta() -> poem_openapi::registry::MetaResponses {
        let mut meta = ApiError::meta();
        meta.responses.retain(|r| match r.status {
            Some(500) => true,
            Some(code) => ALLOWED & bit_of(code) != 0,
            None => false,
        });
        meta
    }

    fn register(registry: &mut poem_openapi::registry::Registry) {
        ApiError::register(registry);
    }
}

impl<const ALLOWED: u16> From<Fails<ALLOWED>> for poem::Error {
    fn from(fails: Fails<ALLOWED>) -> Self {
        poem::Error::from_response(poem::IntoResponse::into_response(fails))
    }
}

fn bit_of(code: u16) -> u16 {
    match code {
        400 => status::BAD_REQUEST,
        401 => status::UNAUTHORIZED,
        403 => status::FORBIDDEN,
        404 => status::NOT_FOUND,
        409 => status::CONFLICT,
        410 => status::GONE,
        429 => status::TOO_MANY_REQUESTS,
        502 => status::BAD_GATEWAY,
        503 => status::UNAVAILABLE,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use poem_openapi::ApiResponse;

    use super::{status::*, *};

    #[test]
    fn an_operation_documents_only_its_statuses() {
        let documented: Vec<u16> = Fails::<{ UNAUTHORIZED | BAD_GATEWAY }>::meta()
            .responses
            .iter()
            .filter_map(|r| r.status)
            .collect();
        assert_eq!(documented, vec![401, 500, 502]);
        let within = Fails::<{ UNAUTHORIZED }>::from(ApiError::session_invalid());
        assert!(matches!(within.0, ApiError::Unauthorized(_)));
    }

    #[test]
    #[cfg(not(debug_assertions))]
    fn an_undocumented_error_becomes_a_500() {
        let outside = Fails::<{ UNAUTHORIZED }>::from(ApiError::not_found("x"));
        assert!(matches!(outside.0, ApiError::Internal(_)));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "undocumented error")]
    fn an_undocumented_error_fails_tests() {
        let _ = Fails::<{ UNAUTHORIZED }>::from(ApiError::not_found("x"));
    }
}
