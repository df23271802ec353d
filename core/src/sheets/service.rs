//! Sheets grants and exports for users: the sealed refresh token, an in-memory cache of
//! access tokens, the list of reachable spreadsheets, and the export itself.

use crate::ids::UserId;
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use secrecy::{ExposeSecret, SecretString};

use super::{
    a1,
    error::{AUTH_EXPIRED, REAUTH_REQUIRED, SheetsError},
    google::{GoogleClient, SPREADSHEETS_SCOPE, Spreadsheet},
};
use crate::{
    CoreError,
    enrich::Contacts,
    store::{SecretKind, SecretOwner, SheetOrigin, Store},
    vault::Vault,
};

/// Columns of a new tab.
pub const HEADER: [&str; 4] = ["Name", "Address", "Phone", "Website"];
/// Columns an enriched search's export adds after [`HEADER`].
pub const ENRICHED_HEADER: [&str; 7] = ["Email", "Facebook", "Instagram", "LinkedIn", "X", "YouTube", "TikTok"];
/// Most leads one export takes (a few months of searches pasted together).
pub const MAX_EXPORT_ROWS: usize = 10_000;
/// Rows per `values.append` call. With at most ~3 KB per row this stays well under the
/// 2 MB request size Google recommends for Sheets.
const APPEND_BATCH_ROWS: usize = 250;
/// Bytes of cell text per `values.append` call, whatever the row count.
const APPEND_BATCH_BYTES: usize = 1_000_000;
/// Longest spreadsheet or tab title we send (Google's tab titles stop at 100).
const MAX_TITLE_CHARS: usize = 100;
/// Renew access tokens this long before Google says they expire.
const TOKEN_MARGIN: Duration = Duration::from_secs(60);

/// One lead as a row: what the sheet shows.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportRow {
    /// Business name.
    pub name: String,
    /// Formatted address.
    pub address: String,
    /// Phone, empty when unknown.
    pub phone: String,
    /// Website, empty when unknown.
    pub website: String,
    /// What its website publishes (written only when the export is enriched).
    pub contacts: Contacts,
}

impl ExportRow {
    fn cells(&self, enriched: bool) -> Vec<String> {
        let mut cells = vec![
            self.name.clone(),
            self.address.clone(),
            self.phone.clone(),
            self.website.clone(),
        ];
        if enriched {
            cells.extend(enriched_cells(&self.contacts));
        }
        cells
    }
}

/// The cells of [`ENRICHED_HEADER`]: the emails in one cell (comma-separated, as a mail
/// client takes them), then one profile URL per network.
pub fn enriched_cells(contacts: &Contacts) -> [String; 7] {
    let s = &contacts.socials;
    let cell = |v: &Option<String>| v.clone().unwrap_or_default();
    [
        contacts.emails.join(", "),
        cell(&s.facebook),
        cell(&s.instagram),
        cell(&s.linkedin),
        cell(&s.x),
        cell(&s.youtube),
        cell(&s.tiktok),
    ]
}

/// Where an export goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportTarget {
    /// A new spreadsheet; `None` names it '{location} {businessType} Leads'.
    New {
        /// Title, if the user typed one.
        name: Option<String>,
    },
    /// A spreadsheet the user can already open.
    Existing {
        /// Its id.
        spreadsheet_id: String,
    },
}

/// An export as the user asked for it.
#[derive(Debug, Clone)]
pub struct ExportRequest {
    /// The leads, in the order to write them.
    pub rows: Vec<ExportRow>,
    /// The search was enriched: [`ENRICHED_HEADER`]'s columns follow the usual four.
    pub enriched: bool,
    /// New or existing spreadsheet.
    pub target: ExportTarget,
    /// Tab title; `None` means the first tab (existing) or the default tab (new).
    pub worksheet: Option<String>,
    /// The search's business type, for the default title.
    pub business_type: String,
    /// The search's location, for the default title.
    pub location: String,
}

/// What an export did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOutcome {
    /// What to tell the user.
    pub message: String,
    /// Opens the spreadsheet at the tab written.
    pub sheet_url: String,
    /// The spreadsheet written.
    pub spreadsheet_id: String,
    /// Its title.
    pub spreadsheet_name: String,
    /// The tab written.
    pub worksheet: String,
    /// Lead rows written (the header not counted).
    pub rows_written: u64,
}

/// A spreadsheet the user can export to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetSummary {
    /// Spreadsheet id.
    pub id: String,
    /// Title.
    pub name: String,
}

/// A spreadsheet checked with Google.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpreadsheetInfo {
    /// Spreadsheet id.
    pub id: String,
    /// Title.
    pub name: String,
    /// Browser URL.
    pub url: String,
    /// Tab titles, in order.
    pub worksheets: Vec<String>,
}

/// The settings screen's view of the Sheets connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetsStatus {
    /// Google accepted the stored grant just now (or a token minted from it is fresh).
    pub authenticated: bool,
    /// A refresh token is stored.
    pub has_refresh_token: bool,
    /// The user must grant access (again) before exporting.
    pub needs_reauth: bool,
    /// What to tell the user.
    pub message: String,
}

struct CachedToken {
    token: SecretString,
    expires_at: Instant,
    /// The sealed refresh token's nonce it came from: a new grant invalidates it.
    grant: Vec<u8>,
}

/// Grants and exports; cheap to clone.
#[derive(Clone)]
pub struct SheetsService {
    store: Store,
    vault: Arc<Vault>,
    google: Option<GoogleClient>,
    tokens: Arc<Mutex<HashMap<UserId, CachedToken>>>,
}

impl std::fmt::Debug for SheetsService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SheetsService")
            .field("configured", &self.google.is_some())
            .finish_non_exhaustive()
    }
}

impl SheetsService {
    /// A service over this store and vault; `google` is `None` when the server has no
    /// Google sign-in (local mode), which makes every operation [`SheetsError::Unavailable`].
    pub fn new(store: Store, vault: Arc<Vault>, google: Option<GoogleClient>) -> Self {
        Self {
            store,
            vault,
            google,
            tokens: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Stores the refresh token from a sign-in that granted Sheets access, sealed.
    pub async fn store_grant(&self, user_id: &UserId, refresh_token: &SecretString) -> Result<(), SheetsError> {
        let kind = SecretKind::GoogleRefreshToken;
        let plain = refresh_token.expose_secret();
        let sealed = self
            .vault
            .seal(plain.as_bytes(), &SecretOwner::User(user_id.clone()).context(kind))?;
        self.store
            .put_secret(
                &SecretOwner::User(user_id.clone()),
                kind,
                &sealed,
                &crate::api_key::mask(plain),
            )
            .await?;
        self.forget_token(user_id);
        Ok(())
    }

    /// Whether the user can export now. Mints (or reuses) an access token, so a grant
    /// revoked at Google shows as needing re-authentication.
    pub async fn status(&self, user_id: &UserId) -> Result<SheetsStatus, SheetsError> {
        if self.google.is_none() {
            return Ok(SheetsStatus {
                authenticated: false,
                has_refresh_token: false,
                needs_reauth: false,
                message: SheetsError::Unavailable.to_string(),
            });
        }
        let stored = self
            .store
            .secret(&SecretOwner::User(user_id.clone()), SecretKind::GoogleRefreshToken)
            .await?;
        let Some(stored) = stored else {
            return Ok(SheetsStatus {
                authenticated: false,
                has_refresh_token: false,
                needs_reauth: true,
                message: "Google Sheets access has not been granted yet. Re-authenticate to allow exports.".to_owned(),
            });
        };
        // Always ask Google: a grant revoked in the user's Google account must show here
        // at once, not when a cached access token runs out.
        self.forget_token(user_id);
        match self.access_token(user_id).await {
            Ok(_) => Ok(SheetsStatus {
                authenticated: true,
                has_refresh_token: true,
                needs_reauth: false,
                message: "Google Sheets is connected".to_owned(),
            }),
            Err(SheetsError::NeedsReauth(message)) => Ok(SheetsStatus {
                authenticated: false,
                has_refresh_token: true,
                needs_reauth: true,
                message: format!("{message}: Google no longer accepts your Sheets access. Re-authenticate to export."),
            }),
            // Google is down or slow: the grant may well be fine; say so rather than
            // sending the user through consent again.
            Err(e) if e.is_transient() || matches!(e, SheetsError::Upstream { .. }) => Ok(SheetsStatus {
                authenticated: stored.is_valid != Some(false),
                has_refresh_token: true,
                needs_reauth: stored.is_valid == Some(false),
                message: format!("Could not check Google Sheets access right now: {e}"),
            }),
            Err(e) => Err(e),
        }
    }

    /// Spreadsheets the user can pick: the ones Drive shows the app (created by it) and
    /// the ones the user validated, without duplicates, Drive's first.
    pub async fn list(&self, user_id: &UserId) -> Result<Vec<SheetSummary>, SheetsError> {
        let files = self
            .with_token(user_id, |google, token| async move {
                google.list_spreadsheets(&token).await
            })
            .await?;
        let mut sheets: Vec<SheetSummary> = files
            .into_iter()
            .map(|f| SheetSummary { id: f.id, name: f.name })
            .collect();
        for known in self.store.known_sheets(user_id).await? {
            if !sheets.iter().any(|s| s.id == known.spreadsheet_id) {
                sheets.push(SheetSummary {
                    id: known.spreadsheet_id,
                    name: known.name,
                });
            }
        }
        Ok(sheets)
    }

    /// Checks that the user's Google account can open the spreadsheet (id or URL) and
    /// remembers it for the sheet list.
    pub async fn validate(&self, user_id: &UserId, id_or_url: &str) -> Result<SpreadsheetInfo, SheetsError> {
        let id = a1::spreadsheet_id(id_or_url).ok_or_else(|| {
            SheetsError::Invalid(
                "Enter a Google Sheets link (https://docs.google.com/spreadsheets/d/...) or a spreadsheet id."
                    .to_owned(),
            )
        })?;
        let sheet = self.spreadsheet(user_id, &id).await?;
        self.store
            .remember_sheet(user_id, &id, &sheet.properties.title, SheetOrigin::Validated)
            .await?;
        Ok(info(&sheet))
    }

    /// The tabs of a spreadsheet the user can open.
    pub async fn worksheets(&self, user_id: &UserId, id: &str) -> Result<Vec<String>, SheetsError> {
        if !a1::is_spreadsheet_id(id) {
            return Err(SheetsError::Invalid(format!("'{id}' is not a spreadsheet id.")));
        }
        let sheet = self.spreadsheet(user_id, id).await?;
        Ok(sheet.tabs().into_iter().map(|t| t.title).collect())
    }

    /// Writes the leads to a new or existing spreadsheet (see [`ExportRequest`]).
    pub async fn export(&self, user_id: &UserId, request: ExportRequest) -> Result<ExportOutcome, SheetsError> {
        validate_request(&request)?;
        let worksheet = request
            .worksheet
            .as_deref()
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .map(str::to_owned);
        let (sheet, tab, tab_id, new_tab) = match &request.target {
            ExportTarget::New { name } => {
                let title = name
                    .as_deref()
                    .map(str::trim)
                    .filter(|n| !n.is_empty())
                    .map(str::to_owned)
                    .unwrap_or_else(|| default_title(&request.location, &request.business_type));
                let tab = worksheet.clone();
                let sheet = self
                    .with_token(user_id, |google, token| {
                        let (title, tab) = (title.clone(), tab.clone());
                        async move { google.create_spreadsheet(&token, &title, tab.as_deref()).await }
                    })
                    .await?;
                self.store
                    .remember_sheet(
                        user_id,
                        &sheet.spreadsheet_id,
                        &sheet.properties.title,
                        SheetOrigin::Created,
                    )
                    .await?;
                let first = sheet.tabs().into_iter().next().ok_or_else(|| SheetsError::Upstream {
                    status: 200,
                    message: "the new spreadsheet has no tab".to_owned(),
                })?;
                (sheet, first.title, first.sheet_id, true)
            }
            ExportTarget::Existing { spreadsheet_id } => {
                if !a1::is_spreadsheet_id(spreadsheet_id) {
                    return Err(SheetsError::Invalid(format!(
                        "'{spreadsheet_id}' is not a spreadsheet id."
                    )));
                }
                let sheet = self.spreadsheet(user_id, spreadsheet_id).await?;
                let tabs = sheet.tabs();
                match worksheet {
                    None => {
                        let first = tabs.into_iter().next().ok_or_else(|| {
                            SheetsError::Invalid("That spreadsheet has no tab to write to.".to_owned())
                        })?;
                        (sheet, first.title, first.sheet_id, false)
                    }
                    Some(name) => match tabs.into_iter().find(|t| t.title == name) {
                        Some(existing) => (sheet, existing.title, existing.sheet_id, false),
                        None => {
                            let added = self
                                .with_token(user_id, |google, token| {
                                    let (id, name) = (spreadsheet_id.clone(), name.clone());
                                    async move { google.add_sheet(&token, &id, &name).await }
                                })
                                .await?;
                            (sheet, added.title, added.sheet_id, true)
                        }
                    },
                }
            }
        };

        let mut rows: Vec<Vec<String>> = Vec::with_capacity(request.rows.len() + 1);
        if new_tab {
            let extra: &[&str] = if request.enriched { &ENRICHED_HEADER } else { &[] };
            rows.push(HEADER.iter().chain(extra).map(|h| (*h).to_owned()).collect());
        }
        let header_rows = rows.len();
        rows.extend(request.rows.iter().map(|row| row.cells(request.enriched)));
        let mut written = 0u64;
        for batch in batches(&rows) {
            written += self
                .with_token(user_id, |google, token| {
                    let (id, tab) = (sheet.spreadsheet_id.clone(), tab.clone());
                    async move { google.append_rows(&token, &id, &tab, batch).await }
                })
                .await?;
        }
        let rows_written = written.saturating_sub(header_rows as u64);
        let title = sheet.properties.title.clone();
        Ok(ExportOutcome {
            message: format!(
                "Exported {rows_written} lead{} to '{title}' ({tab})",
                if rows_written == 1 { "" } else { "s" }
            ),
            sheet_url: format!("{}#gid={tab_id}", sheet.url().split('#').next().unwrap_or_default()),
            spreadsheet_id: sheet.spreadsheet_id,
            spreadsheet_name: title,
            worksheet: tab,
            rows_written,
        })
    }

    /// A spreadsheet by id, as the user's Google account sees it. A sheet Google no
    /// longer shows the user is dropped from their list.
    async fn spreadsheet(&self, user_id: &UserId, id: &str) -> Result<Spreadsheet, SheetsError> {
        let result = self
            .with_token(user_id, |google, token| {
                let id = id.to_owned();
                async move { google.get_spreadsheet(&token, &id).await }
            })
            .await;
        if matches!(result, Err(SheetsError::NotFound(_))) {
            self.store.forget_sheet(user_id, id).await?;
        }
        result
    }

    /// Runs `call` with a fresh access token. If Google refuses a cached token (revoked
    /// meanwhile, or expired early), mints a new one once and tries again.
    async fn with_token<T, F, Fut>(&self, user_id: &UserId, call: F) -> Result<T, SheetsError>
    where
        F: Fn(GoogleClient, SecretString) -> Fut,
        Fut: Future<Output = Result<T, SheetsError>>,
    {
        let google = self.google.clone().ok_or(SheetsError::Unavailable)?;
        let token = self.access_token(user_id).await?;
        match call(google.clone(), token).await {
            Err(SheetsError::NeedsReauth(message)) if message == AUTH_EXPIRED => {
                self.forget_token(user_id);
                let token = self.access_token(user_id).await?;
                call(google, token).await
            }
            other => other,
        }
    }

    /// A valid access token for the user, minted from the stored grant when the cached
    /// one is missing or about to expire.
    async fn access_token(&self, user_id: &UserId) -> Result<SecretString, SheetsError> {
        let google = self.google.as_ref().ok_or(SheetsError::Unavailable)?;
        let kind = SecretKind::GoogleRefreshToken;
        let stored = self
            .store
            .secret(&SecretOwner::User(user_id.clone()), kind)
            .await?
            .ok_or_else(|| SheetsError::NeedsReauth(REAUTH_REQUIRED.to_owned()))?;
        if let Some(cached) = self.cached_token(user_id, &stored.sealed.nonce) {
            return Ok(cached);
        }
        let plain = self
            .vault
            .open(&stored.sealed, &SecretOwner::User(user_id.clone()).context(kind))?;
        let refresh_token = SecretString::from(
            String::from_utf8(plain.expose_secret().clone())
                .map_err(|_| CoreError::Crypto("stored refresh token is not text".into()))?,
        );
        match google.refresh(&refresh_token).await {
            Ok(minted) => {
                if !minted.scope.is_empty() && !minted.scope.split(' ').any(|s| s == SPREADSHEETS_SCOPE) {
                    self.store
                        .record_secret_check(&SecretOwner::User(user_id.clone()), kind, &stored.sealed, false)
                        .await?;
                    return Err(SheetsError::NeedsReauth(REAUTH_REQUIRED.to_owned()));
                }
                if stored.is_valid != Some(true) {
                    self.store
                        .record_secret_check(&SecretOwner::User(user_id.clone()), kind, &stored.sealed, true)
                        .await?;
                }
                let lifetime = minted.expires_in.saturating_sub(TOKEN_MARGIN);
                self.remember_token(user_id, &minted.token, lifetime, stored.sealed.nonce.clone());
                Ok(minted.token)
            }
            Err(SheetsError::NeedsReauth(message)) => {
                self.store
                    .record_secret_check(&SecretOwner::User(user_id.clone()), kind, &stored.sealed, false)
                    .await?;
                Err(SheetsError::NeedsReauth(message))
            }
            Err(other) => Err(other),
        }
    }

    fn cached_token(&self, user_id: &UserId, grant: &[u8]) -> Option<SecretString> {
        let tokens = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
        tokens
            .get(user_id)
            .filter(|t| t.grant == grant && t.expires_at > Instant::now())
            .map(|t| t.token.clone())
    }

    fn remember_token(&self, user_id: &UserId, token: &SecretString, lifetime: Duration, grant: Vec<u8>) {
        let mut tokens = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
        tokens.insert(
            user_id.to_owned(),
            CachedToken {
                token: token.clone(),
                expires_at: Instant::now() + lifetime,
                grant,
            },
        );
    }

    fn forget_token(&self, user_id: &UserId) {
        self.tokens.lock().unwrap_or_else(|p| p.into_inner()).remove(user_id);
    }
}

/// '{location} {businessType} Leads', as the spec names a new sheet.
pub fn default_title(location: &str, business_type: &str) -> String {
    let title = format!("{} {} Leads", location.trim(), business_type.trim());
    title.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn info(sheet: &Spreadsheet) -> SpreadsheetInfo {
    SpreadsheetInfo {
        id: sheet.spreadsheet_id.clone(),
        name: sheet.properties.title.clone(),
        url: sheet.url(),
        worksheets: sheet.tabs().into_iter().map(|t| t.title).collect(),
    }
}

fn validate_request(request: &ExportRequest) -> Result<(), SheetsError> {
    let invalid = |m: String| Err(SheetsError::Invalid(m));
    if request.rows.is_empty() {
        return invalid("There are no leads to export.".to_owned());
    }
    if request.rows.len() > MAX_EXPORT_ROWS {
        return invalid(format!(
            "At most {MAX_EXPORT_ROWS} leads can be exported at once; this request has {}.",
            request.rows.len()
        ));
    }
    let titles = [
        (
            "Sheet name",
            match &request.target {
                ExportTarget::New { name } => name.as_deref(),
                ExportTarget::Existing { .. } => None,
            },
        ),
        ("Tab name", request.worksheet.as_deref()),
    ];
    for (what, title) in titles {
        if let Some(title) = title {
            if title.trim().chars().count() > MAX_TITLE_CHARS {
                return invalid(format!("{what} must be at most {MAX_TITLE_CHARS} characters."));
            }
            if title.chars().any(char::is_control) {
                return invalid(format!("{what} must not contain control characters."));
            }
        }
    }
    if matches!(&request.target, ExportTarget::New { name } if name.as_deref().is_none_or(|n| n.trim().is_empty()))
        && default_title(&request.location, &request.business_type).chars().count() > MAX_TITLE_CHARS + 20
    {
        return invalid("Business type and location are too long to name the sheet; give it a name.".to_owned());
    }
    Ok(())
}

/// Splits rows into `values.append` calls within [`APPEND_BATCH_ROWS`] and
/// [`APPEND_BATCH_BYTES`].
fn batches(rows: &[Vec<String>]) -> Vec<&[Vec<String>]> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut bytes = 0;
    for (i, row) in rows.iter().enumerate() {
        let len: usize = row.iter().map(String::len).sum();
        if i > start && (i - start >= APPEND_BATCH_ROWS || bytes + len > APPEND_BATCH_BYTES) {
            out.push(&rows[start..i]);
            start = i;
            bytes = 0;
        }
        bytes += len;
    }
    if start < rows.len() {
        out.push(&rows[start..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(len: usize) -> Vec<String> {
        vec!["x".repeat(len)]
    }

    #[test]
    fn default_title_follows_the_spec() {
        assert_eq!(default_title("Austin, TX", "dentist"), "Austin, TX dentist Leads");
        assert_eq!(default_title("  Austin ", " cafe "), "Austin cafe Leads");
    }

    #[test]
    fn batches_respect_row_and_byte_limits_and_keep_order() {
        let rows: Vec<Vec<String>> = (0..501).map(|_| row(10)).collect();
        let sizes: Vec<usize> = batches(&rows).iter().map(|b| b.len()).collect();
        assert_eq!(sizes, vec![250, 250, 1]);
        let big: Vec<Vec<String>> = (0..5).map(|_| row(400_000)).collect();
        let sizes: Vec<usize> = batches(&big).iter().map(|b| b.len()).collect();
        assert_eq!(sizes, vec![2, 2, 1]);
        assert!(batches(&[]).is_empty());
    }

    #[test]
    fn masks_refresh_tokens() {
        let masked = crate::api_key::mask("1//0gabcdefghijklmnopqrstuvwxyz");
        assert!(masked.starts_with("1//0") && masked.ends_with("wxyz"));
        assert!(!masked.contains("abcdef"));
    }
}
