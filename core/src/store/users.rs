//! Users: created or updated at sign-in, read by id.

use super::handle::Store;
use crate::ids::UserId;
use crate::{
    CoreResult,
    time::now_unix,
    user::{ProviderIdentity, User},
};

impl Store {
    /// Creates the user for this provider identity (and their personal workspace), or
    /// refreshes its profile, and counts the sign-in.
    #[tracing::instrument(skip_all, fields(issuer = %identity.issuer))]
    pub async fn upsert_user_on_sign_in(&self, identity: &ProviderIdentity) -> CoreResult<User> {
        let now = now_unix();
        let user = sqlx::query_as::<_, User>(
            "INSERT INTO users (id, issuer, subject, email, name, picture, onboarded, login_count, created_at, updated_at, verified_email)
             VALUES ($1, $2, $3, $4, $5, $6, 0, 1, $7, $7, $8)
             ON CONFLICT (issuer, subject) DO UPDATE SET
                 email = excluded.email,
                 verified_email = excluded.verified_email,
                 name = excluded.name,
                 picture = excluded.picture,
                 login_count = users.login_count + 1,
                 updated_at = excluded.updated_at
             RETURNING id, issuer, subject, email, name, picture, onboarded, login_count, created_at",
        )
        .bind(uuid::Uuid::new_v4().to_string())
        .bind(&identity.issuer)
        .bind(&identity.subject)
        .bind(&identity.email)
        .bind(&identity.name)
        .bind(&identity.picture)
        .bind(now)
        .bind((identity.email_verified && !identity.email.is_empty()).then_some(&identity.email))
        .fetch_one(&self.pool)
        .await?;
        // Every user has a personal workspace from their first sign-in on.
        self.ensure_personal_workspace(&user.id).await?;
        Ok(user)
    }

    /// The user with this id, if any.
    #[tracing::instrument(skip(self))]
    pub async fn user(&self, user_id: &UserId) -> CoreResult<Option<User>> {
        Ok(sqlx::query_as::<_, User>(
            "SELECT id, issuer, subject, email, name, picture, onboarded, login_count, created_at
             FROM users WHERE id = $1",
        )
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// The user whose live session `jti` is (unexpired, not revoked), if any: a session
    /// token's check and its user in one read, as every signed-in request makes them.
    #[tracing::instrument(skip(self))]
    pub async fn user_of_active_session(&self, user_id: &UserId, jti: &str) -> CoreResult<Option<User>> {
        Ok(sqlx::query_as::<_, User>(
            "SELECT u.id, u.issuer, u.subject, u.email, u.name, u.picture, u.onboarded, u.login_count, u.created_at
             FROM users u JOIN sessions s ON s.user_id = u.id
             WHERE u.id = $1 AND s.jti = $2 AND s.revoked_at IS NULL AND s.expires_at > $3",
        )
        .bind(user_id)
        .bind(jti)
        .bind(crate::time::now_unix())
        .fetch_optional(&self.pool)
        .await?)
    }

    /// The email the identity provider vouched for at the user's last sign-in, if it did.
    #[tracing::instrument(skip(self))]
    pub async fn verified_email(&self, user_id: &UserId) -> CoreResult<Option<String>> {
        let email: Option<Option<String>> = sqlx::query_scalar("SELECT verified_email FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(email.flatten())
    }

    /// Marks the user's onboarding as finished. Returns false if no such user.
    #[tracing::instrument(skip(self))]
    pub async fn complete_onboarding(&self, user_id: &UserId) -> CoreResult<bool> {
        let done = sqlx::query("UPDATE users SET onboarded = 1, updated_at = $2 WHERE id = $1")
            .bind(user_id)
            .bind(now_unix())
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
