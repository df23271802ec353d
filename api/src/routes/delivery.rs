//! Automatic delivery of finished full searches (issue #26 item 2): `/api/user/delivery`.
//! A user chooses a CSV by email (to the account's own address: never another, so the
//! server cannot be made to mail strangers) or a new tab in one of their spreadsheets.

use leadgen_core::delivery::{DeliveryKind, DeliveryPreference};
use poem::web::Data;
use poem_openapi::{Enum, Object, OpenApi, payload::Json, types::Example};

use super::{
    ApiTags,
    sheets::{SheetsApiError, api_error},
};
use crate::{
    auth::{Auth, access},
    error::{ApiError, Fails, status::*},
    state::AppState,
    text::Text,
};

/// Where finished full searches go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum DeliveryChoice {
    /// Nowhere: open and export them yourself while they are held.
    None,
    /// A CSV file mailed to the account's own address.
    Email,
    /// A new tab in one spreadsheet.
    Sheets,
}

/// The user's automatic delivery, and what this server can deliver.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct DeliverySettings {
    /// The choice.
    pub kind: DeliveryChoice,
    /// Where email goes: the account's address.
    pub email: String,
    /// The spreadsheet, for `sheets`.
    #[oai(nullable)]
    pub spreadsheet_id: Option<String>,
    /// Its title when chosen.
    #[oai(nullable)]
    pub spreadsheet_name: Option<String>,
    /// False when this server has no mail server (`LEADGEN_SMTP_URL`): `email` is refused.
    pub email_available: bool,
    /// False when this server has no Google sign-in, which Sheets needs: `sheets` is refused.
    pub sheets_available: bool,
}

impl Example for DeliverySettings {
    fn example() -> Self {
        Self {
            kind: DeliveryChoice::Sheets,
            email: "jane@agency.example".into(),
            spreadsheet_id: Some("1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms".into()),
            spreadsheet_name: Some("Client leads".into()),
            email_available: true,
            sheets_available: true,
        }
    }
}

/// A new choice.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct UpdateDeliveryRequest {
    /// The choice.
    pub kind: DeliveryChoice,
    /// For `sheets`: the spreadsheet's id or link, one the user's Google account can open.
    #[oai(nullable, validator(max_length = 2000))]
    pub spreadsheet_id: Option<Text>,
}

impl Example for UpdateDeliveryRequest {
    fn example() -> Self {
        Self {
            kind: DeliveryChoice::Email,
            spreadsheet_id: None,
        }
    }
}

/// Automatic delivery operations.
pub struct DeliveryApi;

#[OpenApi(tag = "ApiTags::User", prefix_path = "/user")]
impl DeliveryApi {
    /// Automatic delivery of full searches
    ///
    /// Where a full search's leads go when it finishes, if anywhere.
    ///
    /// API tokens: any valid token.
    #[oai(path = "/delivery", method = "get", operation_id = "get_delivery")]
    async fn get_delivery(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceRead>,
    ) -> Result<Json<DeliverySettings>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        let preference = state.store.delivery_preference(auth.workspace()).await?;
        Ok(Json(settings(&state, &auth.0.user.email, preference.as_ref())))
    }

    /// Choose the automatic delivery of full searches
    ///
    /// `email`: each finished full search's CSV is mailed to the account's address (400
    /// `email_unavailable` when the server has no mail server). `sheets`: its leads go to a
    /// new tab of `spreadsheetId`, which the user's Google account must open (403 with
    /// `needsReauth` when Sheets access must be granted again, 404 when it cannot).
    /// `none`: nothing is delivered.
    ///
    /// API tokens: need the `exports:write` scope.
    #[oai(path = "/delivery", method = "put", operation_id = "update_delivery")]
    async fn update_delivery(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::DeliveryWrite>,
        body: Json<UpdateDeliveryRequest>,
    ) -> Result<Json<DeliverySettings>, SheetsApiError> {
        let user = &auth.0.user;
        let preference = match body.0.kind {
            DeliveryChoice::None => None,
            DeliveryChoice::Email => {
                if state.config.mail.is_none() {
                    return Err(ApiError::bad_request(
                        "email_unavailable",
                        "Delivery by email is not available: this server has no mail server set up.",
                    )
                    .into());
                }
                Some(DeliveryPreference {
                    kind: DeliveryKind::Email,
                    spreadsheet_id: None,
                    spreadsheet_name: None,
                })
            }
            DeliveryChoice::Sheets => {
                let Some(sheet) = body
                    .0
                    .spreadsheet_id
                    .as_deref()
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                else {
                    return Err(ApiError::bad_request(
                        "spreadsheet_required",
                        "Choose the spreadsheet full searches go to.",
                    )
                    .into());
                };
                let info = state.sheets.validate(&user.id, sheet).await.map_err(api_error)?;
                Some(DeliveryPreference {
                    kind: DeliveryKind::Sheets,
                    spreadsheet_id: Some(info.id),
                    spreadsheet_name: Some(info.name),
                })
            }
        };
        state
            .store
            .set_delivery_preference(auth.workspace(), preference.as_ref())
            .await
            .map_err(ApiError::from)?;
        Ok(Json(settings(&state, &user.email, preference.as_ref())))
    }
}

fn settings(state: &AppState, email: &str, preference: Option<&DeliveryPreference>) -> DeliverySettings {
    DeliverySettings {
        kind: match preference.map(|p| p.kind) {
            None => DeliveryChoice::None,
            Some(DeliveryKind::Email) => DeliveryChoice::Email,
            Some(DeliveryKind::Sheets) => DeliveryChoice::Sheets,
        },
        email: email.to_owned(),
        spreadsheet_id: preference.and_then(|p| p.spreadsheet_id.clone()),
        spreadsheet_name: preference.and_then(|p| p.spreadsheet_name.clone()),
        email_available: state.config.mail.is_some(),
        sheets_available: state.config.oidc.is_some(),
    }
}
