//! Authentication: the bearer scheme every protected operation takes, OIDC sign-in, and
//! the local operator account of embedded mode.

pub mod http_client;
pub mod local;
pub mod oidc;

use leadgen_core::ids::UserId;
use leadgen_core::{session::Claims, user::User};
use poem::Request;
use poem_openapi::{SecurityScheme, auth::Bearer};

use crate::{error::ApiError, state::AppState};

/// The caller, authenticated. Handlers receive it as an argument, so none can forget to
/// authenticate, and every store call takes `user.id`.
#[derive(Debug, Clone)]
pub struct AuthUser {
    /// The signed-in user.
    pub user: User,
    /// The session token's claims (for logout and refresh).
    pub claims: Claims,
}

/// Bearer session token, as issued by `/api/auth/callback`.
#[derive(SecurityScheme)]
#[oai(ty = "bearer", bearer_format = "JWT", checker = "check_bearer")]
pub struct BearerAuth(pub AuthUser);

async fn check_bearer(req: &Request, bearer: Bearer) -> poem::Result<AuthUser> {
    let state = req
        .data::<AppState>()
        .ok_or_else(|| ApiError::internal(&"application state missing"))?;
    Ok(authenticate(state, &bearer.token).await?)
}

/// Verifies a session token: signature, algorithm, expiry, and that its session is live.
pub async fn authenticate(state: &AppState, token: &str) -> Result<AuthUser, ApiError> {
    let claims = state.sessions.verify(token).map_err(|_| ApiError::session_invalid())?;
    let user_id = leadgen_core::ids::UserId::from(claims.sub.as_str());
    if !state.store.is_session_active(&user_id, &claims.jti).await? {
        return Err(ApiError::session_invalid());
    }
    let user = state
        .store
        .user(&user_id)
        .await?
        .ok_or_else(ApiError::session_invalid)?;
    Ok(AuthUser { user, claims })
}

/// Issues and records a session token for `user_id`.
pub async fn start_session(state: &AppState, user_id: &UserId) -> Result<String, ApiError> {
    let (token, claims) = state.sessions.issue(user_id)?;
    state.store.create_session(&claims).await?;
    Ok(token)
}
