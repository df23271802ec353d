//! The fake's HTTP server: Google's token, Sheets and Drive paths on one base URL, and a
//! few `/_sim/*` routes for browser tests and demos to set up and inspect.

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::{Arc, Mutex, MutexGuard},
    time::Instant,
};

use base64::{Engine, engine::general_purpose::STANDARD};
use poem::{
    Body, Endpoint, EndpointExt, IntoResponse, Request, Response, Route, handler,
    http::{Method as HttpMethod, StatusCode},
    web::{Data, Json, Path},
};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    config::{GoogleSimBuilder, GoogleSimConfig, MAX_BODY_BYTES},
    drive,
    errors::{Api, ApiError, Method, oauth_error},
    faults::Faults,
    fields,
    ids::Clock,
    oauth::{
        Auth, Principal, SCOPE_DRIVE, SCOPE_DRIVE_FILE, SCOPE_DRIVE_METADATA_READONLY, SCOPE_DRIVE_READONLY,
        SCOPE_SPREADSHEETS, SCOPE_SPREADSHEETS_READONLY, TokenCheck,
    },
    record::{RecordedRequest, RequestLog, percent_decode},
    sheets,
    store::{Spreadsheet, SpreadsheetSnapshot, Store, Tab},
};
use crate::sim::{
    quota::PerMinuteQuota,
    server::{Bound, SimServer},
};

/// Scopes that let a token write with the Sheets API (`drive.file` only for files the
/// app uses).
const SHEETS_WRITE: &[&str] = &[SCOPE_SPREADSHEETS, SCOPE_DRIVE, SCOPE_DRIVE_FILE];
/// Scopes that let a token read with the Sheets API.
const SHEETS_READ: &[&str] = &[
    SCOPE_SPREADSHEETS,
    SCOPE_SPREADSHEETS_READONLY,
    SCOPE_DRIVE,
    SCOPE_DRIVE_READONLY,
    SCOPE_DRIVE_FILE,
];
/// Of [`SHEETS_WRITE`], those that reach every file the identity can access.
const SHEETS_WRITE_ALL_FILES: &[&str] = &[SCOPE_SPREADSHEETS, SCOPE_DRIVE];
/// Of [`SHEETS_READ`], those that reach every file the identity can access.
const SHEETS_READ_ALL_FILES: &[&str] = &[
    SCOPE_SPREADSHEETS,
    SCOPE_SPREADSHEETS_READONLY,
    SCOPE_DRIVE,
    SCOPE_DRIVE_READONLY,
];
/// Scopes that let a token list Drive files.
const DRIVE_LIST: &[&str] = &[
    SCOPE_DRIVE,
    SCOPE_DRIVE_READONLY,
    SCOPE_DRIVE_FILE,
    SCOPE_DRIVE_METADATA_READONLY,
    "https://www.googleapis.com/auth/drive.metadata",
];
/// Of [`DRIVE_LIST`], those that list every file the identity can access.
const DRIVE_LIST_ALL_FILES: &[&str] = &[
    SCOPE_DRIVE,
    SCOPE_DRIVE_READONLY,
    SCOPE_DRIVE_METADATA_READONLY,
    "https://www.googleapis.com/auth/drive.metadata",
];

const DRIVE_FILES_LIST: Method = Method {
    api: Api::Drive,
    rpc: "google.apps.drive.v3.DriveFiles.List",
};

/// Everything the handlers share.
#[derive(Debug)]
struct SimState {
    config: GoogleSimConfig,
    auth: Mutex<Auth>,
    store: Mutex<Store>,
    quota: PerMinuteQuota,
    faults: Faults,
    log: RequestLog,
    clock: Clock,
}

/// A running fake; stops when dropped.
///
/// HTTP routes besides Google's (JSON in and out):
/// - `GET /_sim/spreadsheets`, `GET /_sim/spreadsheets/{id}`: [`SpreadsheetSnapshot`]s.
/// - `POST /_sim/grants` `{identity, scopes?}` → `{refreshToken}` (scopes default to
///   `spreadsheets` and `drive.file`; short names allowed).
/// - `POST /_sim/revoke` `{refreshToken}`, `POST /_sim/expire-access-tokens`.
/// - `POST /_sim/share` and `POST /_sim/opened-with-app` `{spreadsheetId, identity}`.
/// - `POST /_sim/fail-next` `{count, status}`, `GET /_sim/requests`.
pub struct GoogleSim {
    /// Base URL of every endpoint, e.g. `http://127.0.0.1:41234`.
    pub base_url: String,
    state: Arc<SimState>,
    server: SimServer,
}

impl GoogleSim {
    /// Starts a fake with default settings on `addr` (port 0 picks a free one).
    pub async fn start(addr: SocketAddr) -> std::io::Result<Self> {
        Self::start_with(addr, GoogleSimConfig::default()).await
    }

    /// A builder for non-default settings.
    pub fn builder() -> GoogleSimBuilder {
        GoogleSimBuilder::default()
    }

    pub(crate) async fn start_with(addr: SocketAddr, config: GoogleSimConfig) -> std::io::Result<Self> {
        let bound = Bound::bind(addr).await?;
        let state = Arc::new(SimState {
            quota: PerMinuteQuota::new(config.write_quota_per_minute),
            config,
            auth: Mutex::new(Auth::default()),
            store: Mutex::new(Store::default()),
            faults: Faults::default(),
            log: RequestLog::default(),
            clock: Clock::default(),
        });
        let recorder = state.clone();
        let app = Route::new()
            .at("/token", poem::post(oauth_token))
            .at("/revoke", poem::post(oauth_revoke))
            .at("/v4/spreadsheets", poem::post(spreadsheets))
            .at("/v4/spreadsheets/*rest", poem::get(spreadsheets).post(spreadsheets))
            .at("/drive/v3/files", poem::get(drive_files))
            .at("/_sim/spreadsheets", poem::get(sim_spreadsheets))
            .at("/_sim/spreadsheets/:id", poem::get(sim_spreadsheet))
            .at("/_sim/grants", poem::post(sim_grant))
            .at("/_sim/revoke", poem::post(sim_revoke))
            .at("/_sim/expire-access-tokens", poem::post(sim_expire))
            .at("/_sim/share", poem::post(sim_share))
            .at("/_sim/opened-with-app", poem::post(sim_opened_with_app))
            .at("/_sim/fail-next", poem::post(sim_fail_next))
            .at("/_sim/requests", poem::get(sim_requests))
            .data(state.clone())
            .around(move |ep, req| {
                let state = recorder.clone();
                async move {
                    let method = req.method().to_string();
                    let raw_path = req.uri().path().to_owned();
                    let query = req.uri().query().map(str::to_owned);
                    let response = match ep.call(req).await {
                        Ok(response) => response.into_response(),
                        Err(error) => error.into_response(),
                    };
                    if !raw_path.starts_with("/_sim") {
                        state.log.push(RecordedRequest {
                            method,
                            path: percent_decode(&raw_path),
                            query,
                            status: response.status().as_u16(),
                        });
                    }
                    Ok::<_, poem::Error>(response)
                }
            });
        Ok(Self {
            base_url: bound.base_url(),
            state,
            server: bound.serve(app),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// The settings it runs with.
    pub fn config(&self) -> &GoogleSimConfig {
        &self.state.config
    }

    /// The token endpoint, `{base}/token` (Google's is `https://oauth2.googleapis.com/token`).
    pub fn token_url(&self) -> String {
        format!("{}/token", self.base_url)
    }

    /// The revocation endpoint, `{base}/revoke` (Google's is `https://oauth2.googleapis.com/revoke`).
    pub fn revoke_url(&self) -> String {
        format!("{}/revoke", self.base_url)
    }

    /// Where the Sheets API lives; clients append `/v4/spreadsheets...`
    /// (Google's is `https://sheets.googleapis.com`).
    pub fn sheets_base_url(&self) -> String {
        self.base_url.clone()
    }

    /// Where the Drive API lives; clients append `/drive/v3/files`
    /// (Google's is `https://www.googleapis.com`).
    pub fn drive_base_url(&self) -> String {
        self.base_url.clone()
    }

    /// A new refresh token for `identity` with `scopes` (full URLs, or short names such
    /// as `spreadsheets` and `drive.file`).
    pub fn grant(&self, identity: &str, scopes: &[&str]) -> String {
        self.state.auth().grant(identity, scopes)
    }

    /// A new refresh token with the scopes a Sheets export asks for: `spreadsheets` and
    /// `drive.file`.
    pub fn grant_sheets(&self, identity: &str) -> String {
        self.grant(identity, &[SCOPE_SPREADSHEETS, SCOPE_DRIVE_FILE])
    }

    /// Revokes a grant by its refresh (or access) token: the refresh token then answers
    /// `invalid_grant` and its access tokens 401, as when a user removes the app's access.
    pub fn revoke(&self, refresh_token: &str) {
        self.state.auth().revoke(refresh_token);
    }

    /// Makes every access token minted so far answer 401, as if they had all expired.
    pub fn expire_access_tokens(&self) {
        self.state.auth().expire_all();
    }

    /// A spreadsheet made outside the app (in the Sheets UI, say), so the app cannot list
    /// it with `drive.file` until [`mark_opened_with_app`](Self::mark_opened_with_app).
    /// `tabs` empty gives one tab `Sheet1`. Returns its id.
    pub fn create_spreadsheet(&self, owner: &str, title: &str, tabs: &[&str]) -> String {
        let tabs = tabs
            .iter()
            .enumerate()
            .map(|(i, name)| Tab::new(if i == 0 { 0 } else { super::ids::sheet_id() }, name))
            .collect();
        let sheet = Spreadsheet::new(owner, title, tabs, false, self.state.clock.tick());
        self.state.store().insert(sheet)
    }

    /// Shares a spreadsheet with `identity` as an editor. Unknown ids are ignored (with
    /// a warning), like the other helpers.
    pub fn share(&self, spreadsheet_id: &str, identity: &str) {
        self.state.with_sheet(spreadsheet_id, |sheet| {
            if sheet.owner != identity {
                sheet.shared_with.insert(identity.to_owned());
            }
        });
    }

    /// Records that `identity` opened the spreadsheet with the app (the Drive picker, or
    /// "Open with"), which lets a `drive.file` token use and list it. Opening implies
    /// access, so a non-owner is also shared with.
    pub fn mark_opened_with_app(&self, spreadsheet_id: &str, identity: &str) {
        self.state.with_sheet(spreadsheet_id, |sheet| {
            if sheet.owner != identity {
                sheet.shared_with.insert(identity.to_owned());
            }
            sheet.opened_with_app.insert(identity.to_owned());
        });
    }

    /// A spreadsheet's title, owner and tabs with their cells.
    pub fn spreadsheet(&self, id: &str) -> Option<SpreadsheetSnapshot> {
        self.state.store().get(id).map(Spreadsheet::snapshot)
    }

    /// The cells of one tab (matched like Sheets does, case-insensitively), trimmed of
    /// trailing empty cells and rows.
    pub fn values(&self, id: &str, tab: &str) -> Option<Vec<Vec<String>>> {
        let store = self.state.store();
        let sheet = store.get(id)?;
        let index = sheet.tab_index(tab)?;
        Some(sheet.tabs[index].rows())
    }

    /// Ids of the spreadsheets `identity` owns, oldest first.
    pub fn spreadsheets_owned_by(&self, identity: &str) -> Vec<String> {
        self.state
            .store()
            .all()
            .filter(|s| s.owner == identity)
            .map(|s| s.id.clone())
            .collect()
    }

    /// Rows sent by each `values.append` on the spreadsheet, in order (empty for an
    /// unknown id).
    pub fn append_sizes(&self, id: &str) -> Vec<usize> {
        self.state
            .store()
            .get(id)
            .map(|s| s.append_sizes.clone())
            .unwrap_or_default()
    }

    /// Every token, Sheets and Drive request answered so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state.log.all()
    }

    /// The next `n` Sheets or Drive requests answer `status` with Google's envelope
    /// (503 `UNAVAILABLE`, 500 `INTERNAL`, 429 `RESOURCE_EXHAUSTED`, ...), before any
    /// other check. Token requests are not affected.
    pub fn fail_next(&self, n: usize, status: u16) {
        self.state.faults.fail_next(n, status);
    }
}

/// A Sheets API call, read from its path. Custom methods follow a colon
/// (`{id}:batchUpdate`, `{range}:append`), and the range is percent-encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SheetsCall {
    Create,
    Get(String),
    BatchUpdate(String),
    Append(String, String),
    GetValues(String, String),
}

impl SheetsCall {
    fn parse(method: &HttpMethod, path: &str) -> Option<Self> {
        let rest = path.strip_prefix("/v4/spreadsheets")?;
        let is_post = *method == HttpMethod::POST;
        if rest.is_empty() || rest == "/" {
            return is_post.then_some(Self::Create);
        }
        let rest = rest.strip_prefix('/')?;
        if let Some((id, range)) = rest.split_once("/values/") {
            let id = percent_decode(id);
            if is_post {
                let (range, verb) = range.rsplit_once(':')?;
                (verb == "append").then(|| Self::Append(id, percent_decode(range)))
            } else {
                Some(Self::GetValues(id, percent_decode(range)))
            }
        } else if rest.contains('/') {
            None
        } else if is_post {
            let (id, verb) = rest.rsplit_once(':')?;
            (verb == "batchUpdate").then(|| Self::BatchUpdate(percent_decode(id)))
        } else {
            Some(Self::Get(percent_decode(rest)))
        }
    }

    fn is_write(&self) -> bool {
        matches!(self, Self::Create | Self::BatchUpdate(_) | Self::Append(..))
    }

    fn method(&self) -> Method {
        let rpc = match self {
            Self::Create => "google.apps.sheets.v4.SpreadsheetsService.CreateSpreadsheet",
            Self::Get(_) => "google.apps.sheets.v4.SpreadsheetsService.GetSpreadsheet",
            Self::BatchUpdate(_) => "google.apps.sheets.v4.SpreadsheetsService.BatchUpdateSpreadsheet",
            Self::Append(..) => "google.apps.sheets.v4.SpreadsheetsService.AppendValues",
            Self::GetValues(..) => "google.apps.sheets.v4.SpreadsheetsService.GetValues",
        };
        Method { api: Api::Sheets, rpc }
    }
}

impl SimState {
    fn auth(&self) -> MutexGuard<'_, Auth> {
        self.auth.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn store(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `change` on a spreadsheet; false (and a warning) when the id is unknown.
    fn with_sheet(&self, id: &str, change: impl FnOnce(&mut Spreadsheet)) -> bool {
        match self.store().get_mut(id) {
            Some(sheet) => {
                change(sheet);
                true
            }
            None => {
                tracing::warn!(spreadsheet_id = id, "google-sim: no such spreadsheet");
                false
            }
        }
    }

    /// The caller behind the bearer token (header, or `access_token` query parameter).
    fn authenticate(
        &self,
        req: &Request,
        params: &HashMap<String, String>,
        method: Method,
    ) -> Result<Principal, ApiError> {
        let header = req.header("authorization");
        let token = match header {
            Some(value) => value
                .split_once(' ')
                .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
                .map(|(_, token)| token.trim().to_owned())
                .unwrap_or_default(),
            None => match params.get("access_token") {
                Some(token) => token.clone(),
                None => return Err(ApiError::credentials_missing(method)),
            },
        };
        match self.auth().check(&token, Instant::now()) {
            TokenCheck::Valid(principal) => Ok(principal),
            TokenCheck::Unknown => Err(ApiError::invalid_credentials(method, false)),
            TokenCheck::Expired => Err(ApiError::invalid_credentials(method, true)),
        }
    }

    /// One Sheets call, checked in the order Google's front end checks: injected fault,
    /// credentials, scopes, quota, body, then the spreadsheet itself.
    async fn sheets(
        &self,
        call: SheetsCall,
        req: &Request,
        params: &HashMap<String, String>,
        body: Body,
    ) -> Result<Value, ApiError> {
        let method = call.method();
        if let Some(status) = self.faults.take() {
            return Err(ApiError::injected(status));
        }
        let principal = self.authenticate(req, params, method)?;
        let write = call.is_write();
        let (accepted, all_files) = if write {
            (SHEETS_WRITE, SHEETS_WRITE_ALL_FILES)
        } else {
            (SHEETS_READ, SHEETS_READ_ALL_FILES)
        };
        if !principal.has_any(accepted) {
            return Err(ApiError::scope_insufficient(method));
        }
        let all_files = principal.has_any(all_files);
        if write && self.quota.admit(&principal.identity, Instant::now()).is_err() {
            return Err(ApiError::write_quota_exceeded(self.quota.limit()));
        }
        let body = if write { read_json(body).await? } else { Value::Null };
        let now = self.clock.tick();
        let mut store = self.store();
        let identity = principal.identity.as_str();
        let open = |sheet: Option<&Spreadsheet>| -> Result<(), ApiError> {
            let sheet = sheet.ok_or_else(ApiError::not_found)?;
            if sheet.can_access(identity) && (all_files || sheet.used_by_app(identity)) {
                Ok(())
            } else {
                Err(ApiError::permission_denied())
            }
        };
        match call {
            SheetsCall::Create => {
                let sheet = sheets::create(identity, &body, now)?;
                let resource = sheet.resource();
                store.insert(sheet);
                Ok(resource)
            }
            SheetsCall::Get(id) => {
                open(store.get(&id))?;
                let resource = store.get(&id).map(Spreadsheet::resource).unwrap_or_default();
                match params.get("fields").filter(|f| !f.is_empty()) {
                    None => Ok(resource),
                    Some(mask) => {
                        let tree = fields::parse(mask)
                            .ok_or_else(|| ApiError::invalid_argument(format!("Invalid field selection {mask}")))?;
                        Ok(fields::apply(&resource, &tree))
                    }
                }
            }
            SheetsCall::BatchUpdate(id) => {
                open(store.get(&id))?;
                let sheet = store.get_mut(&id).ok_or_else(ApiError::not_found)?;
                sheets::batch_update(sheet, &body, now)
            }
            SheetsCall::Append(id, range) => {
                open(store.get(&id))?;
                let sheet = store.get_mut(&id).ok_or_else(ApiError::not_found)?;
                sheets::append(sheet, &range, params, &body, now)
            }
            SheetsCall::GetValues(id, range) => {
                open(store.get(&id))?;
                let sheet = store.get(&id).ok_or_else(ApiError::not_found)?;
                sheets::get_values(sheet, &range, params)
            }
        }
    }

    /// `files.list`, checked like [`Self::sheets`].
    fn drive_list(&self, req: &Request, params: &HashMap<String, String>) -> Result<Value, ApiError> {
        if let Some(status) = self.faults.take() {
            return Err(ApiError::injected(status));
        }
        let principal = self.authenticate(req, params, DRIVE_FILES_LIST)?;
        if !principal.has_any(DRIVE_LIST) {
            return Err(ApiError::scope_insufficient(DRIVE_FILES_LIST));
        }
        let all_files = principal.has_any(DRIVE_LIST_ALL_FILES);
        drive::list(&self.store(), &principal, all_files, params)
    }
}

/// Reads a JSON body of at most [`MAX_BODY_BYTES`]; an empty body is `null`.
async fn read_json(body: Body) -> Result<Value, ApiError> {
    let bytes = body.into_bytes_limit(MAX_BODY_BYTES).await.map_err(|e| match e {
        poem::error::ReadBodyError::PayloadTooLarge => ApiError::payload_too_large(),
        other => ApiError::invalid_argument(format!("Could not read the request body: {other}")),
    })?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    serde_json::from_slice(&bytes).map_err(|e| ApiError::invalid_json(&format!("{e}")))
}

fn query_params(req: &Request) -> HashMap<String, String> {
    req.params().unwrap_or_default()
}

fn ok_json(value: &Value) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .content_type("application/json; charset=UTF-8")
        .body(value.to_string())
}

/// Google's front end answers unknown paths with a bare 404 page.
fn not_found_page(path: &str) -> Response {
    Response::builder()
        .status(StatusCode::NOT_FOUND)
        .content_type("text/html; charset=UTF-8")
        .body(format!(
            "<!DOCTYPE html>\n<title>Error 404 (Not Found)!!1</title>\n<p><b>404.</b> <ins>That's an error.</ins>\n<p>The requested URL <code>{path}</code> was not found on this server. <ins>That's all we know.</ins>\n"
        ))
}

/// Form fields of a token or revoke request. Google also accepts a JSON body.
fn form_fields(req: &Request, body: &[u8]) -> HashMap<String, String> {
    let is_json = req
        .content_type()
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"));
    if is_json {
        let value: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        value
            .as_object()
            .map(|map| {
                map.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_owned)))
                    .collect()
            })
            .unwrap_or_default()
    } else {
        url::form_urlencoded::parse(body).into_owned().collect()
    }
}

/// Client id and secret of an HTTP Basic `Authorization` header (RFC 6749 §2.3.1).
fn basic_credentials(req: &Request) -> Option<(String, String)> {
    let header = req.header("authorization")?;
    let (scheme, encoded) = header.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
    let (id, secret) = decoded.split_once(':')?;
    Some((percent_decode(id), percent_decode(secret)))
}

#[handler]
async fn oauth_token(req: &Request, body: Body, state: Data<&Arc<SimState>>) -> Response {
    let Ok(bytes) = body.into_bytes_limit(MAX_BODY_BYTES).await else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", "Request body too large.");
    };
    let fields = form_fields(req, &bytes);
    let basic = basic_credentials(req);
    state
        .auth()
        .token_endpoint(&state.config, &fields, basic, Instant::now())
}

/// `POST /revoke?token=...` or with `token` in the form body.
#[handler]
async fn oauth_revoke(req: &Request, body: Body, state: Data<&Arc<SimState>>) -> Response {
    let bytes = body.into_bytes_limit(MAX_BODY_BYTES).await.unwrap_or_default();
    let token = form_fields(req, &bytes)
        .remove("token")
        .or_else(|| query_params(req).remove("token"));
    state.auth().revoke_endpoint(token.as_deref())
}

#[handler]
async fn spreadsheets(req: &Request, body: Body, state: Data<&Arc<SimState>>) -> Response {
    let Some(call) = SheetsCall::parse(req.method(), req.uri().path()) else {
        return not_found_page(req.uri().path());
    };
    let params = query_params(req);
    match state.sheets(call, req, &params, body).await {
        Ok(value) => ok_json(&value),
        Err(error) => error.into_response(Api::Sheets),
    }
}

#[handler]
fn drive_files(req: &Request, state: Data<&Arc<SimState>>) -> Response {
    let params = query_params(req);
    match state.drive_list(req, &params) {
        Ok(value) => ok_json(&value),
        Err(error) => error.into_response(Api::Drive),
    }
}

fn sim_error(status: StatusCode, message: &str) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json")
        .body(json!({ "error": message }).to_string())
}

#[handler]
fn sim_spreadsheets(state: Data<&Arc<SimState>>) -> Json<Vec<SpreadsheetSnapshot>> {
    Json(state.store().all().map(Spreadsheet::snapshot).collect())
}

#[handler]
fn sim_spreadsheet(Path(id): Path<String>, state: Data<&Arc<SimState>>) -> Response {
    match state.store().get(&id) {
        Some(sheet) => Json(sheet.snapshot()).into_response(),
        None => sim_error(StatusCode::NOT_FOUND, &format!("no spreadsheet {id}")),
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct GrantBody {
    identity: String,
    scopes: Option<Vec<String>>,
}

/// `POST /_sim/grants`: a refresh token for a browser test to hand to the app.
#[handler]
fn sim_grant(Json(body): Json<GrantBody>, state: Data<&Arc<SimState>>) -> Json<Value> {
    let scopes: Vec<String> = body
        .scopes
        .unwrap_or_else(|| vec![SCOPE_SPREADSHEETS.to_owned(), SCOPE_DRIVE_FILE.to_owned()]);
    let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
    let refresh_token = state.auth().grant(&body.identity, &scopes);
    Json(json!({ "refreshToken": refresh_token }))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RevokeBody {
    refresh_token: String,
}

#[handler]
fn sim_revoke(Json(body): Json<RevokeBody>, state: Data<&Arc<SimState>>) -> Response {
    if state.auth().revoke(&body.refresh_token) {
        StatusCode::NO_CONTENT.into_response()
    } else {
        sim_error(StatusCode::NOT_FOUND, "unknown or already revoked token")
    }
}

#[handler]
fn sim_expire(state: Data<&Arc<SimState>>) -> StatusCode {
    state.auth().expire_all();
    StatusCode::NO_CONTENT
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ShareBody {
    spreadsheet_id: String,
    identity: String,
}

#[handler]
fn sim_share(Json(body): Json<ShareBody>, state: Data<&Arc<SimState>>) -> Response {
    let found = state.with_sheet(&body.spreadsheet_id, |sheet| {
        if sheet.owner != body.identity {
            sheet.shared_with.insert(body.identity.clone());
        }
    });
    sheet_change_response(found)
}

#[handler]
fn sim_opened_with_app(Json(body): Json<ShareBody>, state: Data<&Arc<SimState>>) -> Response {
    let found = state.with_sheet(&body.spreadsheet_id, |sheet| {
        if sheet.owner != body.identity {
            sheet.shared_with.insert(body.identity.clone());
        }
        sheet.opened_with_app.insert(body.identity.clone());
    });
    sheet_change_response(found)
}

fn sheet_change_response(found: bool) -> Response {
    if found {
        StatusCode::NO_CONTENT.into_response()
    } else {
        sim_error(StatusCode::NOT_FOUND, "no such spreadsheet")
    }
}

#[derive(Debug, Deserialize)]
struct FailNextBody {
    count: usize,
    status: u16,
}

#[handler]
fn sim_fail_next(Json(body): Json<FailNextBody>, state: Data<&Arc<SimState>>) -> StatusCode {
    state.faults.fail_next(body.count, body.status);
    StatusCode::NO_CONTENT
}

#[handler]
fn sim_requests(state: Data<&Arc<SimState>>) -> Json<Vec<RecordedRequest>> {
    Json(state.log.all())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sheets_paths_with_custom_methods() {
        let post = HttpMethod::POST;
        let get = HttpMethod::GET;
        assert_eq!(SheetsCall::parse(&post, "/v4/spreadsheets"), Some(SheetsCall::Create));
        assert_eq!(
            SheetsCall::parse(&post, "/v4/spreadsheets/1abc:batchUpdate"),
            Some(SheetsCall::BatchUpdate("1abc".to_owned()))
        );
        assert_eq!(
            SheetsCall::parse(&post, "/v4/spreadsheets/1abc/values/%27My%20Tab%27!A1:D:append"),
            Some(SheetsCall::Append("1abc".to_owned(), "'My Tab'!A1:D".to_owned()))
        );
        assert_eq!(
            SheetsCall::parse(&post, "/v4/spreadsheets/1abc/values/Tab%21A1%3AD:append"),
            Some(SheetsCall::Append("1abc".to_owned(), "Tab!A1:D".to_owned()))
        );
        assert_eq!(
            SheetsCall::parse(&get, "/v4/spreadsheets/1abc/values/Tab%21A1%3AD"),
            Some(SheetsCall::GetValues("1abc".to_owned(), "Tab!A1:D".to_owned()))
        );
        assert_eq!(
            SheetsCall::parse(&get, "/v4/spreadsheets/1abc"),
            Some(SheetsCall::Get("1abc".to_owned()))
        );
        assert_eq!(SheetsCall::parse(&post, "/v4/spreadsheets/1abc:copyTo"), None);
        assert_eq!(
            SheetsCall::parse(&post, "/v4/spreadsheets/1abc/values/A1%3Aappend"),
            None
        );
        assert_eq!(SheetsCall::parse(&get, "/v4/spreadsheets/1abc/sheets/0"), None);
    }
}
