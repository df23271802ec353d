//! `export_search`'s answer (issue #29 item 6): a search's leads as a file, in the format
//! asked for, while its results are held in memory (the replay buffer; no lead is ever
//! stored). The CSV is the web app's file byte for byte; the XLSX has the same columns
//! with typed figures; the JSON is the contract's `Lead` objects.

use poem::{IntoResponse, Response};
use poem_openapi::{
    ApiResponse, Enum, Object,
    payload::Payload,
    registry::{MetaHeader, MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry},
    types::{ToJSON, Type},
};

use leadgen_core::{
    delivery,
    ids::SearchId,
    lead::{Lead, SearchParams},
};

use crate::error::ApiError;

/// An export's file format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum ExportFormat {
    /// The web app's CSV file (UTF-8 with a byte-order mark, every value quoted).
    #[default]
    Csv,
    /// An Excel workbook: the CSV's columns, figures as numbers, the header frozen.
    Xlsx,
    /// `ExportedLeads`: the leads as the contract's `Lead` objects.
    Json,
}

impl ExportFormat {
    /// The file name's extension, and the format's word in the audit log.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Xlsx => "xlsx",
            Self::Json => "json",
        }
    }

    /// Its `Content-Type`.
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Csv => CSV,
            Self::Xlsx => XLSX,
            Self::Json => JSON,
        }
    }
}

const CSV: &str = "text/csv; charset=utf-8";
const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const JSON: &str = "application/json; charset=utf-8";

/// A search's leads, as `format=json` answers them.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ExportedLeads {
    /// The search.
    pub search_id: SearchId,
    /// Catalogue value searched.
    pub business_type: String,
    /// Location as searched.
    pub location: String,
    /// Every lead, in the order the search sent them.
    pub leads: Vec<Lead>,
}

/// The file: its bytes, type and name (sent as `Content-Disposition: attachment`).
pub struct SearchExport {
    format: ExportFormat,
    file_name: String,
    bytes: Vec<u8>,
}

impl SearchExport {
    /// The file of `leads` in `format`, named like the web app's download.
    pub fn build(
        format: ExportFormat,
        search_id: &SearchId,
        search: &SearchParams,
        leads: &[Lead],
    ) -> Result<Self, ApiError> {
        let enriched = leads.iter().any(|lead| lead.contacts.is_some());
        let bytes = match format {
            ExportFormat::Csv => delivery::leads_csv(leads, enriched),
            ExportFormat::Xlsx => delivery::leads_xlsx(leads, enriched).map_err(|e| ApiError::internal(&e))?,
            ExportFormat::Json => {
                let body = ExportedLeads {
                    search_id: search_id.clone(),
                    business_type: search.business_type.clone(),
                    location: search.location.clone(),
                    leads: leads.to_vec(),
                };
                body.to_json_string().into_bytes()
            }
        };
        Ok(Self {
            format,
            file_name: delivery::file_name_with(
                &search.business_type,
                &search.location,
                chrono::Utc::now(),
                format.extension(),
            ),
            bytes,
        })
    }

    /// The file's name.
    pub fn file_name(&self) -> &str {
        &self.file_name
    }
}

/// The binary payload's schema: `string`, `format: binary`.
fn binary() -> MetaSchemaRef {
    MetaSchemaRef::Inline(Box::new(MetaSchema::new_with_format("string", "binary")))
}

impl IntoResponse for SearchExport {
    fn into_response(self) -> Response {
        // File names are slugs (ASCII letters, digits, hyphens), so no quoting or
        // `filename*` is needed.
        Response::builder()
            .content_type(self.format.content_type())
            .header(
                "Content-Disposition",
                format!("attachment; filename=\"{}\"", self.file_name),
            )
            .header("Cache-Control", "no-store")
            .body(self.bytes)
    }
}

impl ApiResponse for SearchExport {
    fn meta() -> MetaResponses {
        MetaResponses {
            responses: vec![MetaResponse {
                description: "The file, in the format asked for.",
                status: Some(200),
                status_range: None,
                content: vec![
                    MetaMediaType {
                        content_type: CSV,
                        schema: binary(),
                    },
                    MetaMediaType {
                        content_type: XLSX,
                        schema: binary(),
                    },
                    MetaMediaType {
                        content_type: JSON,
                        schema: <poem_openapi::payload::Json<ExportedLeads> as Payload>::schema_ref(),
                    },
                ],
                headers: vec![MetaHeader {
                    name: "Content-Disposition".into(),
                    description: Some(
                        "`attachment; filename=\"leads-{businessType}-{location}-{time}.{csv|xlsx|json}\"`, as the web app names a download."
                            .into(),
                    ),
                    required: true,
                    deprecated: false,
                    schema: String::schema_ref(),
                }],
            }],
        }
    }

    fn register(registry: &mut Registry) {
        ExportedLeads::register(registry);
    }
}
