//! A fake of the Google endpoints the Sheets export uses, on one base URL with Google's
//! paths, so a client pointed at it sends exactly what it would send to Google:
//!
//! - `POST /token` (and `POST /revoke`): the OAuth 2.0 token endpoint
//!   (`oauth2.googleapis.com`), `refresh_token` grant only. Errors are OAuth's
//!   `{"error", "error_description"}` (`invalid_grant`, `invalid_client`, ...).
//! - Sheets API v4: `POST /v4/spreadsheets`, `GET /v4/spreadsheets/{id}`,
//!   `POST /v4/spreadsheets/{id}:batchUpdate` (`addSheet` only),
//!   `POST /v4/spreadsheets/{id}/values/{range}:append`, `GET /v4/spreadsheets/{id}/values/{range}`.
//! - Drive API v3: `GET /drive/v3/files` (spreadsheets only; `q` clauses on `mimeType`,
//!   `name` and `trashed` joined by `and`).
//!
//! Errors of Sheets and Drive use Google's envelope `{"error": {code, message, status,
//! details}}`; Drive's also carry the legacy `errors[]` array, as Drive v3 still sends it.
//!
//! Identities: a refresh token belongs to an identity (an email, say) and carries scopes;
//! access tokens minted from it carry both and expire. A spreadsheet has an owner and the
//! identities it is shared with. With only the `drive.file` scope an app sees the files it
//! created, or that the user opened with it ([`GoogleSim::mark_opened_with_app`]), as
//! Google documents for that scope.
//!
//! For retry and batching tests: a per-identity write quota (429 `RESOURCE_EXHAUSTED`),
//! injected failures ([`GoogleSim::fail_next`]), a log of requests
//! ([`GoogleSim::requests`]) and the row count of every append ([`GoogleSim::append_sizes`]).
//! Browser tests reach the same through `/_sim/*` (see [`GoogleSim`]).

mod a1;
mod config;
mod drive;
mod errors;
mod faults;
mod fields;
mod ids;
mod oauth;
mod record;
mod server;
mod sheets;
mod store;

pub use config::{DEFAULT_ACCESS_TOKEN_LIFETIME, GoogleSimBuilder, GoogleSimConfig, MAX_BODY_BYTES, OAuthClient};
pub use oauth::{
    SCOPE_DRIVE, SCOPE_DRIVE_FILE, SCOPE_DRIVE_METADATA_READONLY, SCOPE_DRIVE_READONLY, SCOPE_SPREADSHEETS,
    SCOPE_SPREADSHEETS_READONLY,
};
pub use record::RecordedRequest;
pub use server::GoogleSim;
pub use store::{SPREADSHEET_MIME_TYPE, SpreadsheetSnapshot, TabSnapshot};
