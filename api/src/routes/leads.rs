//! Leads: `/api/leads/*`. Searching arrives with the search pipeline.

use leadgen_core::places::PlacesError;
use poem::web::Data;
use poem_openapi::{Object, OpenApi, payload::Json};
use secrecy::ExposeSecret;

use super::ApiTags;
use crate::{auth::BearerAuth, error::ApiError, state::AppState};

/// Result of testing the key against Google.
#[derive(Debug, Object)]
pub struct TestApiKeyResponse {
    /// Always true here: failures answer with an error status and message.
    pub valid: bool,
    /// What happened.
    pub message: String,
}

/// Lead operations.
pub struct LeadsApi;

#[OpenApi(tag = "ApiTags::Leads", prefix_path = "/leads")]
impl LeadsApi {
    /// Test the stored Places API key
    ///
    /// Makes the cheapest real Places API (New) call (Text Search, ids only, one result)
    /// with the stored key and records whether it worked. A key Google refuses answers
    /// 400 with Google's reason in plain words; a passing upstream fault answers 502 or
    /// 503 and leaves the recorded status unchanged.
    #[oai(path = "/test-api-key", method = "post", operation_id = "test_api_key")]
    async fn test_api_key(
        &self,
        state: Data<&AppState>,
        auth: BearerAuth,
    ) -> Result<Json<TestApiKeyResponse>, ApiError> {
        let user_id = &auth.0.user.id;
        let Some(opened) = state.keys.open(user_id).await? else {
            return Err(ApiError::bad_request(
                "no_api_key",
                "Please add your Google Places API key in Settings before testing it",
            ));
        };
        match state.places.check_key(opened.key.expose_secret()).await {
            Ok(()) => {
                state.keys.record_check(user_id, &opened, true).await?;
                Ok(Json(TestApiKeyResponse {
                    valid: true,
                    message: "API key is valid and working".into(),
                }))
            }
            Err(e) if e.is_key_problem() => {
                state.keys.record_check(user_id, &opened, false).await?;
                Err(ApiError::bad_request("invalid_api_key", e.to_string()))
            }
            Err(e @ PlacesError::QuotaExhausted { .. }) => Err(ApiError::unavailable("quota_exhausted", e.to_string())),
            Err(e) => Err(ApiError::bad_gateway("upstream_error", e.to_string())),
        }
    }
}
