//! Export to Google Sheets. A user grants Sheets access once (the sign-in's `sheets`
//! feature); the refresh token is sealed by the vault; access tokens are minted on demand
//! and kept in memory only. Leads pass from the request straight to Google: nothing of
//! them is stored here, only the ids and titles of the user's spreadsheets.
//!
//! - [`google`]: the HTTP client for Google's token endpoint, Sheets API v4 and Drive v3.
//! - [`a1`]: spreadsheet ids from URLs, tab names in A1 notation.
//! - [`service`]: grants, the token cache and the export itself.

pub mod a1;
mod error;
pub mod google;
mod service;

pub use error::SheetsError;
pub use service::{
    ENRICHED_HEADER, ExportOutcome, ExportRequest, ExportRow, ExportTarget, HEADER, MAX_EXPORT_ROWS, SheetSummary,
    SheetsService, SheetsStatus, SpreadsheetInfo, enriched_cells,
};
