//! The retry loop every Google Places call shares (Text Search and the Aggregate API):
//! quota after Google's `RetryInfo` delay, 5xx, time-outs and network failures, a bounded
//! number of times with a doubling back-off.

use std::{future::Future, time::Duration};

use super::error::PlacesError;

/// How often and how long to retry passing upstream failures.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: u32,
    /// First back-off for 5xx, time-outs and network errors; doubles each retry.
    pub base_backoff: Duration,
    /// Longest single wait, whatever Google's `RetryInfo` asks for.
    pub max_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_retries: 3,
            base_backoff: Duration::from_millis(250),
            max_wait: Duration::from_secs(10),
        }
    }
}

/// The HTTP client for Google: a time-out per request and our user agent.
pub(crate) fn http_client(timeout: Duration) -> Result<reqwest::Client, PlacesError> {
    reqwest::Client::builder()
        .timeout(timeout)
        .user_agent(concat!("leadgen/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| PlacesError::Network(e.to_string()))
}

/// Runs `call` until it succeeds, fails for good, or `policy` runs out of retries; each
/// attempt's outcome goes to `record` (a metric), `what` names the call in debug logs.
pub(crate) async fn with_retries<T, F, Fut>(
    policy: &RetryPolicy,
    what: &'static str,
    record: impl Fn(&'static str),
    mut call: F,
) -> Result<T, PlacesError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, PlacesError>>,
{
    let mut attempt = 0;
    loop {
        let result = call().await;
        record(outcome_label(&result));
        match result {
            Err(e) if e.is_transient() && attempt < policy.max_retries => {
                let wait = match &e {
                    PlacesError::QuotaExhausted { retry_after } => retry_after.unwrap_or(Duration::from_secs(1)),
                    _ => policy.base_backoff * 2u32.saturating_pow(attempt),
                }
                .min(policy.max_wait);
                tracing::debug!(error = %e, attempt, wait_ms = wait.as_millis() as u64, call = what, "retrying a Google call");
                tokio::time::sleep(wait).await;
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// One JSON `POST` to Google with the user's key (and `extra` headers); Google's error
/// bodies become [`PlacesError`], a 200 body that does not parse an `Upstream` error.
pub(crate) async fn post_json<T: serde::de::DeserializeOwned>(
    http: &reqwest::Client,
    url: &url::Url,
    api_key: &str,
    extra: &[(&str, &str)],
    body: &impl serde::Serialize,
) -> Result<T, PlacesError> {
    let mut request = http.post(url.clone()).header("X-Goog-Api-Key", api_key);
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    let response = request.json(body).send().await.map_err(PlacesError::from_transport)?;
    read_json(response).await
}

/// One `GET` from Google with the user's key (and `extra` headers), answered as
/// [`post_json`] answers.
pub(crate) async fn get_json<T: serde::de::DeserializeOwned>(
    http: &reqwest::Client,
    url: &url::Url,
    api_key: &str,
    extra: &[(&str, &str)],
) -> Result<T, PlacesError> {
    let mut request = http.get(url.clone()).header("X-Goog-Api-Key", api_key);
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    let response = request.send().await.map_err(PlacesError::from_transport)?;
    read_json(response).await
}

/// A Google answer's body: the value on success, [`PlacesError`] otherwise.
async fn read_json<T: serde::de::DeserializeOwned>(response: reqwest::Response) -> Result<T, PlacesError> {
    let status = response.status();
    let bytes = response.bytes().await.map_err(PlacesError::from_transport)?;
    if !status.is_success() {
        return Err(PlacesError::from_response(status.as_u16(), &bytes));
    }
    serde_json::from_slice(&bytes).map_err(|e| PlacesError::Upstream {
        status: status.as_u16(),
        detail: format!("unexpected response body: {e}"),
    })
}

/// The `outcome` label of a call.
pub(crate) fn outcome_label<T>(result: &Result<T, PlacesError>) -> &'static str {
    match result {
        Ok(_) => "ok",
        Err(PlacesError::InvalidKey) => "invalid_key",
        Err(PlacesError::ApiNotEnabled { .. } | PlacesError::BillingDisabled | PlacesError::KeyRestricted) => {
            "key_not_allowed"
        }
        Err(PlacesError::QuotaExhausted { .. }) => "quota",
        Err(PlacesError::Upstream { status, .. }) if *status >= 500 => "upstream_5xx",
        Err(PlacesError::Upstream { .. }) => "upstream_4xx",
        Err(PlacesError::Timeout) => "timeout",
        Err(PlacesError::Network(_)) => "network",
    }
}
