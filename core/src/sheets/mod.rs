//! Export to Google Sheets. A user grants Sheets access once (the sign-in's `sheets`
//! feature); the refresh token is sealed by the vault; access tokens are minted on demand
//! and kept in memory only. Leads pass from the request straight to Google: nothing of
//! them is stored here, only the ids and titles of the user's spreadsheets.
//!
//! - [`google`]: the HTTP client for Google's token endpoint, Sheets API v4 and Drive v3.
//! - [`a1`]: spreadsheet ids from URLs, tab names in A1 notation.
//! - [`service`]: grants, the token cache and the export itself.

/// Google's scope for reading and writing the person's spreadsheets (the one an export
/// cannot do without).
pub const SCOPE_SPREADSHEETS: &str = "https://www.googleapis.com/auth/spreadsheets";
/// Google's scope for the Drive files the app created or the person opened with it (to
/// list and create spreadsheets).
pub const SCOPE_DRIVE_FILE: &str = "https://www.googleapis.com/auth/drive.file";
/// Every scope a sign-in asks for when the person chooses to export to Sheets.
pub const SCOPES: [&str; 2] = [SCOPE_SPREADSHEETS, SCOPE_DRIVE_FILE];

pub mod a1;
mod error;
pub mod google;
mod service;

pub use error::SheetsError;
pub use service::{
    ENRICHED_HEADER, ExportOutcome, ExportRequest, ExportRow, ExportTarget, HEADER, MAX_EXPORT_ROWS, SheetSummary,
    SheetsService, SheetsStatus, SpreadsheetInfo, enriched_cells,
};
