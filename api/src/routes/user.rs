//! The user's account: `/api/user/*`.

use crate::text::Text;
use leadgen_core::{
    audit::{self, Action},
    keys::KeyStatus,
};
use poem::web::Data;
use poem_openapi::{Object, OpenApi, payload::Json};
use serde_json::json;

use super::ApiTags;
use crate::{
    auth::{Auth, access},
    error::{ApiError, Fails, status::*},
    state::AppState,
};

/// Result of finishing onboarding.
#[derive(Debug, Object)]
pub struct OnboardingResponse {
    /// Always true on success.
    pub success: bool,
    /// What happened.
    pub message: String,
}

/// What may be shown about the user's Places API key.
#[derive(Debug, Object)]
pub struct ApiKeyStatus {
    /// A key is stored.
    pub has_key: bool,
    /// The key's first 4 and last 4 characters; the rest masked.
    #[oai(nullable)]
    pub key_preview: Option<String>,
    /// Result of the last test: true (works), false (refused by Google), null (not
    /// tested since it was saved).
    #[oai(nullable)]
    pub is_valid: Option<bool>,
}

impl From<KeyStatus> for ApiKeyStatus {
    fn from(s: KeyStatus) -> Self {
        Self {
            has_key: s.has_key,
            key_preview: s.key_preview,
            is_valid: s.is_valid,
        }
    }
}

/// Envelope of the key status, as the spec names it.
#[derive(Debug, Object)]
pub struct ApiKeyStatusResponse {
    /// The status.
    pub api_key_status: ApiKeyStatus,
}

/// A new key, or an empty string to delete the stored one.
#[derive(Debug, Object)]
pub struct SaveApiKeyRequest {
    /// The Google Places API key; trimmed. Empty deletes the stored key.
    #[oai(validator(max_length = 256))]
    pub api_key: Text,
}

/// Result of saving or deleting the key.
#[derive(Debug, Object)]
pub struct SaveApiKeyResponse {
    /// What happened.
    pub message: String,
    /// The status after the change.
    pub api_key_status: ApiKeyStatus,
}

/// Account operations.
pub struct UserApi;

#[OpenApi(tag = "ApiTags::User", prefix_path = "/user")]
impl UserApi {
    /// Finish onboarding
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/complete-onboarding", method = "post", operation_id = "complete_onboarding")]
    async fn complete_onboarding(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::Session>,
    ) -> Result<Json<OnboardingResponse>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN }>> {
        if !state.store.complete_onboarding(&auth.0.user.id).await? {
            return Err(ApiError::session_invalid().into());
        }
        Ok(Json(OnboardingResponse {
            success: true,
            message: "Onboarding completed".into(),
        }))
    }

    /// The Places API key's status
    ///
    /// API tokens: any valid token.
    #[oai(path = "/api-key/status", method = "get", operation_id = "get_api_key_status")]
    async fn get_api_key_status(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WorkspaceRead>,
    ) -> Result<Json<ApiKeyStatusResponse>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        let status = state.keys.status(auth.workspace()).await?;
        Ok(Json(ApiKeyStatusResponse {
            api_key_status: status.into(),
        }))
    }

    /// Save or delete the Places API key
    ///
    /// Stores the key encrypted (AES-256-GCM). An empty `api_key` deletes it. A value that
    /// cannot be a Google API key is refused with 400.
    ///
    /// API tokens: need the `keys:write` scope.
    #[oai(path = "/api-key", method = "post", operation_id = "save_api_key")]
    async fn save_api_key(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::KeysWrite>,
        body: Json<SaveApiKeyRequest>,
    ) -> Result<Json<SaveApiKeyResponse>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN }>> {
        let workspace = auth.workspace();
        let key = body.0.api_key.trim();
        let actor = Some(&auth.0.user.id);
        let message = if key.is_empty() {
            if state.keys.delete(workspace).await? {
                audit::record(
                    &state.store,
                    workspace,
                    actor,
                    Action::KeyRemoved,
                    "places_api_key",
                    json!({}),
                )
                .await;
                "API key deleted"
            } else {
                "No API key was stored"
            }
        } else {
            state.keys.save(workspace, key).await.map_err(|e| match e {
                leadgen_core::CoreError::Invalid(m) => ApiError::bad_request("invalid_api_key", m),
                other => other.into(),
            })?;
            audit::record(
                &state.store,
                workspace,
                actor,
                Action::KeySaved,
                "places_api_key",
                json!({}),
            )
            .await;
            "API key saved successfully"
        };
        Ok(Json(SaveApiKeyResponse {
            message: message.into(),
            api_key_status: state.keys.status(workspace).await?.into(),
        }))
    }
}
