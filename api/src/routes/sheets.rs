//! Google Sheets export: `/api/leads/sheets/*` and `/api/leads/export-to-sheets`.
//!
//! Leads arrive in the export request and go straight to Google; nothing of them is
//! stored. A missing, expired or revoked grant answers 403 with `needsReauth: true`
//! (401 stays reserved for our own session token).

use crate::text::Text;
use leadgen_core::{
    audit::{self, Action},
    enrich::Contacts,
    ids::WorkspaceId,
    sheets::{self, ExportRow, ExportTarget, MAX_EXPORT_ROWS, SheetsError},
};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};

use super::ApiTags;
use crate::{
    auth::{Auth, access},
    error::{ApiError, ErrorBody, body},
    state::AppState,
};

/// Longest text accepted in one cell.
pub(crate) const MAX_CELL_CHARS: usize = 2_000;

/// The Sheets connection, for the settings screen and before an export.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SheetsAuthStatus {
    /// The request itself worked.
    pub success: bool,
    /// Google accepts the stored grant: exports can go ahead.
    pub authenticated: bool,
    /// A refresh token is stored.
    pub has_refresh_token: bool,
    /// The user must grant Sheets access (again) through `/api/auth/google?feature=sheets`.
    pub needs_reauth: bool,
    /// What to tell the user.
    pub message: String,
}

/// A spreadsheet the user can export to.
#[derive(Debug, Object)]
pub struct SheetItem {
    /// Spreadsheet id.
    pub id: String,
    /// Title.
    pub name: String,
}

/// The user's spreadsheets.
#[derive(Debug, Object)]
pub struct SheetsListResponse {
    /// Always true; failures answer with an error status.
    pub success: bool,
    /// Spreadsheets created by the app and those the user validated.
    pub sheets: Vec<SheetItem>,
}

/// A spreadsheet to check, by id or full URL.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ValidateSheetRequest {
    /// `https://docs.google.com/spreadsheets/d/{id}/...` or the bare id.
    #[oai(validator(min_length = 1, max_length = 500))]
    pub spreadsheet_id: Text,
}

/// A tab of a spreadsheet.
#[derive(Debug, Object)]
pub struct WorksheetItem {
    /// Tab title.
    pub name: String,
}

/// A spreadsheet the user's Google account can open.
#[derive(Debug, Object)]
pub struct ValidateSheetResponse {
    /// Always true; failures answer with an error status.
    pub success: bool,
    /// Spreadsheet id.
    pub id: String,
    /// Title.
    pub name: String,
    /// Browser URL.
    pub url: String,
    /// Its tabs, in order.
    pub worksheets: Vec<WorksheetItem>,
}

/// The tabs of a spreadsheet.
#[derive(Debug, Object)]
pub struct WorksheetsResponse {
    /// Always true; failures answer with an error status.
    pub success: bool,
    /// Tabs, in order.
    pub worksheets: Vec<WorksheetItem>,
}

/// One lead to write. Other fields of a streamed lead (rating...) are accepted and
/// ignored.
#[derive(Debug, Object)]
pub struct ExportLead {
    /// Google's place id (a streamed lead's `placeId`): the workspace's place memory
    /// marks it exported (issue #29, `exclude: exported`). Not written to the sheet.
    #[oai(rename = "placeId")]
    pub place_id: Option<Text>,
    /// Business name.
    pub name: Text,
    /// Formatted address.
    #[oai(default)]
    pub address: Text,
    /// Phone; empty or absent gives an empty cell.
    pub phone: Option<Text>,
    /// Website; empty or absent gives an empty cell.
    pub website: Option<Text>,
    /// What its website publishes (an enriched search's lead): written to the columns
    /// Email (the emails, comma-separated), Facebook, Instagram, LinkedIn, X, YouTube and
    /// TikTok when the request says `enriched`.
    pub contacts: Option<Contacts>,
}

/// What to export where (spec section 5).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ExportToSheetsRequest {
    /// The leads, in order.
    pub leads: Vec<ExportLead>,
    /// An existing spreadsheet (id or URL). When absent a new spreadsheet is created.
    pub sheet_id: Option<Text>,
    /// Title of a new spreadsheet; blank means '{location} {businessType} Leads'.
    pub sheet_name: Option<Text>,
    /// Tab: blank means the first tab (existing sheet) or the default tab (new sheet); a
    /// name that does not exist is created with the header Name, Address, Phone, Website.
    pub worksheet_name: Option<Text>,
    /// The search's business type.
    #[oai(default)]
    pub business_type: Text,
    /// The search's location.
    #[oai(default)]
    pub location: Text,
    /// The leads come from an enriched search: after Name, Address, Phone and Website each
    /// row gets Email, Facebook, Instagram, LinkedIn, X, YouTube and TikTok (a new tab's
    /// header too). Default false: the four columns only.
    pub enriched: Option<bool>,
}

/// What an export did.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ExportToSheetsResponse {
    /// Always true; failures answer with an error status.
    pub success: bool,
    /// What to tell the user.
    pub message: String,
    /// Opens the spreadsheet at the tab written.
    pub sheet_url: String,
    /// The spreadsheet written.
    pub spreadsheet_id: String,
    /// Its title.
    pub sheet_name: String,
    /// The tab written.
    pub worksheet_name: String,
    /// Lead rows written.
    pub rows_written: u64,
}

/// The failures of a Sheets operation: [`ApiError`]'s, plus 403 when Google Sheets access
/// must be granted again.
#[derive(Debug, ApiResponse)]
pub enum SheetsApiError {
    /// The request cannot be accepted; `message` says why.
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// No valid session token (missing, malformed, expired, revoked).
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// Google Sheets access is missing, expired or revoked: `needsReauth` is true and the
    /// user should go through `/api/auth/google?feature=sheets`. Or an API token without
    /// the `exports:write` scope (`insufficient_scope`, no `needsReauth`).
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// The spreadsheet does not exist or the user's Google account cannot open it.
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Google's quota for the user is used up for now.
    #[oai(status = 429)]
    TooManyRequests(Json<ErrorBody>),
    /// An unexpected failure on our side; details are logged, not returned.
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    /// Google failed in a way the user cannot fix here.
    #[oai(status = 502)]
    BadGateway(Json<ErrorBody>),
    /// Sheets export is not available on this server, or a dependency is down.
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

impl From<ApiError> for SheetsApiError {
    fn from(error: ApiError) -> Self {
        match error {
            ApiError::BadRequest(b) => Self::BadRequest(b),
            ApiError::Unauthorized(b) => Self::Unauthorized(b),
            ApiError::Forbidden(b) => Self::Forbidden(b),
            ApiError::NotFound(b) => Self::NotFound(b),
            ApiError::TooManyRequests(b) => Self::TooManyRequests(b),
            ApiError::Internal(b) => Self::Internal(b),
            ApiError::BadGateway(b) => Self::BadGateway(b),
            ApiError::Unavailable(b) => Self::Unavailable(b),
            // No Sheets operation reads a search's results or conflicts with anything.
            ApiError::Gone(b) | ApiError::Conflict(b) => Self::Internal(b),
        }
    }
}

/// Google Sheets operations.
pub struct SheetsApi;

#[OpenApi(tag = "ApiTags::Sheets", prefix_path = "/leads")]
impl SheetsApi {
    /// Sheets connection status
    ///
    /// Whether Google accepts the user's Sheets grant right now (checked by minting an
    /// access token), so the settings screen and the export button know whether to ask
    /// for re-authentication.
    ///
    /// API tokens: need the `exports:write` scope.
    #[oai(
        path = "/sheets/auth-status",
        method = "get",
        operation_id = "get_sheets_auth_status"
    )]
    async fn get_sheets_auth_status(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::ExportsWrite>,
    ) -> Result<Json<SheetsAuthStatus>, SheetsApiError> {
        let status = state.sheets.status(&auth.0.user.id).await.map_err(api_error)?;
        Ok(Json(SheetsAuthStatus {
            success: true,
            authenticated: status.authenticated,
            has_refresh_token: status.has_refresh_token,
            needs_reauth: status.needs_reauth,
            message: status.message,
        }))
    }

    /// The user's spreadsheets
    ///
    /// The spreadsheets the app created for the user (from Drive) and the ones the user
    /// validated. 403 with `needsReauth` when Sheets access is missing or expired.
    ///
    /// API tokens: need the `exports:write` scope.
    #[oai(path = "/sheets", method = "get", operation_id = "list_sheets")]
    async fn list_sheets(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::ExportsWrite>,
    ) -> Result<Json<SheetsListResponse>, SheetsApiError> {
        let sheets = state.sheets.list(&auth.0.user.id).await.map_err(api_error)?;
        Ok(Json(SheetsListResponse {
            success: true,
            sheets: sheets
                .into_iter()
                .map(|s| SheetItem { id: s.id, name: s.name })
                .collect(),
        }))
    }

    /// Check a spreadsheet
    ///
    /// Takes a spreadsheet id or its full URL; answers its id, title and tabs when the
    /// user's Google account can open it, and adds it to the user's list.
    ///
    /// API tokens: need the `exports:write` scope.
    #[oai(path = "/sheets/validate", method = "post", operation_id = "validate_sheet")]
    async fn validate_sheet(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::ExportsWrite>,
        body: Json<ValidateSheetRequest>,
    ) -> Result<Json<ValidateSheetResponse>, SheetsApiError> {
        let info = state
            .sheets
            .validate(&auth.0.user.id, &body.0.spreadsheet_id)
            .await
            .map_err(api_error)?;
        Ok(Json(ValidateSheetResponse {
            success: true,
            id: info.id,
            name: info.name,
            url: info.url,
            worksheets: info.worksheets.into_iter().map(|name| WorksheetItem { name }).collect(),
        }))
    }

    /// The tabs of a spreadsheet
    ///
    /// API tokens: need the `exports:write` scope.
    #[oai(path = "/sheets/:id/worksheets", method = "get", operation_id = "list_worksheets")]
    async fn list_worksheets(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::ExportsWrite>,
        id: Path<String>,
    ) -> Result<Json<WorksheetsResponse>, SheetsApiError> {
        let tabs = state
            .sheets
            .worksheets(&auth.0.user.id, &id.0)
            .await
            .map_err(api_error)?;
        Ok(Json(WorksheetsResponse {
            success: true,
            worksheets: tabs.into_iter().map(|name| WorksheetItem { name }).collect(),
        }))
    }

    /// Export leads to Google Sheets
    ///
    /// Writes the leads to a new spreadsheet or an existing one (spec section 5), in
    /// batches within Google's request limits, retrying Google's passing failures.
    /// Nothing of the leads is stored here.
    ///
    /// API tokens: need the `exports:write` scope.
    #[oai(path = "/export-to-sheets", method = "post", operation_id = "export_to_sheets")]
    async fn export_to_sheets(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::ExportsWrite>,
        request: &poem::Request,
        body: Json<ExportToSheetsRequest>,
    ) -> Result<Json<ExportToSheetsResponse>, SheetsApiError> {
        let exported: Vec<String> = body
            .0
            .leads
            .iter()
            .filter_map(|lead| lead.place_id.as_ref())
            .map(|id| id.0.trim().to_owned())
            .filter(|id| !id.is_empty())
            .collect();
        let request_body = export_request(body.0)?;
        let outcome = state
            .sheets
            .export(&auth.0.user.id, request_body)
            .await
            .map_err(api_error)?;
        tracing::info!(rows = outcome.rows_written, "exported to Google Sheets");
        // Sheets access is the person's, so this operation takes no workspace; the log
        // records the export in the workspace the web app says it was made from (the
        // header, when the caller is a member there), else the personal one.
        let personal = WorkspaceId::personal(&auth.0.user.id);
        let named = crate::auth::workspace::from_header(request).ok().flatten();
        let workspace = match named {
            Some(named)
                if state
                    .store
                    .member_role(&named, &auth.0.user.id)
                    .await
                    .map_err(ApiError::from)?
                    .is_some() =>
            {
                named
            }
            _ => personal,
        };
        audit::record(
            &state.store,
            &workspace,
            Some(&auth.0.user.id),
            Action::ExportMade,
            &outcome.spreadsheet_id,
            serde_json::json!({"to": "google_sheets", "rows": outcome.rows_written}),
        )
        .await;
        // A place id is an opaque Google id: the memory keeps what it was given, in the
        // workspace the export was made from.
        if let Err(e) = state.store.mark_exported(&workspace, &exported).await {
            tracing::warn!(error = %e, "could not mark the exported places in the place memory");
        }
        Ok(Json(ExportToSheetsResponse {
            success: true,
            message: outcome.message,
            sheet_url: outcome.sheet_url,
            spreadsheet_id: outcome.spreadsheet_id,
            sheet_name: outcome.spreadsheet_name,
            worksheet_name: outcome.worksheet,
            rows_written: outcome.rows_written,
        }))
    }
}

/// Checks the request's shape and turns it into the domain's.
fn export_request(body: ExportToSheetsRequest) -> Result<sheets::ExportRequest, SheetsApiError> {
    let invalid = |message: String| SheetsApiError::from(ApiError::bad_request("invalid_request", message));
    if body.leads.is_empty() {
        return Err(invalid("There are no leads to export.".to_owned()));
    }
    if body.leads.len() > MAX_EXPORT_ROWS {
        return Err(invalid(format!(
            "At most {MAX_EXPORT_ROWS} leads can be exported at once; this request has {}.",
            body.leads.len()
        )));
    }
    let mut rows = Vec::with_capacity(body.leads.len());
    for (i, lead) in body.leads.into_iter().enumerate() {
        let row = ExportRow {
            name: lead.name.into_string(),
            address: lead.address.into_string(),
            phone: lead.phone.unwrap_or_default().into_string(),
            website: lead.website.unwrap_or_default().into_string(),
            contacts: lead.contacts.unwrap_or_default(),
        };
        let contact_cells = sheets::enriched_cells(&row.contacts);
        for (field, text) in [
            ("name", &row.name),
            ("address", &row.address),
            ("phone", &row.phone),
            ("website", &row.website),
        ]
        .into_iter()
        .chain(sheets::ENRICHED_HEADER.into_iter().zip(&contact_cells))
        {
            if text.chars().count() > MAX_CELL_CHARS {
                return Err(invalid(format!(
                    "Lead {}: {field} is longer than {MAX_CELL_CHARS} characters.",
                    i + 1
                )));
            }
        }
        if row.name.trim().is_empty() {
            return Err(invalid(format!("Lead {}: name is empty.", i + 1)));
        }
        rows.push(row);
    }
    for (field, text) in [("businessType", &body.business_type), ("location", &body.location)] {
        if text.chars().count() > 200 {
            return Err(invalid(format!("{field} is longer than 200 characters.")));
        }
    }
    let target = match body.sheet_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(id_or_url) => ExportTarget::Existing {
            spreadsheet_id: sheets::a1::spreadsheet_id(id_or_url)
                .ok_or_else(|| invalid(format!("'{id_or_url}' is not a spreadsheet id or link.")))?,
        },
        None => ExportTarget::New {
            name: body.sheet_name.map(Text::into_string),
        },
    };
    Ok(sheets::ExportRequest {
        rows,
        enriched: body.enriched.unwrap_or(false),
        target,
        worksheet: body.worksheet_name.map(Text::into_string),
        business_type: body.business_type.into_string(),
        location: body.location.into_string(),
    })
}

/// Maps the domain's failures to the envelope.
pub(crate) fn api_error(error: SheetsError) -> SheetsApiError {
    SheetsApiError::from(match error {
        SheetsError::Unavailable => ApiError::unavailable("sheets_unavailable", error.to_string()),
        SheetsError::NeedsReauth(message) => {
            let mut reauth = body("needs_reauth", message);
            reauth.needs_reauth = Some(true);
            return SheetsApiError::Forbidden(reauth);
        }
        SheetsError::NotFound(message) => ApiError::not_found(message),
        SheetsError::Invalid(message) => ApiError::bad_request("invalid_request", message),
        SheetsError::QuotaExhausted { .. } => ApiError::too_many("sheets_quota", error.to_string()),
        SheetsError::Upstream { .. } | SheetsError::Network(_) => {
            tracing::warn!(error = %error, "Google Sheets call failed");
            ApiError::bad_gateway("sheets_error", error.to_string())
        }
        SheetsError::Core(e) => e.into(),
    })
}
