//! Google's OAuth 2.0 token endpoint, Sheets API v4 and Drive API v3, over reqwest. Base
//! URLs come from configuration so tests talk to the fake in `leadgen-testkit`.
//!
//! Every call retries Google's passing failures (429, 5xx, network) a bounded number of
//! times; errors become [`SheetsError`]s with messages a user can act on.

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, de::DeserializeOwned};
use serde_json::json;
use url::Url;

use super::error::{AUTH_EXPIRED, REAUTH_REQUIRED, SheetsError};
use crate::{config::GoogleApis, places::RetryPolicy};

/// The scope that lets us read and write the user's spreadsheets.
pub const SPREADSHEETS_SCOPE: &str = "https://www.googleapis.com/auth/spreadsheets";
/// MIME type of Google Sheets files in Drive.
const SPREADSHEET_MIME: &str = "application/vnd.google-apps.spreadsheet";
/// Upper bound on one call, so a hung connection cannot hold an export forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Drive pages to read at most (100 files each) when listing spreadsheets.
const MAX_DRIVE_PAGES: usize = 10;
/// Shown when Google refuses a spreadsheet the user cannot open.
const NO_ACCESS: &str =
    "That spreadsheet was not found, or your Google account cannot open it. Check the link and its sharing settings.";

/// Retries for Google's Sheets and Drive APIs: a little more patient than Places, since
/// an export is one click the user waits on and Sheets' per-minute write quota refills
/// slowly.
const SHEETS_RETRY: RetryPolicy = RetryPolicy {
    max_retries: 4,
    base_backoff: Duration::from_millis(500),
    max_wait: Duration::from_secs(16),
};

/// An access token minted from a refresh token.
#[derive(Debug, Clone)]
pub struct AccessToken {
    /// The bearer token; never logged.
    pub token: SecretString,
    /// Seconds it stays valid, as Google said.
    pub expires_in: Duration,
    /// Scopes granted, space-separated as Google sends them.
    pub scope: String,
}

/// A spreadsheet as Sheets API v4 describes it (the fields we ask for).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Spreadsheet {
    /// Its id.
    pub spreadsheet_id: String,
    /// Where a browser opens it.
    #[serde(default)]
    pub spreadsheet_url: Option<String>,
    /// Title and locale.
    pub properties: SpreadsheetProperties,
    /// Its tabs, in order.
    #[serde(default)]
    pub sheets: Vec<Sheet>,
}

/// `Spreadsheet.properties`.
#[derive(Debug, Clone, Deserialize)]
pub struct SpreadsheetProperties {
    /// Title.
    pub title: String,
}

/// One tab.
#[derive(Debug, Clone, Deserialize)]
pub struct Sheet {
    /// The tab's properties.
    pub properties: SheetProperties,
}

/// A tab's properties.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SheetProperties {
    /// Numeric id (`gid` in URLs).
    #[serde(default)]
    pub sheet_id: i64,
    /// Title.
    pub title: String,
    /// Position.
    #[serde(default)]
    pub index: i64,
}

impl Spreadsheet {
    /// The browser URL, built from the id when Google left it out.
    pub fn url(&self) -> String {
        self.spreadsheet_url
            .clone()
            .unwrap_or_else(|| format!("https://docs.google.com/spreadsheets/d/{}/edit", self.spreadsheet_id))
    }

    /// Tabs ordered by position.
    pub fn tabs(&self) -> Vec<SheetProperties> {
        let mut tabs: Vec<SheetProperties> = self.sheets.iter().map(|s| s.properties.clone()).collect();
        tabs.sort_by_key(|t| t.index);
        tabs
    }
}

/// A spreadsheet file listed by Drive.
#[derive(Debug, Clone, Deserialize)]
pub struct DriveFile {
    /// Spreadsheet id.
    pub id: String,
    /// File name (the spreadsheet's title).
    pub name: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DriveFileList {
    #[serde(default)]
    files: Vec<DriveFile>,
    #[serde(default)]
    next_page_token: Option<String>,
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    #[serde(default)]
    expires_in: Option<u64>,
    #[serde(default)]
    scope: Option<String>,
}

#[derive(Deserialize)]
struct TokenError {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

#[derive(Deserialize)]
struct BatchUpdateResponse {
    #[serde(default)]
    replies: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct AppendResponse {
    #[serde(default)]
    updates: Option<AppendUpdates>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AppendUpdates {
    #[serde(default)]
    updated_rows: Option<u64>,
}

/// Google's error envelope, shared by Sheets and Drive (Drive adds the legacy `errors`).
#[derive(Deserialize, Default)]
struct ErrorEnvelope {
    #[serde(default)]
    error: ErrorDetail,
}

#[derive(Deserialize, Default)]
struct ErrorDetail {
    #[serde(default)]
    message: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    details: Vec<serde_json::Value>,
    #[serde(default)]
    errors: Vec<serde_json::Value>,
}

impl ErrorDetail {
    /// `ErrorInfo.reason` values and Drive's legacy `errors[].reason`.
    fn reasons(&self) -> Vec<String> {
        self.details
            .iter()
            .chain(&self.errors)
            .filter_map(|d| d.get("reason").and_then(|r| r.as_str()).map(str::to_owned))
            .collect()
    }
}

/// Talks to Google on behalf of users, with the app's OAuth client.
#[derive(Debug, Clone)]
pub struct GoogleClient {
    http: reqwest::Client,
    apis: GoogleApis,
    client_id: String,
    client_secret: Option<SecretString>,
    retry: RetryPolicy,
}

impl GoogleClient {
    /// A client for these endpoints and this OAuth client.
    pub fn new(apis: GoogleApis, client_id: String, client_secret: Option<SecretString>) -> Result<Self, SheetsError> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .user_agent(concat!("leadgen/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| SheetsError::Network(e.to_string()))?;
        Ok(Self {
            http,
            apis,
            client_id,
            client_secret,
            retry: SHEETS_RETRY,
        })
    }

    /// The same client with another retry policy (tests shorten the waits).
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Mints an access token from a refresh token. `invalid_grant` (revoked, expired,
    /// or the password changed) means the user must grant access again.
    pub async fn refresh(&self, refresh_token: &SecretString) -> Result<AccessToken, SheetsError> {
        self.retrying(|| async {
            let mut form = vec![
                ("grant_type", "refresh_token".to_owned()),
                ("refresh_token", refresh_token.expose_secret().to_owned()),
                ("client_id", self.client_id.clone()),
            ];
            if let Some(secret) = &self.client_secret {
                form.push(("client_secret", secret.expose_secret().to_owned()));
            }
            let body = url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(&form)
                .finish();
            let response = self
                .http
                .post(self.apis.token_url.clone())
                .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body(body)
                .send()
                .await
                .map_err(transport)?;
            let status = response.status().as_u16();
            let retry_after = retry_after(&response);
            let body = response.bytes().await.map_err(transport)?;
            if status == 200 {
                let token: TokenResponse = serde_json::from_slice(&body)
                    .map_err(|e| SheetsError::Network(format!("unreadable token response: {e}")))?;
                return Ok(AccessToken {
                    token: SecretString::from(token.access_token),
                    expires_in: Duration::from_secs(token.expires_in.unwrap_or(3600)),
                    scope: token.scope.unwrap_or_default(),
                });
            }
            let error: Option<TokenError> = serde_json::from_slice(&body).ok();
            Err(match (status, error) {
                (400, Some(e)) if e.error == "invalid_grant" => SheetsError::NeedsReauth(AUTH_EXPIRED.to_owned()),
                (429, _) => SheetsError::QuotaExhausted { retry_after },
                (_, Some(e)) => SheetsError::Upstream {
                    status,
                    message: format!(
                        "token refresh refused: {}{}",
                        e.error,
                        e.error_description.map(|d| format!(" ({d})")).unwrap_or_default()
                    ),
                },
                (_, None) => SheetsError::Upstream {
                    status,
                    message: "token refresh failed".to_owned(),
                },
            })
        })
        .await
    }

    /// Creates a spreadsheet titled `title`, with one tab titled `tab` (Google's default
    /// `Sheet1` when `None`).
    pub async fn create_spreadsheet(
        &self,
        token: &SecretString,
        title: &str,
        tab: Option<&str>,
    ) -> Result<Spreadsheet, SheetsError> {
        let mut body = json!({ "properties": { "title": title } });
        if let Some(tab) = tab {
            body["sheets"] = json!([{ "properties": { "title": tab } }]);
        }
        let url = self.sheets_url(&[])?;
        // Retried only when Google said it did nothing (429, 503): a create that timed out
        // may have happened, and a retry would leave a second, empty spreadsheet behind.
        self.retrying_when(
            |e| {
                matches!(
                    e,
                    SheetsError::QuotaExhausted { .. } | SheetsError::Upstream { status: 503, .. }
                )
            },
            || self.send_json(self.http.post(url.clone()).json(&body), token),
        )
        .await
    }

    /// A spreadsheet's title, URL and tabs.
    pub async fn get_spreadsheet(&self, token: &SecretString, id: &str) -> Result<Spreadsheet, SheetsError> {
        let mut url = self.sheets_url(&[id])?;
        url.query_pairs_mut().append_pair(
            "fields",
            "spreadsheetId,spreadsheetUrl,properties.title,sheets.properties",
        );
        self.retrying(|| self.send_json(self.http.get(url.clone()), token))
            .await
    }

    /// Adds a tab titled `title`; answers its properties.
    pub async fn add_sheet(&self, token: &SecretString, id: &str, title: &str) -> Result<SheetProperties, SheetsError> {
        let url = self.sheets_url(&[&format!("{id}:batchUpdate")])?;
        let body = json!({ "requests": [{ "addSheet": { "properties": { "title": title } } }] });
        let response: BatchUpdateResponse = self
            .retrying(|| self.send_json(self.http.post(url.clone()).json(&body), token))
            .await?;
        let properties = response
            .replies
            .first()
            .and_then(|r| r.pointer("/addSheet/properties"))
            .cloned()
            .ok_or_else(|| SheetsError::Upstream {
                status: 200,
                message: "addSheet answered without the new tab".to_owned(),
            })?;
        serde_json::from_value(properties).map_err(|e| SheetsError::Upstream {
            status: 200,
            message: format!("unreadable addSheet reply: {e}"),
        })
    }

    /// Appends `rows` after the last row of the tab titled `tab`, as plain text (`RAW`:
    /// a business named `=IMPORTXML(...)` stays text, never a formula). Answers how many
    /// rows Google wrote.
    pub async fn append_rows(
        &self,
        token: &SecretString,
        id: &str,
        tab: &str,
        rows: &[Vec<String>],
    ) -> Result<u64, SheetsError> {
        let range = super::a1::whole_tab(tab);
        let mut url = self.sheets_url(&[id, "values", &format!("{range}:append")])?;
        url.query_pairs_mut()
            .append_pair("valueInputOption", "RAW")
            .append_pair("insertDataOption", "INSERT_ROWS");
        let body = json!({ "range": range, "majorDimension": "ROWS", "values": rows });
        let response: AppendResponse = self
            .retrying(|| self.send_json(self.http.post(url.clone()).json(&body), token))
            .await?;
        Ok(response
            .updates
            .and_then(|u| u.updated_rows)
            .unwrap_or(rows.len() as u64))
    }

    /// Spreadsheets Drive lets the app see (with `drive.file`: the ones it created or the
    /// user opened with it), most recently modified first.
    pub async fn list_spreadsheets(&self, token: &SecretString) -> Result<Vec<DriveFile>, SheetsError> {
        let mut files = Vec::new();
        let mut page_token: Option<String> = None;
        for _ in 0..MAX_DRIVE_PAGES {
            let mut url = self
                .apis
                .drive_base_url
                .join("drive/v3/files")
                .map_err(|e| SheetsError::Network(format!("bad Drive base URL: {e}")))?;
            {
                let mut query = url.query_pairs_mut();
                query
                    .append_pair("q", &format!("mimeType='{SPREADSHEET_MIME}' and trashed=false"))
                    .append_pair("fields", "nextPageToken,files(id,name)")
                    .append_pair("orderBy", "modifiedTime desc")
                    .append_pair("pageSize", "100")
                    .append_pair("spaces", "drive");
                if let Some(t) = &page_token {
                    query.append_pair("pageToken", t);
                }
            }
            let page: DriveFileList = self
                .retrying(|| self.send_json(self.http.get(url.clone()), token))
                .await?;
            files.extend(page.files);
            page_token = page.next_page_token;
            if page_token.is_none() {
                break;
            }
        }
        Ok(files)
    }

    /// `{sheets base}/v4/spreadsheets/{segments...}`, each segment percent-encoded.
    fn sheets_url(&self, segments: &[&str]) -> Result<Url, SheetsError> {
        let mut url = self.apis.sheets_base_url.clone();
        {
            let mut path = url
                .path_segments_mut()
                .map_err(|()| SheetsError::Network("bad Sheets base URL".to_owned()))?;
            path.pop_if_empty().extend(["v4", "spreadsheets"]).extend(segments);
        }
        Ok(url)
    }

    async fn send_json<T: DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
        token: &SecretString,
    ) -> Result<T, SheetsError> {
        let response = request
            .bearer_auth(token.expose_secret())
            .send()
            .await
            .map_err(transport)?;
        let status = response.status().as_u16();
        let retry_after = retry_after(&response);
        let body = response.bytes().await.map_err(transport)?;
        if (200..300).contains(&status) {
            return serde_json::from_slice(&body).map_err(|e| SheetsError::Upstream {
                status,
                message: format!("unreadable answer: {e}"),
            });
        }
        let envelope: ErrorEnvelope = serde_json::from_slice(&body).unwrap_or_default();
        Err(classify(status, &envelope.error, retry_after))
    }

    async fn retrying<T, F, Fut>(&self, call: F) -> Result<T, SheetsError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, SheetsError>>,
    {
        self.retrying_when(SheetsError::is_transient, call).await
    }

    async fn retrying_when<T, F, Fut>(&self, retry: fn(&SheetsError) -> bool, call: F) -> Result<T, SheetsError>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, SheetsError>>,
    {
        let mut attempt = 0;
        loop {
            match call().await {
                Err(e) if retry(&e) && attempt < self.retry.max_retries => {
                    let backoff = self.retry.base_backoff * 2u32.saturating_pow(attempt);
                    let wait = match &e {
                        SheetsError::QuotaExhausted {
                            retry_after: Some(after),
                        } => *after,
                        _ => backoff,
                    }
                    .min(self.retry.max_wait);
                    tracing::debug!(error = %e, attempt, wait_ms = wait.as_millis() as u64, "retrying Google call");
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
                other => return other,
            }
        }
    }
}

/// Maps Google's answer to an error a user can act on.
fn classify(status: u16, error: &ErrorDetail, retry_after: Option<Duration>) -> SheetsError {
    let reasons = error.reasons();
    let has = |reason: &str| reasons.iter().any(|r| r == reason);
    match status {
        401 => SheetsError::NeedsReauth(AUTH_EXPIRED.to_owned()),
        403 if has("ACCESS_TOKEN_SCOPE_INSUFFICIENT")
            || has("insufficientPermissions")
            || error.message.contains("insufficient authentication scopes") =>
        {
            SheetsError::NeedsReauth(REAUTH_REQUIRED.to_owned())
        }
        // Drive reports its rate limits as 403.
        403 if has("rateLimitExceeded") || has("userRateLimitExceeded") => SheetsError::QuotaExhausted { retry_after },
        403 if has("SERVICE_DISABLED") || has("accessNotConfigured") => SheetsError::Upstream {
            status,
            message: format!(
                "the Google API is not enabled for this app's project: {}",
                error.message
            ),
        },
        403 | 404 => SheetsError::NotFound(NO_ACCESS.to_owned()),
        429 => SheetsError::QuotaExhausted { retry_after },
        400 => SheetsError::Invalid(if error.message.is_empty() {
            "Google Sheets refused the request.".to_owned()
        } else {
            format!("Google Sheets refused the request: {}", error.message)
        }),
        _ => SheetsError::Upstream {
            status,
            message: if error.message.is_empty() {
                error.status.clone()
            } else {
                error.message.clone()
            },
        },
    }
}

fn transport(error: reqwest::Error) -> SheetsError {
    if error.is_timeout() {
        SheetsError::Network("no answer in time".to_owned())
    } else {
        SheetsError::Network(error.without_url().to_string())
    }
}

/// `Retry-After` in seconds, when Google sends it.
fn retry_after(response: &reqwest::Response) -> Option<Duration> {
    response
        .headers()
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detail(message: &str, reasons: &[&str]) -> ErrorDetail {
        ErrorDetail {
            message: message.to_owned(),
            status: String::new(),
            details: reasons.iter().map(|r| json!({ "reason": r })).collect(),
            errors: vec![],
        }
    }

    #[test]
    fn scope_and_token_problems_ask_for_reauthentication() {
        assert!(matches!(
            classify(401, &detail("", &[]), None),
            SheetsError::NeedsReauth(_)
        ));
        assert!(matches!(
            classify(
                403,
                &detail("Request had insufficient authentication scopes.", &[]),
                None
            ),
            SheetsError::NeedsReauth(_)
        ));
        assert!(matches!(
            classify(403, &detail("x", &["ACCESS_TOKEN_SCOPE_INSUFFICIENT"]), None),
            SheetsError::NeedsReauth(_)
        ));
    }

    #[test]
    fn permission_denied_reads_as_not_found_and_rate_limits_as_quota() {
        assert!(matches!(
            classify(403, &detail("The caller does not have permission", &[]), None),
            SheetsError::NotFound(_)
        ));
        assert!(matches!(
            classify(403, &detail("Rate limit", &["userRateLimitExceeded"]), None),
            SheetsError::QuotaExhausted { .. }
        ));
        let quota = classify(429, &detail("", &[]), Some(Duration::from_secs(3)));
        assert!(quota.is_transient());
        assert!(!classify(400, &detail("bad", &[]), None).is_transient());
        assert!(classify(503, &detail("", &[]), None).is_transient());
    }
}
