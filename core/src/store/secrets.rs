//! Encrypted per-user secrets. The store only ever sees sealed bytes and a masked
//! preview; sealing and opening are the vault's job.

use super::handle::Store;
use crate::ids::UserId;
use crate::{CoreError, CoreResult, time::now_unix, vault::Sealed};

/// What a stored secret is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    /// The user's own Google Places API key.
    PlacesApiKey,
    /// The Google OAuth refresh token granting Sheets access.
    GoogleRefreshToken,
}

impl SecretKind {
    /// The value in the `kind` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PlacesApiKey => "places_api_key",
            Self::GoogleRefreshToken => "google_refresh_token",
        }
    }

    fn parse(text: &str) -> CoreResult<Self> {
        match text {
            "places_api_key" => Ok(Self::PlacesApiKey),
            "google_refresh_token" => Ok(Self::GoogleRefreshToken),
            other => Err(CoreError::Internal(format!("unknown secret kind {other}"))),
        }
    }

    /// Associated data binding a sealed value to its owner and purpose.
    pub fn context(self, user_id: &UserId) -> String {
        format!("{user_id}:{}", self.as_str())
    }
}

/// A secret row as read back.
#[derive(Debug, Clone)]
pub struct StoredSecret {
    /// The sealed value.
    pub sealed: Sealed,
    /// Masked preview (first 4 and last 4 characters).
    pub preview: String,
    /// Result of the last upstream check, if any.
    pub is_valid: Option<bool>,
    /// When it was last written (Unix seconds).
    pub updated_at: i64,
}

#[derive(sqlx::FromRow)]
struct SecretRow {
    key_id: String,
    nonce: Vec<u8>,
    ciphertext: Vec<u8>,
    preview: String,
    is_valid: Option<i64>,
    updated_at: i64,
}

#[derive(sqlx::FromRow)]
struct RotationRow {
    user_id: String,
    kind: String,
    key_id: String,
    nonce: Vec<u8>,
    ciphertext: Vec<u8>,
}

impl Store {
    /// Stores (or replaces) the user's secret of this kind; a new value has unknown validity.
    #[tracing::instrument(skip(self, sealed, preview))]
    pub async fn put_secret(
        &self,
        user_id: &UserId,
        kind: SecretKind,
        sealed: &Sealed,
        preview: &str,
    ) -> CoreResult<()> {
        sqlx::query(
            "INSERT INTO user_secrets (user_id, kind, key_id, nonce, ciphertext, preview, is_valid, checked_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, $7)
             ON CONFLICT (user_id, kind) DO UPDATE SET
                 key_id = excluded.key_id, nonce = excluded.nonce, ciphertext = excluded.ciphertext,
                 preview = excluded.preview, is_valid = NULL, checked_at = NULL, updated_at = excluded.updated_at",
        )
        .bind(user_id)
        .bind(kind.as_str())
        .bind(&sealed.key_id)
        .bind(&sealed.nonce)
        .bind(&sealed.ciphertext)
        .bind(preview)
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The user's secret of this kind, if stored.
    #[tracing::instrument(skip(self))]
    pub async fn secret(&self, user_id: &UserId, kind: SecretKind) -> CoreResult<Option<StoredSecret>> {
        let row = sqlx::query_as::<_, SecretRow>(
            "SELECT key_id, nonce, ciphertext, preview, is_valid, updated_at
             FROM user_secrets WHERE user_id = $1 AND kind = $2",
        )
        .bind(user_id)
        .bind(kind.as_str())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| StoredSecret {
            sealed: Sealed {
                key_id: r.key_id,
                nonce: r.nonce,
                ciphertext: r.ciphertext,
            },
            preview: r.preview,
            is_valid: r.is_valid.map(|v| v == 1),
            updated_at: r.updated_at,
        }))
    }

    /// Deletes the user's secret of this kind. Returns whether one existed.
    #[tracing::instrument(skip(self))]
    pub async fn delete_secret(&self, user_id: &UserId, kind: SecretKind) -> CoreResult<bool> {
        let done = sqlx::query("DELETE FROM user_secrets WHERE user_id = $1 AND kind = $2")
            .bind(user_id)
            .bind(kind.as_str())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Records the outcome of checking the secret upstream, if it is still the one checked
    /// (`key_id` and `nonce` identify the exact sealed value).
    #[tracing::instrument(skip(self, checked))]
    pub async fn record_secret_check(
        &self,
        user_id: &UserId,
        kind: SecretKind,
        checked: &Sealed,
        valid: bool,
    ) -> CoreResult<bool> {
        let done = sqlx::query(
            "UPDATE user_secrets SET is_valid = $4, checked_at = $5
             WHERE user_id = $1 AND kind = $2 AND nonce = $3",
        )
        .bind(user_id)
        .bind(kind.as_str())
        .bind(&checked.nonce)
        .bind(i64::from(valid))
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Operator-only (key rotation): every sealed secret not under `key_id`, with its owner.
    #[tracing::instrument(skip(self))]
    pub async fn secrets_not_under_key_for_rotation(
        &self,
        key_id: &str,
    ) -> CoreResult<Vec<(UserId, SecretKind, Sealed)>> {
        let rows = sqlx::query_as::<_, RotationRow>(
            "SELECT user_id, kind, key_id, nonce, ciphertext FROM user_secrets WHERE key_id <> $1",
        )
        .bind(key_id)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|r| {
                Ok((
                    UserId::from(r.user_id),
                    SecretKind::parse(&r.kind)?,
                    Sealed {
                        key_id: r.key_id,
                        nonce: r.nonce,
                        ciphertext: r.ciphertext,
                    },
                ))
            })
            .collect()
    }

    /// Replaces `old` with `new` for this user's secret, unless the user changed it
    /// meanwhile. Returns whether it was replaced.
    #[tracing::instrument(skip(self, old, new))]
    pub async fn reseal_secret(
        &self,
        user_id: &UserId,
        kind: SecretKind,
        old: &Sealed,
        new: &Sealed,
    ) -> CoreResult<bool> {
        let done = sqlx::query(
            "UPDATE user_secrets SET key_id = $4, nonce = $5, ciphertext = $6
             WHERE user_id = $1 AND kind = $2 AND nonce = $3",
        )
        .bind(user_id)
        .bind(kind.as_str())
        .bind(&old.nonce)
        .bind(&new.key_id)
        .bind(&new.nonce)
        .bind(&new.ciphertext)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
