//! Encrypted secrets: a workspace's (the Places key) and a person's (the Google refresh
//! token for Sheets, which stays personal: it is their Google account). The store only
//! ever sees sealed bytes and a masked preview; sealing and opening are the vault's job.

use super::handle::Store;
use crate::ids::{UserId, WorkspaceId};
use crate::{CoreError, CoreResult, time::now_unix, vault::Sealed};

/// What a stored secret is for. Each kind has one kind of owner ([`SecretKind::owner`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretKind {
    /// The workspace's Google Places API key.
    PlacesApiKey,
    /// The person's Google OAuth refresh token granting Sheets access.
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
}

/// Whose a secret is: the table it lives in and the id its sealing is bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SecretOwner {
    /// A person (`user_secrets`).
    User(UserId),
    /// A workspace (`workspace_secrets`).
    Workspace(WorkspaceId),
}

impl SecretOwner {
    fn id(&self) -> &str {
        match self {
            Self::User(id) => id.as_str(),
            Self::Workspace(id) => id.as_str(),
        }
    }

    /// Associated data binding a sealed value to its owner and purpose. A personal
    /// workspace's id is its user's id, so a key sealed before workspaces existed opens
    /// unchanged.
    pub fn context(&self, kind: SecretKind) -> String {
        format!("{}:{}", self.id(), kind.as_str())
    }

    fn is_workspace(&self) -> bool {
        matches!(self, Self::Workspace(_))
    }
}

/// One statement in its two tables' spellings (static text each, chosen by the owner).
macro_rules! by_owner {
    ($owner:expr, $($sql:tt)+) => {
        if $owner.is_workspace() {
            by_owner!(@text "workspace_secrets", "workspace_id", $($sql)+)
        } else {
            by_owner!(@text "user_secrets", "user_id", $($sql)+)
        }
    };
    (@text $table:literal, $col:literal, $($part:tt),+) => {
        concat!($(by_owner!(@part $table, $col, $part)),+)
    };
    (@part $table:literal, $col:literal, TABLE) => { $table };
    (@part $table:literal, $col:literal, OWNER) => { $col };
    (@part $table:literal, $col:literal, $text:literal) => { $text };
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
    owner: String,
    kind: String,
    key_id: String,
    nonce: Vec<u8>,
    ciphertext: Vec<u8>,
}

impl Store {
    /// Stores (or replaces) the owner's secret of this kind; a new value has unknown validity.
    #[tracing::instrument(skip(self, sealed, preview))]
    pub async fn put_secret(
        &self,
        owner: &SecretOwner,
        kind: SecretKind,
        sealed: &Sealed,
        preview: &str,
    ) -> CoreResult<()> {
        sqlx::query(by_owner!(
            owner,
            "INSERT INTO ",
            TABLE,
            " (",
            OWNER,
            ", kind, key_id, nonce, ciphertext, preview, is_valid, checked_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, $7)
             ON CONFLICT (",
            OWNER,
            ", kind) DO UPDATE SET
                 key_id = excluded.key_id, nonce = excluded.nonce, ciphertext = excluded.ciphertext,
                 preview = excluded.preview, is_valid = NULL, checked_at = NULL, updated_at = excluded.updated_at"
        ))
        .bind(owner.id())
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

    /// The owner's secret of this kind, if stored.
    #[tracing::instrument(skip(self))]
    pub async fn secret(&self, owner: &SecretOwner, kind: SecretKind) -> CoreResult<Option<StoredSecret>> {
        let row = sqlx::query_as::<_, SecretRow>(by_owner!(
            owner,
            "SELECT key_id, nonce, ciphertext, preview, is_valid, updated_at
             FROM ",
            TABLE,
            " WHERE ",
            OWNER,
            " = $1 AND kind = $2"
        ))
        .bind(owner.id())
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

    /// Deletes the owner's secret of this kind. Returns whether one existed.
    #[tracing::instrument(skip(self))]
    pub async fn delete_secret(&self, owner: &SecretOwner, kind: SecretKind) -> CoreResult<bool> {
        let done = sqlx::query(by_owner!(
            owner,
            "DELETE FROM ",
            TABLE,
            " WHERE ",
            OWNER,
            " = $1 AND kind = $2"
        ))
        .bind(owner.id())
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
        owner: &SecretOwner,
        kind: SecretKind,
        checked: &Sealed,
        valid: bool,
    ) -> CoreResult<bool> {
        let done = sqlx::query(by_owner!(
            owner,
            "UPDATE ",
            TABLE,
            " SET is_valid = $4, checked_at = $5
             WHERE ",
            OWNER,
            " = $1 AND kind = $2 AND nonce = $3"
        ))
        .bind(owner.id())
        .bind(kind.as_str())
        .bind(&checked.nonce)
        .bind(i64::from(valid))
        .bind(now_unix())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Operator-only (key rotation): every sealed secret not under `key_id`, with its
    /// owner, from both tables.
    #[tracing::instrument(skip(self))]
    pub async fn secrets_not_under_key_for_rotation(
        &self,
        key_id: &str,
    ) -> CoreResult<Vec<(SecretOwner, SecretKind, Sealed)>> {
        let mut found = Vec::new();
        for workspace in [false, true] {
            let sql = if workspace {
                "SELECT workspace_id AS owner, kind, key_id, nonce, ciphertext FROM workspace_secrets WHERE key_id <> $1"
            } else {
                "SELECT user_id AS owner, kind, key_id, nonce, ciphertext FROM user_secrets WHERE key_id <> $1
                   AND kind <> 'places_api_key'"
            };
            let rows = sqlx::query_as::<_, RotationRow>(sql)
                .bind(key_id)
                .fetch_all(&self.pool)
                .await?;
            for r in rows {
                let owner = if workspace {
                    SecretOwner::Workspace(WorkspaceId::from(r.owner))
                } else {
                    SecretOwner::User(UserId::from(r.owner))
                };
                let sealed = Sealed {
                    key_id: r.key_id,
                    nonce: r.nonce,
                    ciphertext: r.ciphertext,
                };
                found.push((owner, SecretKind::parse(&r.kind)?, sealed));
            }
        }
        Ok(found)
    }

    /// Replaces `old` with `new` for this owner's secret, unless it changed meanwhile.
    /// Returns whether it was replaced.
    #[tracing::instrument(skip(self, old, new))]
    pub async fn reseal_secret(
        &self,
        owner: &SecretOwner,
        kind: SecretKind,
        old: &Sealed,
        new: &Sealed,
    ) -> CoreResult<bool> {
        let done = sqlx::query(by_owner!(
            owner,
            "UPDATE ",
            TABLE,
            " SET key_id = $4, nonce = $5, ciphertext = $6
             WHERE ",
            OWNER,
            " = $1 AND kind = $2 AND nonce = $3"
        ))
        .bind(owner.id())
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
