//! Google's error bodies for Sheets v4 and Drive v3 (AIP-193: `{"error": {code, message,
//! status, details}}`; Drive adds its legacy `errors[]`), and OAuth's token endpoint
//! errors (RFC 6749 §5.2).

use poem::{Response, http::StatusCode};
use serde_json::{Value, json};

use super::config::MAX_BODY_BYTES;

use crate::sim::google_error;

/// Which API answers: Drive adds the legacy `errors[]` array to its envelope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Api {
    Sheets,
    Drive,
}

/// The RPC a request maps to; `ErrorInfo` metadata names it as Google does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Method {
    pub api: Api,
    pub rpc: &'static str,
}

impl Method {
    pub(crate) fn service(self) -> &'static str {
        match self.api {
            Api::Sheets => "sheets.googleapis.com",
            Api::Drive => "drive.googleapis.com",
        }
    }
}

/// Drive v3's legacy error item.
#[derive(Debug, Clone, PartialEq)]
struct Legacy {
    domain: &'static str,
    reason: &'static str,
    message: String,
    location: Option<(&'static str, String)>,
}

/// An error of Sheets or Drive, rendered for either. Boxed, so that `Result`s carrying
/// it stay small.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ApiError(Box<ErrorBody>);

#[derive(Debug, Clone, PartialEq)]
struct ErrorBody {
    status: StatusCode,
    code_name: &'static str,
    message: String,
    details: Vec<Value>,
    legacy: Legacy,
    invalid_token: bool,
}

const INVALID_CREDENTIALS: &str = "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.";
const MISSING_CREDENTIALS: &str = "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.";

impl ApiError {
    fn new(status: StatusCode, code_name: &'static str, message: impl Into<String>) -> Self {
        let message = message.into();
        let (domain, reason) = match status.as_u16() {
            400 => ("global", "badRequest"),
            401 => ("global", "authError"),
            403 => ("global", "forbidden"),
            404 => ("global", "notFound"),
            429 => ("usageLimits", "rateLimitExceeded"),
            _ => ("global", "backendError"),
        };
        Self(Box::new(ErrorBody {
            status,
            code_name,
            legacy: Legacy {
                domain,
                reason,
                message: message.clone(),
                location: None,
            },
            message,
            details: Vec::new(),
            invalid_token: false,
        }))
    }

    fn with_detail(mut self, detail: Value) -> Self {
        self.0.details.push(detail);
        self
    }

    fn with_legacy(mut self, reason: &'static str, message: &str, location: Option<(&'static str, &str)>) -> Self {
        self.0.legacy.reason = reason;
        self.0.legacy.message = message.to_owned();
        self.0.legacy.location = location.map(|(kind, at)| (kind, at.to_owned()));
        self
    }

    /// The `error.message`.
    #[cfg(test)]
    pub(crate) fn message(&self) -> &str {
        &self.0.message
    }

    /// 401 for a request without any credential.
    pub(crate) fn credentials_missing(method: Method) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "UNAUTHENTICATED", MISSING_CREDENTIALS)
            .with_detail(error_info("CREDENTIALS_MISSING", method))
            .with_legacy("required", "Login Required.", Some(("header", "Authorization")))
            .invalid_token()
    }

    /// 401 for an unknown, revoked or expired access token.
    pub(crate) fn invalid_credentials(method: Method, expired: bool) -> Self {
        let reason = if expired {
            "ACCESS_TOKEN_EXPIRED"
        } else {
            "ACCESS_TOKEN_TYPE_UNSUPPORTED"
        };
        Self::new(StatusCode::UNAUTHORIZED, "UNAUTHENTICATED", INVALID_CREDENTIALS)
            .with_detail(error_info(reason, method))
            .with_legacy("authError", "Invalid Credentials", Some(("header", "Authorization")))
            .invalid_token()
    }

    fn invalid_token(mut self) -> Self {
        self.0.invalid_token = true;
        self
    }

    /// 403 for a token without any scope the method accepts.
    pub(crate) fn scope_insufficient(method: Method) -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "PERMISSION_DENIED",
            "Request had insufficient authentication scopes.",
        )
        .with_detail(error_info("ACCESS_TOKEN_SCOPE_INSUFFICIENT", method))
        .with_legacy("insufficientPermissions", "Insufficient Permission", None)
    }

    /// 403 for a spreadsheet the caller may not see.
    pub(crate) fn permission_denied() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "PERMISSION_DENIED",
            "The caller does not have permission",
        )
    }

    /// 404 for an unknown spreadsheet.
    pub(crate) fn not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "NOT_FOUND", "Requested entity was not found.")
    }

    /// 400 `INVALID_ARGUMENT` with a message.
    pub(crate) fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", message)
    }

    /// 400 for a body field the message does not have; `at` is the enclosing field in
    /// proto (snake_case) spelling, as Google writes it.
    pub(crate) fn unknown_field(name: &str, at: &str) -> Self {
        let at_part = if at.is_empty() {
            String::new()
        } else {
            format!(" at '{at}'")
        };
        let description =
            format!("Invalid JSON payload received. Unknown name \"{name}\"{at_part}: Cannot find field.");
        Self::invalid_argument(description.clone()).with_detail(json!({
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            "fieldViolations": [{ "field": at, "description": description }],
        }))
    }

    /// 400 for a body that is not the JSON the method expects.
    pub(crate) fn invalid_json(detail: &str) -> Self {
        Self::invalid_argument(format!("Invalid JSON payload received. {detail}"))
    }

    /// Drive's 400 for a parameter it cannot read (`location`: `q`, `orderBy`, ...).
    pub(crate) fn drive_invalid_value(location: &str) -> Self {
        Self::invalid_argument("Invalid Value").with_legacy("invalid", "Invalid Value", Some(("parameter", location)))
    }

    /// 400 for a body over [`MAX_BODY_BYTES`], with the message of Google's front end.
    pub(crate) fn payload_too_large() -> Self {
        Self::invalid_argument(format!(
            "Request payload size exceeds the limit: {MAX_BODY_BYTES} bytes."
        ))
    }

    /// 429 for an identity over its Sheets write quota.
    pub(crate) fn write_quota_exceeded(limit: u32) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "RESOURCE_EXHAUSTED",
            "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:1234567'.",
        )
        .with_detail(json!({
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "RATE_LIMIT_EXCEEDED",
            "domain": "googleapis.com",
            "metadata": {
                "consumer": "projects/1234567",
                "quota_limit": "WriteRequestsPerMinutePerUser",
                "quota_limit_value": limit.to_string(),
                "quota_location": "global",
                "quota_metric": "sheets.googleapis.com/write_requests",
                "service": "sheets.googleapis.com",
            },
        }))
    }

    /// The answer [`fail_next`](super::GoogleSim::fail_next) injects for `status`, with the
    /// canonical status and message Google pairs with it.
    pub(crate) fn injected(status: u16) -> Self {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let (code_name, message) = match status.as_u16() {
            400 => ("INVALID_ARGUMENT", "Request contains an invalid argument."),
            401 => ("UNAUTHENTICATED", INVALID_CREDENTIALS),
            403 => ("PERMISSION_DENIED", "The caller does not have permission"),
            404 => ("NOT_FOUND", "Requested entity was not found."),
            409 => ("ABORTED", "The operation was aborted."),
            429 => ("RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."),
            500 => ("INTERNAL", "Internal error encountered."),
            501 => (
                "UNIMPLEMENTED",
                "Operation is not implemented, or supported, or enabled.",
            ),
            502 | 503 => ("UNAVAILABLE", "The service is currently unavailable."),
            504 => ("DEADLINE_EXCEEDED", "Deadline expired before operation could complete."),
            _ => ("UNKNOWN", "Unknown Error."),
        };
        let error = Self::new(status, code_name, message);
        if status == StatusCode::UNAUTHORIZED {
            error.invalid_token()
        } else {
            error
        }
    }

    /// The response `api` sends for this error.
    pub(crate) fn into_response(self, api: Api) -> Response {
        let body = *self.0;
        let mut error = google_error::status(body.status.as_u16(), body.code_name, &body.message, body.details);
        if api == Api::Drive {
            let mut item = json!({
                "message": body.legacy.message,
                "domain": body.legacy.domain,
                "reason": body.legacy.reason,
            });
            if let Some((kind, at)) = body.legacy.location {
                item["location"] = json!(at);
                item["locationType"] = json!(kind);
            }
            error["errors"] = json!([item]);
        }
        let mut builder = Response::builder()
            .status(body.status)
            .content_type("application/json; charset=UTF-8");
        if body.invalid_token {
            // Google's front end says why a bearer token failed, per RFC 6750 §3.
            builder = builder.header(
                "WWW-Authenticate",
                "Bearer realm=\"https://accounts.google.com/\", error=\"invalid_token\"",
            );
        }
        builder.body(google_error::body(error))
    }
}

fn error_info(reason: &str, method: Method) -> Value {
    google_error::error_info(reason, json!({ "service": method.service(), "method": method.rpc }))
}

/// The token endpoint's error body: `{"error": code, "error_description": text}`.
pub(crate) fn oauth_error(status: StatusCode, code: &str, description: &str) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json; charset=utf-8")
        .header("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate")
        .body(json!({ "error": code, "error_description": description }).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: Method = Method {
        api: Api::Drive,
        rpc: "google.apps.drive.v3.DriveFiles.List",
    };

    async fn body(response: Response) -> Value {
        let text = response.into_body().into_string().await.expect("body");
        serde_json::from_str(&text).expect("json")
    }

    #[tokio::test]
    async fn drive_errors_carry_the_legacy_array() {
        let value = body(ApiError::drive_invalid_value("q").into_response(Api::Drive)).await;
        assert_eq!(
            value,
            json!({"error": {
                "code": 400, "message": "Invalid Value", "status": "INVALID_ARGUMENT",
                "errors": [{"message": "Invalid Value", "domain": "global", "reason": "invalid",
                            "location": "q", "locationType": "parameter"}],
            }})
        );
        let sheets = body(ApiError::not_found().into_response(Api::Sheets)).await;
        assert!(sheets["error"].get("errors").is_none());
    }

    #[tokio::test]
    async fn auth_failures_say_why_in_a_header() {
        let response = ApiError::invalid_credentials(LIST, true).into_response(Api::Drive);
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert!(
            response
                .headers()
                .get("www-authenticate")
                .is_some_and(|v| v.to_str().is_ok_and(|v| v.contains("invalid_token")))
        );
        let value = body(response).await;
        assert_eq!(value["error"]["details"][0]["reason"], "ACCESS_TOKEN_EXPIRED");
        assert_eq!(value["error"]["errors"][0]["reason"], "authError");
    }
}
