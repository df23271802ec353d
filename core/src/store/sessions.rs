//! Session records: one row per issued token (`jti`), so logout and refresh revoke.

use super::handle::Store;
use crate::ids::UserId;
use crate::{CoreResult, session::Claims, time::now_unix};

impl Store {
    /// Records a freshly issued session token.
    #[tracing::instrument(skip_all, fields(user_id = %claims.sub))]
    pub async fn create_session(&self, claims: &Claims) -> CoreResult<()> {
        sqlx::query(
            "INSERT INTO sessions (jti, user_id, issued_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, NULL)",
        )
        .bind(&claims.jti)
        .bind(&claims.sub)
        .bind(claims.iat)
        .bind(claims.exp)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Revokes one of the user's sessions. Returns whether it was active.
    #[tracing::instrument(skip(self))]
    pub async fn revoke_session(&self, user_id: &UserId, jti: &str) -> CoreResult<bool> {
        let done =
            sqlx::query("UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND jti = $2 AND revoked_at IS NULL")
                .bind(user_id)
                .bind(jti)
                .bind(now_unix())
                .execute(&self.pool)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes session rows that expired more than a day ago (the scheduled sweep,
    /// `PruneJobV1`). Returns how many.
    #[tracing::instrument(skip_all)]
    pub async fn prune_sessions(&self) -> CoreResult<u64> {
        let done = sqlx::query("DELETE FROM sessions WHERE expires_at < $1")
            .bind(now_unix() - 86_400)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
