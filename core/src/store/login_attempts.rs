//! Pending OIDC sign-ins, kept between the redirect to the provider and its callback so
//! that any API replica can finish them. Each is taken (deleted) exactly once.

use super::handle::Store;
use crate::{CoreResult, time::now_unix};

/// How long a sign-in may take at the provider before its state is refused.
pub const LOGIN_ATTEMPT_TTL_SECS: i64 = 600;

/// One pending sign-in.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct LoginAttempt {
    /// The `state` sent to the provider (random, single use).
    pub state: String,
    /// PKCE verifier matching the S256 challenge sent.
    pub pkce_verifier: String,
    /// The `nonce` the ID token must carry.
    pub nonce: String,
    /// Extra consent asked for (`sheets`), if any.
    pub feature: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
}

impl Store {
    /// Saves a pending sign-in, dropping any that have expired.
    #[tracing::instrument(skip_all)]
    pub async fn save_login_attempt(&self, attempt: &LoginAttempt) -> CoreResult<()> {
        sqlx::query("DELETE FROM login_attempts WHERE created_at < $1")
            .bind(now_unix() - LOGIN_ATTEMPT_TTL_SECS)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO login_attempts (state, pkce_verifier, nonce, feature, created_at) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&attempt.state)
        .bind(&attempt.pkce_verifier)
        .bind(&attempt.nonce)
        .bind(&attempt.feature)
        .bind(attempt.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Deletes the sign-ins that expired (abandoned at the provider). Returns how many.
    /// Saving a sign-in drops them too, but only while people sign in: this is the
    /// scheduled sweep (`PruneJobV1`).
    #[tracing::instrument(skip_all)]
    pub async fn prune_login_attempts(&self) -> CoreResult<u64> {
        let done = sqlx::query("DELETE FROM login_attempts WHERE created_at < $1")
            .bind(now_unix() - LOGIN_ATTEMPT_TTL_SECS)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// Takes the pending sign-in for `state` if it exists and has not expired; a second
    /// take of the same state finds nothing.
    #[tracing::instrument(skip_all)]
    pub async fn take_login_attempt(&self, state: &str) -> CoreResult<Option<LoginAttempt>> {
        let attempt = sqlx::query_as::<_, LoginAttempt>(
            "DELETE FROM login_attempts WHERE state = $1
             RETURNING state, pkce_verifier, nonce, feature, created_at",
        )
        .bind(state)
        .fetch_optional(&self.pool)
        .await?;
        Ok(attempt.filter(|a| a.created_at >= now_unix() - LOGIN_ATTEMPT_TTL_SECS))
    }
}
