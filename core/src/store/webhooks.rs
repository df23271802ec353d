//! Webhook endpoints (sealed secret) and their delivery log (no payload, ever).

use super::handle::Store;
use crate::{
    CoreError, CoreResult,
    ids::{EndpointId, UserId, WorkspaceId},
    time::now_unix,
    vault::Sealed,
    webhooks::{EventType, MAX_ENDPOINTS_PER_USER, events_to_stored},
};

/// An endpoint as its owner sees it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct EndpointRecord {
    /// Endpoint id.
    pub id: EndpointId,
    /// Where deliveries go.
    pub url: String,
    /// Subscribed event names, separated by spaces.
    pub events: String,
    /// 1 while deliveries are made; 0 once disabled after failing for about a day.
    pub enabled: i64,
    /// Why it was disabled (the notice the user sees).
    pub disabled_reason: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
}

/// An endpoint with its sealed secret, for a delivery.
#[derive(Debug, Clone)]
pub struct EndpointForDelivery {
    /// What the owner sees.
    pub record: EndpointRecord,
    /// The signing secret, sealed.
    pub secret: Sealed,
}

/// One delivery attempt as the log shows it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DeliveryRecord {
    /// Attempt id.
    pub id: String,
    /// The message's `webhook-id`.
    pub message_id: String,
    /// Event name.
    pub event_type: String,
    /// 1 for the first try of this message to this endpoint, then 2, 3...
    pub attempt: i64,
    /// The endpoint's HTTP status, when it answered.
    pub status_code: Option<i64>,
    /// How long the attempt took, milliseconds.
    pub latency_ms: i64,
    /// Why it failed, in plain words (time-out, refused address...), when it did.
    pub error: Option<String>,
    /// 1 when the endpoint answered 2xx.
    pub succeeded: i64,
    /// Unix seconds.
    pub created_at: i64,
}

/// A delivery attempt to record.
#[derive(Debug, Clone)]
pub struct NewDelivery<'a> {
    /// The message's `webhook-id`.
    pub message_id: &'a str,
    /// Event name.
    pub event_type: &'a str,
    /// Attempt number.
    pub attempt: i64,
    /// Status code, if any.
    pub status_code: Option<u16>,
    /// Milliseconds.
    pub latency_ms: i64,
    /// Failure in plain words.
    pub error: Option<String>,
    /// 2xx.
    pub succeeded: bool,
}

macro_rules! endpoint_columns {
    () => {
        "id, url, events, enabled, disabled_reason, created_at"
    };
}

/// An endpoint's sealed secret and owner, for key rotation.
#[derive(sqlx::FromRow)]
struct RotationRow {
    workspace_id: String,
    id: EndpointId,
    key_id: String,
    nonce: Vec<u8>,
    ciphertext: Vec<u8>,
}

#[derive(sqlx::FromRow)]
struct SealedRow {
    key_id: String,
    nonce: Vec<u8>,
    ciphertext: Vec<u8>,
}

impl Store {
    /// Records a new endpoint of `workspace_id` (made by `user_id`), its secret sealed.
    /// Refused beyond [`MAX_ENDPOINTS_PER_USER`] in the workspace, counted in the insert
    /// itself so that concurrent creates cannot pass the cap together (under the
    /// workspace's lock, as `Store::serialize_capped_create` explains for a user's).
    #[tracing::instrument(skip(self, url, secret))]
    pub async fn create_webhook(
        &self,
        workspace_id: &WorkspaceId,
        user_id: &UserId,
        url: &str,
        events: &[EventType],
        secret: &Sealed,
    ) -> CoreResult<EndpointRecord> {
        let now = now_unix();
        let mut tx = self.pool.begin().await?;
        self.lock_workspace(&mut tx, workspace_id).await?;
        let created = sqlx::query_as::<_, EndpointRecord>(concat!(
            "INSERT INTO webhook_endpoints (id, user_id, workspace_id, url, events, key_id, nonce, ciphertext, enabled, created_at, updated_at)
             SELECT $1, $2, $10, $3, $4, $5, $6, $7, 1, $8, $8
             WHERE (SELECT COUNT(*) FROM webhook_endpoints WHERE COALESCE(workspace_id, user_id) = $10) < $9
             RETURNING ",
            endpoint_columns!()
        ))
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(user_id)
        .bind(url)
        .bind(events_to_stored(events))
        .bind(&secret.key_id)
        .bind(&secret.nonce)
        .bind(&secret.ciphertext)
        .bind(now)
        .bind(MAX_ENDPOINTS_PER_USER)
        .bind(workspace_id)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        created.ok_or_else(|| {
            CoreError::Invalid(format!(
                "This workspace has {MAX_ENDPOINTS_PER_USER} webhook endpoints already. Delete one first."
            ))
        })
    }

    /// The user's endpoints, newest first.
    #[tracing::instrument(skip(self))]
    pub async fn list_webhooks(&self, workspace_id: &WorkspaceId) -> CoreResult<Vec<EndpointRecord>> {
        Ok(sqlx::query_as::<_, EndpointRecord>(concat!(
            "SELECT ",
            endpoint_columns!(),
            " FROM webhook_endpoints WHERE COALESCE(workspace_id, user_id) = $1 ORDER BY created_at DESC, id DESC"
        ))
        .bind(workspace_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// One of the workspace's endpoints, with its sealed secret.
    #[tracing::instrument(skip(self))]
    pub async fn webhook(
        &self,
        workspace_id: &WorkspaceId,
        endpoint_id: &EndpointId,
    ) -> CoreResult<Option<EndpointForDelivery>> {
        let record = sqlx::query_as::<_, EndpointRecord>(concat!(
            "SELECT ",
            endpoint_columns!(),
            " FROM webhook_endpoints WHERE COALESCE(workspace_id, user_id) = $1 AND id = $2"
        ))
        .bind(workspace_id)
        .bind(endpoint_id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(record) = record else { return Ok(None) };
        let sealed = sqlx::query_as::<_, SealedRow>(
            "SELECT key_id, nonce, ciphertext FROM webhook_endpoints WHERE COALESCE(workspace_id, user_id) = $1 AND id = $2",
        )
        .bind(workspace_id)
        .bind(endpoint_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(Some(EndpointForDelivery {
            record,
            secret: Sealed {
                key_id: sealed.key_id,
                nonce: sealed.nonce,
                ciphertext: sealed.ciphertext,
            },
        }))
    }

    /// The user's enabled endpoints subscribed to `event`.
    #[tracing::instrument(skip(self))]
    pub async fn webhooks_for_event(
        &self,
        workspace_id: &WorkspaceId,
        event: EventType,
    ) -> CoreResult<Vec<EndpointRecord>> {
        let all = sqlx::query_as::<_, EndpointRecord>(concat!(
            "SELECT ",
            endpoint_columns!(),
            " FROM webhook_endpoints WHERE COALESCE(workspace_id, user_id) = $1 AND enabled = 1"
        ))
        .bind(workspace_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(all
            .into_iter()
            .filter(|e| e.events.split_whitespace().any(|n| n == event.as_str()))
            .collect())
    }

    /// Deletes one of the workspace's endpoints and its log. Returns whether it existed.
    #[tracing::instrument(skip(self))]
    pub async fn delete_webhook(&self, workspace_id: &WorkspaceId, endpoint_id: &EndpointId) -> CoreResult<bool> {
        sqlx::query("DELETE FROM webhook_deliveries WHERE COALESCE(workspace_id, user_id) = $1 AND endpoint_id = $2")
            .bind(workspace_id)
            .bind(endpoint_id)
            .execute(&self.pool)
            .await?;
        let done = sqlx::query("DELETE FROM webhook_endpoints WHERE COALESCE(workspace_id, user_id) = $1 AND id = $2")
            .bind(workspace_id)
            .bind(endpoint_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Replaces an endpoint's secret. Returns whether the endpoint exists.
    #[tracing::instrument(skip(self, secret))]
    pub async fn rotate_webhook_secret(
        &self,
        workspace_id: &WorkspaceId,
        endpoint_id: &EndpointId,
        secret: &Sealed,
    ) -> CoreResult<bool> {
        let done = sqlx::query(
            "UPDATE webhook_endpoints SET key_id = $3, nonce = $4, ciphertext = $5, updated_at = $6
             WHERE COALESCE(workspace_id, user_id) = $1 AND id = $2",
        )
        .bind(workspace_id)
        .bind(endpoint_id)
        .bind(&secret.key_id)
        .bind(&secret.nonce)
        .bind(&secret.ciphertext)
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Operator-only (key rotation): every endpoint secret not sealed under `key_id`.
    #[tracing::instrument(skip(self))]
    pub async fn webhook_secrets_not_under_key_for_rotation(
        &self,
        key_id: &str,
    ) -> CoreResult<Vec<(WorkspaceId, EndpointId, Sealed)>> {
        let rows = sqlx::query_as::<_, RotationRow>(
            "SELECT COALESCE(workspace_id, user_id) AS workspace_id, id, key_id, nonce, ciphertext
             FROM webhook_endpoints WHERE key_id <> $1",
        )
        .bind(key_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| {
                (
                    WorkspaceId::from(r.workspace_id),
                    r.id,
                    Sealed {
                        key_id: r.key_id,
                        nonce: r.nonce,
                        ciphertext: r.ciphertext,
                    },
                )
            })
            .collect())
    }

    /// Replaces an endpoint's sealed secret `old` with `new`, unless it was rotated
    /// meanwhile. Returns whether it was replaced.
    #[tracing::instrument(skip(self, old, new))]
    pub async fn reseal_webhook_secret(
        &self,
        workspace_id: &WorkspaceId,
        endpoint_id: &EndpointId,
        old: &Sealed,
        new: &Sealed,
    ) -> CoreResult<bool> {
        let done = sqlx::query(
            "UPDATE webhook_endpoints SET key_id = $4, nonce = $5, ciphertext = $6
             WHERE COALESCE(workspace_id, user_id) = $1 AND id = $2 AND nonce = $3",
        )
        .bind(workspace_id)
        .bind(endpoint_id)
        .bind(&old.nonce)
        .bind(&new.key_id)
        .bind(&new.nonce)
        .bind(&new.ciphertext)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Disables an endpoint (deliveries stop) with the notice its owner will see, or
    /// enables it again (`reason` `None`).
    #[tracing::instrument(skip(self))]
    pub async fn set_webhook_enabled(
        &self,
        workspace_id: &WorkspaceId,
        endpoint_id: &EndpointId,
        reason: Option<&str>,
    ) -> CoreResult<()> {
        sqlx::query(
            "UPDATE webhook_endpoints SET enabled = $3, disabled_reason = $4, updated_at = $5
             WHERE COALESCE(workspace_id, user_id) = $1 AND id = $2",
        )
        .bind(workspace_id)
        .bind(endpoint_id)
        .bind(i64::from(reason.is_none()))
        .bind(reason)
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Attempts made so far to deliver `message_id` to the endpoint, and whether one
    /// succeeded (deliveries are idempotent by message id).
    #[tracing::instrument(skip(self))]
    pub async fn delivery_attempts(
        &self,
        workspace_id: &WorkspaceId,
        endpoint_id: &EndpointId,
        message_id: &str,
    ) -> CoreResult<(i64, bool)> {
        let (attempts, succeeded): (i64, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(*), MAX(succeeded) FROM webhook_deliveries
             WHERE COALESCE(workspace_id, user_id) = $1 AND endpoint_id = $2 AND message_id = $3",
        )
        .bind(workspace_id)
        .bind(endpoint_id)
        .bind(message_id)
        .fetch_one(&self.pool)
        .await?;
        Ok((attempts, succeeded == Some(1)))
    }

    /// Logs one delivery attempt.
    #[tracing::instrument(skip(self, delivery))]
    pub async fn record_delivery(
        &self,
        workspace_id: &WorkspaceId,
        endpoint_id: &EndpointId,
        delivery: &NewDelivery<'_>,
    ) -> CoreResult<()> {
        sqlx::query(
            "INSERT INTO webhook_deliveries (id, endpoint_id, user_id, workspace_id, message_id, event_type, attempt, status_code, latency_ms, error, succeeded, created_at)
             SELECT $1, $2, e.user_id, $3, $4, $5, $6, $7, $8, $9, $10, $11
             FROM webhook_endpoints e WHERE e.id = $2 AND COALESCE(e.workspace_id, e.user_id) = $3",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(endpoint_id)
        .bind(workspace_id)
        .bind(delivery.message_id)
        .bind(delivery.event_type)
        .bind(delivery.attempt)
        .bind(delivery.status_code.map(i64::from))
        .bind(delivery.latency_ms)
        .bind(delivery.error.as_deref())
        .bind(i64::from(delivery.succeeded))
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The endpoint's latest delivery attempts, newest first (at most `limit`).
    #[tracing::instrument(skip(self))]
    pub async fn list_deliveries(
        &self,
        workspace_id: &WorkspaceId,
        endpoint_id: &EndpointId,
        limit: i64,
    ) -> CoreResult<Vec<DeliveryRecord>> {
        Ok(sqlx::query_as::<_, DeliveryRecord>(
            "SELECT id, message_id, event_type, attempt, status_code, latency_ms, error, succeeded, created_at
             FROM webhook_deliveries WHERE COALESCE(workspace_id, user_id) = $1 AND endpoint_id = $2
             ORDER BY id DESC LIMIT $3",
        )
        .bind(workspace_id)
        .bind(endpoint_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }
}
