//! `WebhookJobV1`: deliver one signed message to one endpoint, through the guarded
//! client only, and log the attempt (never the payload). The log its owner reads says
//! why an attempt failed in a few plain outcomes ([`DeliveryFailure`]); the client's own
//! words go to the server log, with the endpoint's id, never its secret or the payload.
//!
//! Retries are the queue's: a failed attempt returns [`JobError::Retry`] and apalis'
//! retry layer runs the job again after a doubling delay ([`Job::retry`]); the attempt
//! that reaches `LEADGEN_WEBHOOK_MAX_ATTEMPTS` (about a day with the defaults) disables
//! the endpoint with a notice its owner sees in Settings, and stops. Idempotent by
//! `webhook-id`: a message already delivered to the endpoint is not sent again, and the
//! attempt number comes from the log, so a job handed to another worker carries on.

use std::{sync::Arc, time::Instant};

use leadgen_core::{
    delivery::DeliveryStatus,
    ids::{SearchId, UserId, WorkspaceId},
    jobs::WebhookJobV1,
    lead::{Lead, SearchComplete, SearchEvent, SearchFailed},
    outbound::OutboundError,
    saved_search::Channel,
    store::{NewDelivery, SavedSearchRecord},
    time::now_unix,
    webhooks::{self, DeliveryFailure, EventType, MAX_RETRY_DELAY},
};
use secrecy::ExposeSecret;

use super::{Job, JobError, RetryPolicy, retry_policy};
use crate::{WorkerDeps, WorkerSettings};

/// The webhook delivery job kind (see `registry`).
pub struct WebhookJob;

impl Job for WebhookJob {
    type Payload = WebhookJobV1;

    async fn run(job: WebhookJobV1, deps: Arc<WorkerDeps>) -> Result<(), JobError> {
        deliver(&job, &deps).await
    }

    fn retry(deps: &WorkerDeps) -> RetryPolicy {
        let schedule = deps.webhook_schedule;
        // The handler stops at the last attempt itself (it counts attempts in the log);
        // this bound only keeps the layer from retrying for ever if the log is unreadable.
        retry_policy(
            schedule.max_attempts.saturating_sub(1) as usize,
            schedule.first_retry,
            MAX_RETRY_DELAY,
        )
    }

    fn concurrency(settings: &WorkerSettings) -> usize {
        // A retry waits inside its slot; waiting is cheap, so many slots, or one dead
        // endpoint's messages would hold up everyone's deliveries.
        settings.concurrency.saturating_mul(16).max(64)
    }
}

/// What one attempt came to.
struct Attempt {
    status: Option<u16>,
    /// What the owner's log says, when it failed.
    failure: Option<DeliveryFailure>,
    /// For the server log and the queue: the client's own words (no URL, no secret).
    detail: String,
    refused: bool,
}

async fn deliver(job: &WebhookJobV1, deps: &WorkerDeps) -> Result<(), JobError> {
    let store = &deps.store;
    let endpoint = store
        .webhook(&job.workspace(), &job.endpoint_id)
        .await
        .map_err(|e| JobError::Retry(format!("could not read the endpoint: {e}")))?;
    let Some(endpoint) = endpoint else {
        return Ok(()); // Deleted since: nothing to deliver.
    };
    let test = job.event_type == EventType::Test.as_str();
    let host = url::Url::parse(&endpoint.record.url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_default();
    if endpoint.record.enabled == 0 && !test {
        let why = format!("not sent: the webhook endpoint {host} is disabled");
        note_saved(job, deps, DeliveryStatus::Failed, &why).await;
        return Ok(()); // Disabled: its owner was told; a test event may revive it.
    }
    let (attempts, delivered) = store
        .delivery_attempts(&job.workspace(), &job.endpoint_id, &job.message_id)
        .await
        .map_err(|e| JobError::Retry(format!("could not read the delivery log: {e}")))?;
    if delivered {
        return Ok(());
    }
    let attempt = attempts + 1;
    let url = url::Url::parse(&endpoint.record.url).map_err(|_| JobError::Permanent("bad endpoint URL".into()))?;
    let secret = webhooks::open_secret(&deps.vault, &job.workspace(), &endpoint.secret)
        .map_err(|e| JobError::Permanent(format!("could not open the endpoint's secret: {e}")))?;
    let timestamp = now_unix();
    let signature = webhooks::sign(secret.expose_secret(), &job.message_id, timestamp, job.body.as_bytes())
        .map_err(|e| JobError::Permanent(e.to_string()))?;
    let headers = [
        ("content-type", "application/json".to_owned()),
        ("webhook-id", job.message_id.clone()),
        ("webhook-timestamp", timestamp.to_string()),
        ("webhook-signature", signature),
    ];
    let started = Instant::now();
    let result = deps.outbound.post(&url, &headers, job.body.clone().into_bytes()).await;
    let latency_ms = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
    let outcome = match result {
        Ok(fetched) if (200..300).contains(&fetched.status) => Attempt {
            status: Some(fetched.status),
            failure: None,
            detail: String::new(),
            refused: false,
        },
        Ok(fetched) => Attempt {
            status: Some(fetched.status),
            failure: Some(DeliveryFailure::Status(fetched.status)),
            detail: format!("the endpoint answered {}", fetched.status),
            refused: false,
        },
        Err(e) => Attempt {
            status: None,
            failure: Some(DeliveryFailure::of(&e)),
            detail: e.to_string(),
            refused: matches!(e, OutboundError::Refused { .. }),
        },
    };
    let succeeded = outcome.failure.is_none();
    leadgen_core::telemetry::metrics::metrics().webhook_delivery(match (succeeded, outcome.refused) {
        (true, _) => "delivered",
        (false, true) => "refused",
        (false, false) => "failed",
    });
    store
        .record_delivery(
            &job.workspace(),
            &job.endpoint_id,
            &NewDelivery {
                message_id: &job.message_id,
                event_type: &job.event_type,
                attempt,
                status_code: outcome.status,
                latency_ms,
                error: outcome.failure.map(|f| f.to_string()),
                succeeded,
            },
        )
        .await
        .map_err(|e| JobError::Retry(format!("could not log the delivery: {e}")))?;
    let Some(failure) = outcome.failure else {
        note_saved(job, deps, DeliveryStatus::Sent, &format!("delivered to {host}")).await;
        if test && endpoint.record.enabled == 0 {
            // The endpoint works again: deliveries resume.
            let _ = store
                .set_webhook_enabled(&job.workspace(), &job.endpoint_id, None)
                .await;
        }
        return Ok(());
    };
    let reason = outcome.detail;
    if outcome.refused {
        // The address may not be reached: retrying cannot help, and nothing was sent.
        note_saved(
            job,
            deps,
            DeliveryStatus::Failed,
            &format!("not delivered to {host}: {failure}"),
        )
        .await;
        tracing::warn!(endpoint_id = %job.endpoint_id, attempt, %reason, "webhook endpoint refused");
        return Err(JobError::Permanent(reason));
    }
    tracing::info!(
        endpoint_id = %job.endpoint_id,
        attempt,
        %failure,
        %reason,
        "webhook delivery failed"
    );
    if test {
        return Err(JobError::Permanent(reason)); // A test is tried once: the user watches.
    }
    if attempt >= i64::from(deps.webhook_schedule.max_attempts) {
        let notice = format!(
            "Disabled after {attempt} failed attempts to deliver {} (last: {failure}). Fix the endpoint, then send a test event to enable it again.",
            job.event_type
        );
        let _ = store
            .set_webhook_enabled(&job.workspace(), &job.endpoint_id, Some(&notice))
            .await;
        tracing::warn!(endpoint_id = %job.endpoint_id, attempt, "webhook endpoint disabled");
        let why = format!("not delivered to {host} after {attempt} attempts (last: {failure})");
        note_saved(job, deps, DeliveryStatus::Failed, &why).await;
        return Err(JobError::Permanent(reason));
    }
    let why = format!("attempt {attempt} to {host} failed ({failure}); retrying");
    note_saved(job, deps, DeliveryStatus::Pending, &why).await;
    Err(JobError::Retry(reason))
}

/// Records an attempt's outcome on the saved search a `saved_search.new_places` message
/// reports (its `lastDelivery.webhook`); nothing for any other message.
async fn note_saved(job: &WebhookJobV1, deps: &WorkerDeps, status: DeliveryStatus, detail: &str) {
    let Some(id) = &job.saved_search_id else { return };
    if let Err(e) = deps
        .store
        .record_saved_delivery(&job.workspace(), id, None, Channel::Webhook, status, Some(detail))
        .await
    {
        tracing::warn!(error = %e, "could not record the webhook delivery on the saved search");
    }
}

/// Queues a saved search run's `saved_search.new_places` message (issue #29 item 5) for
/// each of the workspace's endpoints subscribed to it, with the run's new leads; each
/// attempt's outcome is recorded on the saved search. Failures are logged and recorded,
/// never the search's.
pub async fn emit_new_places(
    deps: &WorkerDeps,
    workspace: &WorkspaceId,
    user_id: &UserId,
    saved: &SavedSearchRecord,
    search_id: &SearchId,
    leads: &[Lead],
) {
    let kind = EventType::SavedSearchNewPlaces;
    let record = |status: DeliveryStatus, detail: String| async move {
        if let Err(e) = deps
            .store
            .record_saved_delivery(
                workspace,
                &saved.id,
                Some(search_id),
                Channel::Webhook,
                status,
                Some(&detail),
            )
            .await
        {
            tracing::warn!(error = %e, "could not record the webhook delivery on the saved search");
        }
    };
    let endpoints = match deps.store.webhooks_for_event(workspace, kind).await {
        Ok(endpoints) => endpoints,
        Err(e) => {
            tracing::error!(error = %e, "could not read webhook endpoints");
            record(DeliveryStatus::Failed, "the webhook endpoints could not be read".into()).await;
            return;
        }
    };
    if endpoints.is_empty() {
        let why = format!("no webhook endpoint of this workspace subscribes to {}", kind.as_str());
        record(DeliveryStatus::Failed, why).await;
        return;
    }
    let data = serde_json::json!({
        "savedSearchId": saved.id,
        "searchId": search_id,
        "name": saved.name,
        "leads": leads,
    });
    let body = webhooks::body(kind, now_unix(), data);
    let message_id = webhooks::new_places_message_id(search_id);
    let count = endpoints.len();
    record(
        DeliveryStatus::Pending,
        format!("queued for {count} endpoint{}", if count == 1 { "" } else { "s" }),
    )
    .await;
    for endpoint in endpoints {
        let job = WebhookJobV1 {
            user_id: user_id.clone(),
            workspace_id: Some(workspace.clone()),
            endpoint_id: endpoint.id,
            message_id: message_id.clone(),
            event_type: kind.as_str().to_owned(),
            body: body.clone(),
            saved_search_id: Some(saved.id.clone()),
        };
        if let Err(e) = deps.webhooks.push(job).await {
            tracing::error!(error = %e, "could not queue a webhook delivery");
            record(
                DeliveryStatus::Failed,
                "the webhook delivery could not be queued".into(),
            )
            .await;
        }
    }
}

/// Queues a finished search's message for each of the workspace's endpoints subscribed to
/// its event: `search.completed` with the leads, `search.failed` with the reason.
/// Failures are logged, never the search's: the search itself is done.
pub async fn emit_search_end(
    deps: &WorkerDeps,
    workspace: &WorkspaceId,
    user_id: &UserId,
    search_id: &SearchId,
    event: &SearchEvent,
) {
    let (kind, data) = match event {
        SearchEvent::Complete(SearchComplete {
            results, search, usage, ..
        }) => (
            EventType::SearchCompleted,
            serde_json::json!({
                "searchId": search_id,
                "search": search,
                "leads": results,
                "usage": usage,
            }),
        ),
        SearchEvent::Error(SearchFailed { message }) => (
            EventType::SearchFailed,
            serde_json::json!({"searchId": search_id, "message": message}),
        ),
        _ => return,
    };
    let endpoints = match deps.store.webhooks_for_event(workspace, kind).await {
        Ok(endpoints) => endpoints,
        Err(e) => {
            tracing::error!(error = %e, "could not read webhook endpoints");
            return;
        }
    };
    if endpoints.is_empty() {
        return;
    }
    let body = webhooks::body(kind, now_unix(), data);
    let message_id = webhooks::search_message_id(search_id);
    for endpoint in endpoints {
        let job = WebhookJobV1 {
            user_id: user_id.clone(),
            workspace_id: Some(workspace.clone()),
            endpoint_id: endpoint.id,
            message_id: message_id.clone(),
            event_type: kind.as_str().to_owned(),
            body: body.clone(),
            saved_search_id: None,
        };
        if let Err(e) = deps.webhooks.push(job).await {
            tracing::error!(error = %e, "could not queue a webhook delivery");
        }
    }
}
