//! Delivering a finished search without anyone at the screen (issue #26 item 2; the
//! monitors of #29 deliver through the same code): its leads as a CSV mailed to the
//! account's own address, or as a new tab in one of the user's spreadsheets.

mod csv;
mod mail;
mod xlsx;

pub use csv::{file_name, file_name_with, file_slug, leads_csv, spreadsheet_cell};
pub use mail::{MailConfig, MailError, MailFile, Mailer};
pub use rust_xlsxwriter::XlsxError;
pub use xlsx::leads_xlsx;

/// Where a finished search goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "DeliveryKind", rename_all = "snake_case")
)]
pub enum DeliveryKind {
    /// A CSV file mailed to the account's own address.
    Email,
    /// A new tab in a spreadsheet of the user's.
    Sheets,
}

impl DeliveryKind {
    /// The stored (and wire) word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Sheets => "sheets",
        }
    }
}

/// A user's choice of automatic delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryPreference {
    /// How.
    pub kind: DeliveryKind,
    /// The spreadsheet, for [`DeliveryKind::Sheets`].
    pub spreadsheet_id: Option<String>,
    /// Its title when chosen.
    pub spreadsheet_name: Option<String>,
}

/// How a search's delivery went, as its history says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "DeliveryStatus", rename_all = "snake_case")
)]
pub enum DeliveryStatus {
    /// Queued, not yet done.
    Pending,
    /// Done.
    Sent,
    /// Given up; the detail says why.
    Failed,
}

impl DeliveryStatus {
    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Sent => "sent",
            Self::Failed => "failed",
        }
    }
}
