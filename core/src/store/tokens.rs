//! Personal API tokens: one row per token, holding its hash, never the token.

use super::handle::Store;
use crate::{
    CoreError, CoreResult,
    ids::{TokenId, UserId, WorkspaceId},
    personal_tokens::{MAX_TOKENS_PER_USER, NewToken, Scopes},
    time::now_unix,
};

/// A token as its owner sees it in a list.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct TokenRecord {
    /// Token id.
    pub id: TokenId,
    /// Whose it is.
    pub user_id: UserId,
    /// Its owner's name for it.
    pub name: String,
    /// Its first characters.
    pub prefix: String,
    /// Scope names separated by spaces.
    pub scopes: String,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds; within a minute (see [`Store::authenticate_token`]).
    pub last_used_at: Option<i64>,
    /// Unix seconds; `None` never expires.
    pub expires_at: Option<i64>,
}

/// A token that authenticated a request: whose it is and what it may do.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenGrant {
    /// The token's id.
    pub token_id: String,
    /// Its owner.
    pub user_id: UserId,
    /// The workspace it was made in: the only one it acts in.
    pub workspace_id: WorkspaceId,
    /// What it may do.
    pub scopes: Scopes,
}

/// How often at most `last_used_at` is written for one token: a busy integration does
/// not turn every request into a database write.
const LAST_USED_GRANULARITY: i64 = 60;

impl Store {
    /// Records a new token of `user_id`, bound to `workspace_id` (its hash only). Refused
    /// beyond [`MAX_TOKENS_PER_USER`] in that workspace, counted in the insert itself so that concurrent creates
    /// cannot pass the cap together (see `Store::serialize_capped_create`).
    #[tracing::instrument(skip(self, token, scopes))]
    pub async fn create_token(
        &self,
        user_id: &UserId,
        workspace_id: &WorkspaceId,
        name: &str,
        token: &NewToken,
        scopes: &Scopes,
        expires_at: Option<i64>,
    ) -> CoreResult<TokenRecord> {
        let mut tx = self.pool.begin().await?;
        self.serialize_capped_create(&mut tx, user_id.as_str()).await?;
        let created = sqlx::query_as::<_, TokenRecord>(
            "INSERT INTO personal_tokens (id, user_id, workspace_id, name, prefix, token_hash, scopes, created_at, expires_at)
             SELECT $1, $2, $10, $3, $4, $5, $6, $7, $8
             WHERE (SELECT COUNT(*) FROM personal_tokens WHERE user_id = $2 AND COALESCE(workspace_id, user_id) = $10) < $9
             RETURNING id, user_id, name, prefix, scopes, created_at, last_used_at, expires_at",
        )
        .bind(uuid::Uuid::now_v7().to_string())
        .bind(user_id)
        .bind(name)
        .bind(&token.prefix)
        .bind(&token.hash)
        .bind(scopes.to_stored())
        .bind(now_unix())
        .bind(expires_at)
        .bind(MAX_TOKENS_PER_USER)
        .bind(workspace_id)
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        created.ok_or_else(|| {
            CoreError::Invalid(format!(
                "You have {MAX_TOKENS_PER_USER} tokens in this workspace already. Revoke one you no longer use first."
            ))
        })
    }

    /// The tokens made in the workspace, newest first: the user's own, or every member's
    /// when `user_id` is `None` (what an admin sees).
    #[tracing::instrument(skip(self))]
    pub async fn list_tokens(
        &self,
        workspace_id: &WorkspaceId,
        user_id: Option<&UserId>,
    ) -> CoreResult<Vec<TokenRecord>> {
        Ok(sqlx::query_as::<_, TokenRecord>(
            "SELECT id, user_id, name, prefix, scopes, created_at, last_used_at, expires_at
             FROM personal_tokens WHERE ($1 = '' OR user_id = $1) AND COALESCE(workspace_id, user_id) = $2
             ORDER BY created_at DESC, id DESC",
        )
        .bind(user_id.map_or("", UserId::as_str))
        .bind(workspace_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Revokes (deletes) a token made in the workspace: one of the user's, or anyone's
    /// when `user_id` is `None` (an admin's revocation). Answers it, if it existed.
    #[tracing::instrument(skip(self))]
    pub async fn revoke_token(
        &self,
        workspace_id: &WorkspaceId,
        user_id: Option<&UserId>,
        token_id: &TokenId,
    ) -> CoreResult<Option<TokenRecord>> {
        Ok(sqlx::query_as::<_, TokenRecord>(
            "DELETE FROM personal_tokens
             WHERE ($1 = '' OR user_id = $1) AND id = $2 AND COALESCE(workspace_id, user_id) = $3
             RETURNING id, user_id, name, prefix, scopes, created_at, last_used_at, expires_at",
        )
        .bind(user_id.map_or("", UserId::as_str))
        .bind(token_id)
        .bind(workspace_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// The grant of the token whose hash is `token_hash`, if it exists and has not
    /// expired; notes its use (at most once a minute).
    ///
    /// The one look-up not scoped by a user id: the token *is* the credential that says
    /// which user it is; its hash is unique.
    #[tracing::instrument(skip_all)]
    pub async fn authenticate_token(&self, token_hash: &str) -> CoreResult<Option<TokenGrant>> {
        let now = now_unix();
        let row: Option<(String, UserId, WorkspaceId, String)> = sqlx::query_as(
            "SELECT id, user_id, COALESCE(workspace_id, user_id), scopes FROM personal_tokens
             WHERE token_hash = $1 AND (expires_at IS NULL OR expires_at > $2)",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some((token_id, user_id, workspace_id, scopes)) = row else {
            return Ok(None);
        };
        sqlx::query(
            "UPDATE personal_tokens SET last_used_at = $3
             WHERE user_id = $1 AND id = $2 AND (last_used_at IS NULL OR last_used_at <= $4)",
        )
        .bind(&user_id)
        .bind(&token_id)
        .bind(now)
        .bind(now - LAST_USED_GRANULARITY)
        .execute(&self.pool)
        .await?;
        Ok(Some(TokenGrant {
            token_id,
            user_id,
            workspace_id,
            scopes: Scopes::from_stored(&scopes),
        }))
    }
}
