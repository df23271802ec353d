//! Sign-in and sessions: `/api/auth/*`.

use leadgen_core::ids::UserId;
use leadgen_core::user::User;
use poem::{Request, web::Data};
use poem_openapi::{ApiResponse, Object, OpenApi, param::Query, payload::Json};

use super::ApiTags;
use crate::{
    auth::{
        self, Auth, access, local,
        oidc::{FEATURE_SHEETS, SignedIn},
    },
    error::{ApiError, Fails, status::*},
    state::AppState,
};

/// The signed-in user, as the spec's `User`.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct UserInfo {
    /// Our user id.
    pub id: UserId,
    /// Display name, if the identity provider gave one.
    #[oai(nullable)]
    pub name: Option<String>,
    /// E-mail address.
    pub email: String,
    /// Picture URL, if any.
    #[oai(nullable)]
    pub picture: Option<String>,
    /// Onboarding (adding a Places API key) is not finished.
    pub needs_onboarding: bool,
    /// This is the account's first sign-in.
    pub is_first_login: bool,
}

impl From<&User> for UserInfo {
    fn from(user: &User) -> Self {
        Self {
            id: user.id.clone(),
            name: user.name.clone(),
            email: user.email.clone(),
            picture: user.picture.clone(),
            needs_onboarding: user.needs_onboarding(),
            is_first_login: user.is_first_login(),
        }
    }
}

/// How sign-in works on this server.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AuthConfig {
    /// No identity provider is configured: sign-in opens the local operator account.
    pub local_mode: bool,
    /// The identity provider's issuer, when one is configured.
    #[oai(nullable)]
    pub issuer: Option<String>,
}

/// A new session token.
#[derive(Debug, Object)]
pub struct SessionResponse {
    /// Bearer token (JWT) for the `Authorization` header.
    pub token: String,
    /// The signed-in user.
    pub user: UserInfo,
}

/// Answer of `GET /api/auth/google` and `GET /api/auth/callback`.
#[derive(ApiResponse)]
pub enum RedirectResponse {
    /// Go to the identity provider, or back to the app (`/auth/success?token=...` or
    /// `/auth/error?reason=...`). Starting a sign-in sets a short-lived cookie that ties
    /// it to this browser; the callback requires it, then clears it.
    #[oai(status = 302)]
    Found(
        #[oai(header = "Location")] String,
        #[oai(header = "Set-Cookie")] Option<String>,
    ),
}

/// The cookie tying a sign-in to the browser that started it.
pub const SIGN_IN_COOKIE: &str = "leadgen_signin";
/// How long a sign-in may take at the provider, seconds (as long as its state lives).
const SIGN_IN_COOKIE_SECS: u32 = 600;

/// The `Set-Cookie` value binding sign-in `state` to this browser: HttpOnly, SameSite=Lax
/// (the provider's redirect back is a top-level GET, which Lax lets through), Secure when
/// the app is served over https, and sent only to the callback.
fn binding_cookie(state: &AppState, value: &str, max_age: u32) -> String {
    let secure = if state.config.server.public_url.scheme() == "https" {
        "; Secure"
    } else {
        ""
    };
    format!("{SIGN_IN_COOKIE}={value}; Path=/api/auth/callback; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}")
}

/// The value of cookie `name` in the request's `Cookie` headers.
fn cookie<'a>(request: &'a poem::Request, name: &str) -> Option<&'a str> {
    request
        .headers()
        .get_all(poem::http::header::COOKIE)
        .iter()
        .filter_map(|h| h.to_str().ok())
        .flat_map(|h| h.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty())
}

/// Whether the browser's binding cookie is the one set for `sign_in_state`.
fn bound_to_this_browser(cookie: Option<&str>, sign_in_state: &str) -> bool {
    cookie.is_some_and(|c| {
        c.len() == sign_in_state.len()
            && bool::from(subtle::ConstantTimeEq::ct_eq(c.as_bytes(), sign_in_state.as_bytes()))
    })
}

/// Answer of `POST /api/auth/logout`.
#[derive(ApiResponse)]
pub enum LogoutResponse {
    /// Signed out; the token presented (if any) no longer works.
    #[oai(status = 204)]
    Done,
}

/// Keeps the refresh token of a sign-in that granted Sheets access. A provider may issue
/// none (the user had granted before and no consent was shown) or let the user untick the
/// Sheets scopes: then the stored grant, if any, stays as it was.
async fn store_sheets_grant(state: &AppState, user_id: &UserId, signed_in: &SignedIn) -> Result<(), ApiError> {
    let Some(refresh_token) = &signed_in.refresh_token else {
        tracing::info!("Sheets consent returned no refresh token");
        return Ok(());
    };
    if let Some(granted) = &signed_in.granted_scopes
        && !granted.iter().any(|s| s == leadgen_core::sheets::SCOPE_SPREADSHEETS)
    {
        tracing::info!("Sheets consent did not grant the spreadsheets scope");
        return Ok(());
    }
    state
        .sheets
        .store_grant(user_id, refresh_token)
        .await
        .map_err(|e| ApiError::internal(&e))
}

/// Sign-in and session operations.
pub struct AuthApi;

#[OpenApi(tag = "ApiTags::Auth", prefix_path = "/auth")]
impl AuthApi {
    /// Start sign-in
    ///
    /// Sends the browser to the identity provider (OIDC with PKCE). With
    /// `feature=sheets` it also asks for Google Sheets access. In local mode (no provider
    /// configured) it signs in the local operator at once, and only a browser on the
    /// server's own machine, at a loopback address with the server's port and through
    /// no proxy (403 `local_only` otherwise).
    #[oai(path = "/google", method = "get", operation_id = "start_sign_in")]
    async fn start_sign_in(
        &self,
        state: Data<&AppState>,
        feature: Query<Option<String>>,
        request: &poem::Request,
    ) -> Result<RedirectResponse, Fails<{ BAD_REQUEST | FORBIDDEN }>> {
        let feature = feature.0;
        if let Some(f) = feature.as_deref().filter(|f| *f != FEATURE_SHEETS) {
            return Err(ApiError::bad_request(
                "invalid_feature",
                format!("Unknown feature '{f}'. The only feature is 'sheets'."),
            )
            .into());
        }
        let Some(oidc) = &state.oidc else {
            local::refuse_unless_at_this_machine(request, state.config.server.listen.port())?;
            let user = state.store.upsert_user_on_sign_in(&local::operator_identity()).await?;
            let token = auth::start_session(&state, &user.id).await?;
            return Ok(success_redirect(&state, &token));
        };
        match oidc.begin(&state.store, feature.as_deref()).await {
            Ok((url, sign_in_state)) => Ok(RedirectResponse::Found(
                url.to_string(),
                Some(binding_cookie(&state, &sign_in_state, SIGN_IN_COOKIE_SECS)),
            )),
            Err(e) => {
                tracing::warn!(error = %e, "sign-in could not start");
                Ok(error_redirect(&state, e.code()))
            }
        }
    }

    /// Finish sign-in
    ///
    /// The identity provider's redirect target. Verifies state, exchanges the code with
    /// the PKCE verifier, checks the ID token (issuer, audience, signature, nonce), then
    /// redirects to `/auth/success?token=...`; any failure redirects to `/auth/error`.
    #[oai(path = "/callback", method = "get", operation_id = "finish_sign_in")]
    async fn finish_sign_in(
        &self,
        state: Data<&AppState>,
        code: Query<Option<String>>,
        #[oai(name = "state")] sign_in_state: Query<Option<String>>,
        error: Query<Option<String>>,
        request: &poem::Request,
    ) -> Result<RedirectResponse, Fails<0>> {
        // The cookie `GET /api/auth/google` set in the browser that started this sign-in.
        let binding = cookie(request, SIGN_IN_COOKIE);
        let Some(oidc) = &state.oidc else {
            return Ok(error_redirect(&state, "not_configured"));
        };
        let landing = finish(&state, oidc, code.0, sign_in_state.0, error.0, binding).await?;
        // Whatever happened, this sign-in is over: clear its cookie.
        let RedirectResponse::Found(location, _) = landing;
        Ok(RedirectResponse::Found(location, Some(binding_cookie(&state, "", 0))))
    }

    /// How sign-in works here
    ///
    /// Public. Tells the web app whether an identity provider is configured.
    #[oai(path = "/config", method = "get", operation_id = "get_auth_config")]
    async fn get_auth_config(&self, state: Data<&AppState>) -> Json<AuthConfig> {
        Json(AuthConfig {
            local_mode: state.oidc.is_none(),
            issuer: state.oidc.as_ref().map(|o| o.issuer().to_owned()),
        })
    }

    /// The signed-in user
    ///
    /// API tokens: any valid token.
    #[oai(path = "/me", method = "get", operation_id = "get_me")]
    async fn get_me(&self, auth: Auth<access::AnyCredential>) -> Json<UserInfo> {
        Json(UserInfo::from(&auth.0.user))
    }

    /// Refresh the session token
    ///
    /// Issues a new token and revokes the one presented.
    ///
    /// API tokens: not accepted; this needs a signed-in session.
    #[oai(path = "/refresh", method = "post", operation_id = "refresh_session")]
    async fn refresh_session(
        &self,
        state: Data<&AppState>,
        auth: Auth<access::Session>,
    ) -> Result<Json<SessionResponse>, Fails<{ UNAUTHORIZED | FORBIDDEN }>> {
        let caller = auth.0;
        let Some(claims) = caller.session() else {
            return Err(ApiError::session_invalid().into());
        };
        if !state.store.revoke_session(&caller.user.id, &claims.jti).await? {
            return Err(ApiError::session_invalid().into());
        }
        let token = auth::start_session(&state, &caller.user.id).await?;
        Ok(Json(SessionResponse {
            token,
            user: UserInfo::from(&caller.user),
        }))
    }

    /// Sign out
    ///
    /// Revokes the session token if one is sent; always answers 204, so a client can
    /// clear its state whatever happened. A personal API token is not revoked here (see
    /// `DELETE /api/user/tokens/{id}`).
    #[oai(path = "/logout", method = "post", operation_id = "logout")]
    async fn logout(&self, state: Data<&AppState>, req: &Request) -> LogoutResponse {
        let token = req
            .header("authorization")
            .and_then(|h| h.strip_prefix("Bearer ").or_else(|| h.strip_prefix("bearer ")));
        if let Some(token) = token
            && let Ok(caller) = auth::authenticate(&state, token.trim()).await
            && let Some(claims) = caller.session()
            && let Err(e) = state.store.revoke_session(&caller.user.id, &claims.jti).await
        {
            tracing::error!(error = %e, "could not revoke session at logout");
        }
        LogoutResponse::Done
    }
}

/// The callback's checks and sign-in, once the provider is known.
async fn finish(
    state: &AppState,
    oidc: &crate::auth::oidc::Oidc,
    code: Option<String>,
    sign_in_state: Option<String>,
    error: Option<String>,
    binding: Option<&str>,
) -> Result<RedirectResponse, ApiError> {
    if let Some(error) = error {
        tracing::info!(%error, "identity provider refused sign-in");
        // Consume the state so it cannot be replayed.
        if let Some(s) = &sign_in_state {
            let _ = state.store.take_login_attempt(s).await;
        }
        return Ok(error_redirect(state, "access_denied"));
    }
    let (Some(code), Some(sign_in_state)) = (code, sign_in_state) else {
        return Ok(error_redirect(state, "invalid_request"));
    };
    if !bound_to_this_browser(binding, &sign_in_state) {
        // Opened in a browser that did not start this sign-in (login CSRF: someone
        // else's code and state): refuse, and spend the state so it is never used.
        tracing::warn!("sign-in callback without its browser's binding cookie");
        let _ = state.store.take_login_attempt(&sign_in_state).await;
        return Ok(error_redirect(state, "browser_mismatch"));
    }
    let signed_in = match oidc.finish(&state.store, &code, &sign_in_state).await {
        Ok(signed_in) => signed_in,
        Err(e) => {
            tracing::warn!(error = %e, "sign-in rejected");
            return Ok(error_redirect(state, e.code()));
        }
    };
    let user = state.store.upsert_user_on_sign_in(&signed_in.identity).await?;
    if signed_in.feature.as_deref() == Some(FEATURE_SHEETS) {
        store_sheets_grant(state, &user.id, &signed_in).await?;
    }
    let token = auth::start_session(state, &user.id).await?;
    Ok(success_redirect(state, &token))
}

fn success_redirect(state: &AppState, token: &str) -> RedirectResponse {
    let mut url = state.config.public_path("/auth/success");
    url.query_pairs_mut().append_pair("token", token);
    RedirectResponse::Found(url.to_string(), None)
}

fn error_redirect(state: &AppState, reason: &str) -> RedirectResponse {
    let mut url = state.config.public_path("/auth/error");
    url.query_pairs_mut().append_pair("reason", reason);
    RedirectResponse::Found(url.to_string(), None)
}
