//! Webhook endpoints (issue #15): `/api/user/webhooks`. Register an https URL for
//! `search.completed` and `search.failed`; each message is signed with the endpoint's
//! secret as the Standard Webhooks specification says, delivered by a job through the
//! guarded client, retried for about a day, and logged (never its payload).

use crate::text::Text;
use leadgen_core::{
    audit::{self, Action},
    ids::{EndpointId, WorkspaceId},
    jobs::WebhookJobV1,
    store::{DeliveryRecord, EndpointRecord},
    time::now_unix,
    webhooks::{self, DeliveryFailure, EventType},
};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json, types::Example};
use serde_json::json;

use super::{ApiTags, searches::rfc3339};
use crate::{
    auth::{Auth, access},
    error::{ApiError, ErrorBody, Fails, status::*},
    state::AppState,
};

/// Log entries one page shows.
const DELIVERY_PAGE: i64 = 50;

/// An endpoint to register.
#[derive(Debug, Object)]
#[oai(example)]
pub struct CreateWebhookRequest {
    /// Where to POST messages: an https URL (plain http only for hosts the server allows
    /// for tests and demos). Private, loopback and metadata addresses are refused.
    #[oai(validator(max_length = 2000))]
    pub url: Text,
    /// What to send: `search.completed` (with the leads), `search.failed` and/or `saved_search.new_places` (a saved search run's new leads).
    #[oai(validator(max_items = 8))]
    pub events: Vec<String>,
}

impl Example for CreateWebhookRequest {
    fn example() -> Self {
        Self {
            url: "https://hooks.example.com/leadgen".into(),
            events: vec!["search.completed".into(), "search.failed".into()],
        }
    }
}

/// An endpoint as its list shows it (never its secret).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct WebhookInfo {
    /// Its id.
    pub id: EndpointId,
    /// Where messages go.
    pub url: String,
    /// What it receives.
    pub events: Vec<EventType>,
    /// False once deliveries failed for about a day (see `disabledReason`); a successful
    /// test event enables it again.
    pub enabled: bool,
    /// The notice shown when it was disabled.
    #[oai(nullable)]
    pub disabled_reason: Option<String>,
    /// When it was registered (RFC 3339).
    pub created_at: String,
}

impl Example for WebhookInfo {
    fn example() -> Self {
        Self {
            id: "0192f0c4-7a1e-7c3b-9a51-2f0d5f6b8e21".into(),
            url: "https://hooks.example.com/leadgen".into(),
            events: EventType::SUBSCRIBABLE.to_vec(),
            enabled: true,
            disabled_reason: None,
            created_at: "2026-11-25T15:00:00+00:00".into(),
        }
    }
}

impl From<EndpointRecord> for WebhookInfo {
    fn from(e: EndpointRecord) -> Self {
        Self {
            id: e.id,
            url: e.url,
            events: webhooks::events_from_stored(&e.events),
            enabled: e.enabled == 1,
            disabled_reason: e.disabled_reason,
            created_at: rfc3339(e.created_at),
        }
    }
}

/// An endpoint with its signing secret: shown this once.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct WebhookWithSecret {
    /// The signing secret (`whsec_` and base64). Keep it: it is not shown again. Verify
    /// each message's `webhook-signature` with it (see docs/api-quickstart.md).
    pub secret: String,
    /// The endpoint.
    pub webhook: WebhookInfo,
}

impl Example for WebhookWithSecret {
    fn example() -> Self {
        Self {
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into(),
            webhook: WebhookInfo::example(),
        }
    }
}

/// The caller's endpoints.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct WebhookList {
    /// Newest first.
    pub webhooks: Vec<WebhookInfo>,
    /// The events an endpoint can receive.
    pub available_events: Vec<EventType>,
}

/// One delivery attempt (never its payload).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct DeliveryInfo {
    /// When it was attempted (RFC 3339).
    pub at: String,
    /// The event.
    pub event: EventType,
    /// The message's `webhook-id` (the same for every attempt of one message).
    pub message_id: String,
    /// 1 for the first try, then 2, 3...
    pub attempt: i64,
    /// The endpoint's HTTP status, if it answered.
    #[oai(nullable)]
    pub status_code: Option<i64>,
    /// How long the attempt took, milliseconds.
    pub latency_ms: i64,
    /// Whether the endpoint answered 2xx.
    pub succeeded: bool,
    /// Why it failed, one of: `address not allowed or unreachable` (a private or refused
    /// address, a name that does not resolve, nothing listening), `timed out`, `TLS error`,
    /// `response too large`, `HTTP <status>` (a status other than 2xx; redirects are not
    /// followed), `request failed` (the exchange broke off).
    #[oai(nullable)]
    pub error: Option<String>,
}

impl Example for DeliveryInfo {
    fn example() -> Self {
        Self {
            at: "2026-11-25T15:00:03+00:00".into(),
            event: EventType::SearchCompleted,
            message_id: "msg_0192f0c47a1e7c3b9a512f0d5f6b8e21".into(),
            attempt: 1,
            status_code: Some(200),
            latency_ms: 142,
            succeeded: true,
            error: None,
        }
    }
}

impl TryFrom<DeliveryRecord> for DeliveryInfo {
    type Error = ApiError;

    /// A logged event name no version wrote is a corrupt row (500).
    fn try_from(d: DeliveryRecord) -> Result<Self, ApiError> {
        let event = ApiError::stored("webhook_deliveries.event_type", &d.event_type)?;
        Ok(Self {
            at: rfc3339(d.created_at),
            event,
            message_id: d.message_id,
            attempt: d.attempt,
            status_code: d.status_code,
            latency_ms: d.latency_ms,
            succeeded: d.succeeded == 1,
            // Read back through the fixed outcomes: rows logged before they existed hold
            // the client's own words.
            error: d.error.map(|e| DeliveryFailure::from_logged(&e).to_string()),
        })
    }
}

/// An endpoint's latest delivery attempts.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct DeliveryList {
    /// Newest first, at most 50.
    pub deliveries: Vec<DeliveryInfo>,
}

/// A queued test event.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct TestEventQueued {
    /// Its `webhook-id`; its attempt appears in the delivery log within seconds.
    pub message_id: String,
}

impl Example for TestEventQueued {
    fn example() -> Self {
        Self {
            message_id: "msg_test_0192f0c47a1e7c3b9a512f0d5f6b8e21".into(),
        }
    }
}

/// Deleting an endpoint.
#[derive(Debug, ApiResponse)]
pub enum DeleteWebhookResponse {
    /// Deleted, with its delivery log; nothing more is sent to it.
    #[oai(status = 204)]
    Deleted,
}

/// Sending a test event.
#[derive(Debug, ApiResponse)]
pub enum TestWebhookResponse {
    /// Queued: it is delivered once, signed like any message.
    #[oai(status = 202)]
    Queued(Json<TestEventQueued>),
    /// Too many requests (`rate_limited`): more than five test events a minute from this
    /// user, whichever endpoints, or past the API's limits per user, address or API
    /// token. Try again after `Retry-After` seconds.
    #[oai(status = 429)]
    RateLimited(
        Json<ErrorBody>,
        /// Seconds to wait before trying again.
        #[oai(header = "Retry-After")]
        u64,
    ),
}

/// The workspace's endpoint `id`, or 404.
async fn owned(state: &AppState, workspace: &WorkspaceId, id: &EndpointId) -> Result<EndpointRecord, ApiError> {
    state
        .store
        .webhook(workspace, id)
        .await?
        .map(|e| e.record)
        .ok_or_else(|| ApiError::not_found("No webhook endpoint of this workspace has that id."))
}

/// Webhook operations.
pub struct WebhooksApi;

#[OpenApi(tag = "ApiTags::Integrations", prefix_path = "/user/webhooks")]
impl WebhooksApi {
    /// Register a webhook endpoint
    ///
    /// Answers the endpoint and its signing secret; the secret is shown this once.
    ///
    /// API tokens: need the `webhooks:write` scope.
    #[oai(path = "/", method = "post", operation_id = "create_webhook")]
    async fn create_webhook(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WebhooksWrite>,
        body: Json<CreateWebhookRequest>,
    ) -> Result<Json<WebhookWithSecret>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN }>> {
        let url = webhooks::check_url(&body.url, &state.config.outbound_policy())?;
        let events = webhooks::parse_events(&body.events)?;
        let secret = webhooks::generate_secret();
        let sealed = webhooks::seal_secret(&state.vault, auth.workspace(), &secret)?;
        let record = state
            .store
            .create_webhook(auth.workspace(), &auth.0.user.id, url.as_str(), &events, &sealed)
            .await?;
        // The host only: a URL's path or query may carry the receiver's own secret.
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::WebhookCreated,
            url.host_str().unwrap_or_default(),
            json!({"webhookId": record.id, "events": events.iter().map(|e| e.as_str()).collect::<Vec<_>>()}),
        )
        .await;
        Ok(Json(WebhookWithSecret {
            secret,
            webhook: record.into(),
        }))
    }

    /// Your webhook endpoints
    ///
    /// API tokens: need the `webhooks:write` scope.
    #[oai(path = "/", method = "get", operation_id = "list_webhooks")]
    async fn list_webhooks(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WebhooksWrite>,
    ) -> Result<Json<WebhookList>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        let list = state.store.list_webhooks(auth.workspace()).await?;
        Ok(Json(WebhookList {
            webhooks: list.into_iter().map(WebhookInfo::from).collect(),
            available_events: EventType::SUBSCRIBABLE.to_vec(),
        }))
    }

    /// Delete a webhook endpoint
    ///
    /// API tokens: need the `webhooks:write` scope.
    #[oai(path = "/:id", method = "delete", operation_id = "delete_webhook")]
    async fn delete_webhook(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WebhooksWrite>,
        id: Path<EndpointId>,
    ) -> Result<DeleteWebhookResponse, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        if !state.store.delete_webhook(auth.workspace(), &id.0).await? {
            return Err(ApiError::not_found("No webhook endpoint of this workspace has that id.").into());
        }
        audit::record(
            &state.store,
            auth.workspace(),
            Some(&auth.0.user.id),
            Action::WebhookDeleted,
            id.0.as_str(),
            json!({}),
        )
        .await;
        Ok(DeleteWebhookResponse::Deleted)
    }

    /// Rotate a webhook endpoint's signing secret
    ///
    /// Answers the new secret, shown this once; messages are signed with it from now on.
    ///
    /// API tokens: need the `webhooks:write` scope.
    #[oai(path = "/:id/rotate-secret", method = "post", operation_id = "rotate_webhook_secret")]
    async fn rotate_webhook_secret(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WebhooksWrite>,
        id: Path<EndpointId>,
    ) -> Result<Json<WebhookWithSecret>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let record = owned(&state, auth.workspace(), &id.0).await?;
        let secret = webhooks::generate_secret();
        let sealed = webhooks::seal_secret(&state.vault, auth.workspace(), &secret)?;
        state
            .store
            .rotate_webhook_secret(auth.workspace(), &id.0, &sealed)
            .await?;
        Ok(Json(WebhookWithSecret {
            secret,
            webhook: record.into(),
        }))
    }

    /// Send a test event
    ///
    /// Queues one `webhook.test` message to the endpoint, signed like any other; its
    /// attempt shows in the delivery log. A disabled endpoint that accepts it is enabled
    /// again. At most five a minute per user: then 429 `rate_limited` with `Retry-After`.
    ///
    /// API tokens: need the `webhooks:write` scope.
    #[oai(path = "/:id/test", method = "post", operation_id = "test_webhook")]
    async fn test_webhook(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WebhooksWrite>,
        id: Path<EndpointId>,
    ) -> Result<TestWebhookResponse, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        let record = owned(&state, auth.workspace(), &id.0).await?;
        if let Some(wait) = state.test_events.take(&auth.0.user.id).await? {
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            let seconds = seconds.max(1);
            return Ok(TestWebhookResponse::RateLimited(
                crate::error::body(
                    "rate_limited",
                    format!("Too many test events. Please wait {seconds} s and try again."),
                ),
                seconds,
            ));
        }
        let message_id = format!("msg_test_{}", uuid::Uuid::now_v7().simple());
        let body = webhooks::body(
            EventType::Test,
            now_unix(),
            serde_json::json!({"endpointId": record.id, "message": "A test event from Leadgen."}),
        );
        state
            .queues
            .webhook
            .push(WebhookJobV1 {
                user_id: auth.0.user.id.clone(),
                workspace_id: Some(auth.workspace().clone()),
                endpoint_id: record.id,
                message_id: message_id.clone(),
                event_type: EventType::Test.as_str().to_owned(),
                body,
                saved_search_id: None,
            })
            .await?;
        Ok(TestWebhookResponse::Queued(Json(TestEventQueued { message_id })))
    }

    /// An endpoint's delivery log
    ///
    /// Its latest 50 attempts: time, event, attempt, status code, latency. Never the
    /// payload.
    ///
    /// API tokens: need the `webhooks:write` scope.
    #[oai(path = "/:id/deliveries", method = "get", operation_id = "list_webhook_deliveries")]
    async fn list_webhook_deliveries(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::WebhooksWrite>,
        id: Path<EndpointId>,
    ) -> Result<Json<DeliveryList>, Fails<{ BAD_REQUEST | UNAUTHORIZED | FORBIDDEN | NOT_FOUND }>> {
        owned(&state, auth.workspace(), &id.0).await?;
        let deliveries = state
            .store
            .list_deliveries(auth.workspace(), &id.0, DELIVERY_PAGE)
            .await?;
        Ok(Json(DeliveryList {
            deliveries: deliveries
                .into_iter()
                .map(DeliveryInfo::try_from)
                .collect::<Result<_, _>>()?,
        }))
    }
}
