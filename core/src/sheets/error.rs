//! What can go wrong exporting to Sheets, with messages a user can act on.

use std::time::Duration;

use crate::CoreError;

/// Shown when the grant is missing, expired, revoked or lacks the Sheets scopes.
pub const REAUTH_REQUIRED: &str = "Re-authentication required";
/// Shown when Google no longer accepts the stored grant.
pub const AUTH_EXPIRED: &str = "Authentication expired";

/// A failure of a Sheets operation.
#[derive(Debug, thiserror::Error)]
pub enum SheetsError {
    /// Sheets export needs Google sign-in, which this server does not use.
    #[error(
        "Google Sheets export is not available on this server: it needs sign-in with Google (LEADGEN_OIDC_CLIENT_ID)."
    )]
    Unavailable,
    /// The user must grant (again) Sheets access; the text says why.
    #[error("{0}")]
    NeedsReauth(String),
    /// The spreadsheet does not exist, or the user's Google account cannot open it.
    #[error("{0}")]
    NotFound(String),
    /// Google or we refused the request as given; the text says why.
    #[error("{0}")]
    Invalid(String),
    /// Google's quota for the user is used up for now.
    #[error("Google Sheets is busy for your account right now (quota). Wait a minute and try again.")]
    QuotaExhausted {
        /// Google's `Retry-After`, when given.
        retry_after: Option<Duration>,
    },
    /// Another failure answered by Google.
    #[error("Google Sheets returned an error ({status}): {message}")]
    Upstream {
        /// HTTP status.
        status: u16,
        /// Google's message.
        message: String,
    },
    /// Google could not be reached or did not answer in time.
    #[error("Could not reach Google Sheets: {0}")]
    Network(String),
    /// Our own store or vault failed.
    #[error(transparent)]
    Core(#[from] CoreError),
}

impl SheetsError {
    /// Whether the same request may succeed if sent again shortly.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::QuotaExhausted { .. } | Self::Network(_) => true,
            Self::Upstream { status, .. } => *status >= 500,
            _ => false,
        }
    }
}
