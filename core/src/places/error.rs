//! Upstream failures of Places API (New), parsed from Google's documented error body
//! (`{"error": {"code", "message", "status", "details": [ErrorInfo, RetryInfo, ...]}}`)
//! into specific, user-facing messages.

use std::time::Duration;

use serde::Deserialize;

/// What went wrong talking to Google.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacesError {
    /// 400 `API_KEY_INVALID`: the key does not exist or was deleted.
    #[error(
        "Your Google Places API key is not valid. Check that you copied the whole key from the Google Cloud console."
    )]
    InvalidKey,
    /// 403 `SERVICE_DISABLED`: Places API (New) is not enabled in the key's project.
    #[error(
        "Places API (New) is not enabled for your Google Cloud project. Enable it at {activation_url} and try again in a few minutes."
    )]
    ApiNotEnabled {
        /// Google's link to enable the API for this project.
        activation_url: String,
    },
    /// 403 `BILLING_DISABLED`: the project has no billing account.
    #[error(
        "Billing is not enabled for your Google Cloud project. Google requires a billing account for the Places API: add one in the Cloud console (Billing) and try again."
    )]
    BillingDisabled,
    /// 403 `API_KEY_SERVICE_BLOCKED` and similar: the key's restrictions forbid this call.
    #[error(
        "Your API key is restricted and may not call Places API (New). In the Cloud console, edit the key's API restrictions to allow 'Places API (New)'."
    )]
    KeyRestricted,
    /// 429 `RESOURCE_EXHAUSTED`: quota used up, for now.
    #[error(
        "Your Google Places API quota is exhausted for now. Wait a minute and try again, or raise the quota in the Google Cloud console."
    )]
    QuotaExhausted {
        /// Google's `RetryInfo.retryDelay`, when given.
        retry_after: Option<Duration>,
    },
    /// Any other 4xx/5xx from Google.
    #[error("Google Places returned an error ({status}): {detail}")]
    Upstream {
        /// HTTP status.
        status: u16,
        /// Google's message.
        detail: String,
    },
    /// No answer in time.
    #[error("Google Places did not answer in time. Try again in a moment.")]
    Timeout,
    /// Could not reach Google at all.
    #[error("Could not reach Google Places: {0}")]
    Network(String),
}

impl PlacesError {
    /// Whether the failure says the key itself is unusable (as opposed to a passing fault).
    pub fn is_key_problem(&self) -> bool {
        matches!(
            self,
            Self::InvalidKey | Self::ApiNotEnabled { .. } | Self::BillingDisabled | Self::KeyRestricted
        )
    }

    /// Whether trying again later may succeed (quota, 5xx, time-outs, network).
    pub fn is_transient(&self) -> bool {
        match self {
            Self::QuotaExhausted { .. } | Self::Timeout | Self::Network(_) => true,
            Self::Upstream { status, .. } => *status >= 500,
            _ => false,
        }
    }

    pub(crate) fn from_transport(error: reqwest::Error) -> Self {
        if error.is_timeout() {
            Self::Timeout
        } else {
            Self::Network(error.without_url().to_string())
        }
    }

    /// Interprets a non-success answer from Google.
    pub fn from_response(status: u16, body: &[u8]) -> Self {
        let parsed: Option<GoogleError> = serde_json::from_slice::<ErrorEnvelope>(body).ok().map(|e| e.error);
        let detail = parsed.as_ref().map(|e| e.message.clone()).unwrap_or_default();
        let reasons: Vec<&ErrorDetail> = parsed.iter().flat_map(|e| e.details.iter()).collect();
        let reason = reasons.iter().find_map(|d| d.reason.as_deref()).unwrap_or_default();
        match (status, reason) {
            (_, "API_KEY_INVALID") => Self::InvalidKey,
            (_, "SERVICE_DISABLED") => Self::ApiNotEnabled {
                activation_url: reasons
                    .iter()
                    .find_map(|d| d.metadata.as_ref()?.activation_url.clone())
                    .unwrap_or_else(|| {
                        "https://console.cloud.google.com/apis/library/places.googleapis.com".to_owned()
                    }),
            },
            (_, "BILLING_DISABLED") => Self::BillingDisabled,
            (_, r) if r.starts_with("API_KEY_") && r.ends_with("_BLOCKED") => Self::KeyRestricted,
            (429, _) => Self::QuotaExhausted {
                retry_after: reasons
                    .iter()
                    .find_map(|d| d.retry_delay.as_deref().and_then(parse_duration)),
            },
            // Google answers a key it cannot parse with a bare 400 "API key not valid".
            (400, _) if detail.contains("API key not valid") => Self::InvalidKey,
            _ => Self::Upstream {
                status,
                detail: if detail.is_empty() {
                    format!("HTTP {status}")
                } else {
                    detail
                },
            },
        }
    }
}

/// Parses a protobuf JSON `Duration` such as `"5s"` or `"0.250s"`.
fn parse_duration(text: &str) -> Option<Duration> {
    let seconds: f64 = text.strip_suffix('s')?.parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
}

#[derive(Deserialize)]
struct ErrorEnvelope {
    error: GoogleError,
}

#[derive(Deserialize)]
struct GoogleError {
    #[serde(default)]
    message: String,
    #[serde(default)]
    details: Vec<ErrorDetail>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ErrorDetail {
    reason: Option<String>,
    metadata: Option<ErrorMetadata>,
    retry_delay: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ErrorMetadata {
    activation_url: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_google_error_bodies_to_specific_errors() {
        let invalid = br#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"places.googleapis.com"}}]}}"#;
        assert_eq!(PlacesError::from_response(400, invalid), PlacesError::InvalidKey);

        let disabled = br#"{"error":{"code":403,"message":"Places API (New) has not been used in project 42 before or it is disabled.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SERVICE_DISABLED","domain":"googleapis.com","metadata":{"consumer":"projects/42","service":"places.googleapis.com","activationUrl":"https://console.developers.google.com/apis/api/places.googleapis.com/overview?project=42"}}]}}"#;
        let err = PlacesError::from_response(403, disabled);
        assert!(err.to_string().contains("overview?project=42"), "{err}");
        assert!(err.is_key_problem());

        let quota = br#"{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED"},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"2.5s"}]}}"#;
        assert_eq!(
            PlacesError::from_response(429, quota),
            PlacesError::QuotaExhausted {
                retry_after: Some(Duration::from_millis(2500))
            }
        );

        let billing = br#"{"error":{"code":403,"message":"This API method requires billing to be enabled.","status":"PERMISSION_DENIED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"BILLING_DISABLED"}]}}"#;
        assert_eq!(PlacesError::from_response(403, billing), PlacesError::BillingDisabled);

        let broken = PlacesError::from_response(503, b"<html>oops</html>");
        assert!(broken.is_transient());
        assert!(!broken.is_key_problem());
    }
}
