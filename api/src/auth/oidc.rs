//! OpenID Connect sign-in: authorization code flow with PKCE (S256), `state` and `nonce`,
//! against the issuer in `LEADGEN_OIDC_ISSUER` (Google by default), found by discovery.
//!
//! The pending sign-in (state, PKCE verifier, nonce) is kept in the store, so any API
//! replica can finish it and each can be finished once.

use std::{
    sync::Arc,
    time::{Duration, Instant},
};

use leadgen_core::{
    config::OidcConfig,
    store::{LoginAttempt, Store},
    time::now_unix,
    user::ProviderIdentity,
};
use openidconnect::{
    AccessToken, AuthorizationCode, ClientId, ClientSecret, CsrfToken, EndpointMaybeSet, EndpointNotSet, EndpointSet,
    IssuerUrl, Nonce, OAuth2TokenResponse, PkceCodeChallenge, PkceCodeVerifier, RedirectUrl, Scope, SubjectIdentifier,
    TokenResponse,
    core::{CoreAuthenticationFlow, CoreClient, CoreProviderMetadata, CoreUserInfoClaims},
};
use secrecy::{ExposeSecret, SecretString};
use tokio::sync::Mutex;
use url::Url;

use super::http_client::OidcHttpClient;

/// Extra consent a sign-in can ask for.
pub const FEATURE_SHEETS: &str = "sheets";
/// Provider metadata (and its signing keys) is re-discovered after this long.
const DISCOVERY_TTL: Duration = Duration::from_secs(3600);

type DiscoveredClient =
    CoreClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointMaybeSet, EndpointMaybeSet>;

/// Why a sign-in was refused. The codes go to `/auth/error?reason=`.
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    /// The provider could not be discovered or reached.
    #[error("identity provider unavailable: {0}")]
    ProviderUnavailable(String),
    /// The provider answered the callback with an error (e.g. access denied).
    #[error("identity provider refused: {0}")]
    ProviderRefused(String),
    /// Unknown, reused or expired `state`.
    #[error("unknown or expired sign-in state")]
    BadState,
    /// The code could not be exchanged (reused, wrong verifier, wrong client).
    #[error("code exchange failed: {0}")]
    ExchangeFailed(String),
    /// The ID token failed verification (issuer, audience, signature, nonce, expiry).
    #[error("ID token rejected: {0}")]
    BadIdToken(String),
}

impl SignInError {
    /// Short code for the error page's query string.
    pub fn code(&self) -> &'static str {
        match self {
            Self::ProviderUnavailable(_) => "provider_unavailable",
            Self::ProviderRefused(_) => "access_denied",
            Self::BadState => "invalid_state",
            Self::ExchangeFailed(_) => "exchange_failed",
            Self::BadIdToken(_) => "invalid_id_token",
        }
    }
}

/// A signed-in identity, plus what the provider granted.
#[derive(Debug)]
pub struct SignedIn {
    /// Who it is.
    pub identity: ProviderIdentity,
    /// The extra feature consented to, if this was a re-authentication.
    pub feature: Option<String>,
    /// The refresh token, when the provider issued one (offline access for Sheets).
    pub refresh_token: Option<SecretString>,
    /// Scopes the provider says it granted, when it says (Google lets users untick some).
    pub granted_scopes: Option<Vec<String>>,
}

/// The OIDC relying party.
pub struct Oidc {
    config: OidcConfig,
    redirect_url: RedirectUrl,
    http: OidcHttpClient,
    discovered: Mutex<Option<(Instant, Arc<DiscoveredClient>)>>,
}

impl Oidc {
    /// A relying party whose callback is `{public url}/api/auth/callback`.
    pub fn new(config: OidcConfig, public_url: &Url) -> anyhow::Result<Self> {
        let mut callback = public_url.clone();
        callback.set_path("/api/auth/callback");
        Ok(Self {
            config,
            redirect_url: RedirectUrl::from_url(callback),
            http: OidcHttpClient::new()?,
            discovered: Mutex::new(None),
        })
    }

    /// The configured issuer.
    pub fn issuer(&self) -> &str {
        &self.config.issuer
    }

    async fn client(&self) -> Result<Arc<DiscoveredClient>, SignInError> {
        let mut cached = self.discovered.lock().await;
        if let Some((at, client)) = cached.as_ref()
            && at.elapsed() < DISCOVERY_TTL
        {
            return Ok(client.clone());
        }
        let issuer =
            IssuerUrl::new(self.config.issuer.clone()).map_err(|e| SignInError::ProviderUnavailable(e.to_string()))?;
        let metadata = CoreProviderMetadata::discover_async(issuer, &self.http)
            .await
            .map_err(|e| SignInError::ProviderUnavailable(format!("discovery failed: {e}")))?;
        let client = CoreClient::from_provider_metadata(
            metadata,
            ClientId::new(self.config.client_id.clone()),
            self.config
                .client_secret
                .as_ref()
                .map(|s| ClientSecret::new(s.expose_secret().to_owned())),
        )
        .set_redirect_uri(self.redirect_url.clone());
        let client = Arc::new(client);
        *cached = Some((Instant::now(), client.clone()));
        Ok(client)
    }

    /// Starts a sign-in: records state, verifier and nonce, and returns the provider URL
    /// to send the browser to and the state it will come back with (which the caller ties
    /// to the browser).
    pub async fn begin(&self, store: &Store, feature: Option<&str>) -> Result<(Url, String), SignInError> {
        let client = self.client().await?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .add_scope(Scope::new("email".into()))
            .add_scope(Scope::new("profile".into()))
            .set_pkce_challenge(challenge);
        if feature == Some(FEATURE_SHEETS) {
            for scope in leadgen_core::sheets::SCOPES {
                request = request.add_scope(Scope::new(scope.into()));
            }
            // Google's incremental authorization: a refresh token, and a consent screen
            // even for a returning user, so the refresh token is issued again.
            request = request
                .add_extra_param("access_type", "offline")
                .add_extra_param("include_granted_scopes", "true")
                .add_extra_param("prompt", "consent");
        }
        let (url, state, nonce) = request.url();
        store
            .save_login_attempt(&LoginAttempt {
                state: state.secret().clone(),
                pkce_verifier: verifier.secret().clone(),
                nonce: nonce.secret().clone(),
                feature: feature.map(str::to_owned),
                created_at: now_unix(),
            })
            .await
            .map_err(|e| SignInError::ProviderUnavailable(format!("could not record sign-in: {e}")))?;
        Ok((url, state.secret().clone()))
    }

    /// Finishes a sign-in from the callback's `code` and `state`.
    pub async fn finish(&self, store: &Store, code: &str, state: &str) -> Result<SignedIn, SignInError> {
        let attempt = store
            .take_login_attempt(state)
            .await
            .map_err(|e| SignInError::ProviderUnavailable(e.to_string()))?
            .ok_or(SignInError::BadState)?;
        let client = self.client().await?;
        let token = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .map_err(|e| SignInError::ProviderUnavailable(e.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(attempt.pkce_verifier))
            .request_async(&self.http)
            .await
            .map_err(|e| SignInError::ExchangeFailed(e.to_string()))?;
        let id_token = token
            .id_token()
            .ok_or_else(|| SignInError::BadIdToken("the provider returned no ID token".into()))?;
        let claims = id_token
            .claims(&client.id_token_verifier(), &Nonce::new(attempt.nonce))
            .map_err(|e| SignInError::BadIdToken(e.to_string()))?;
        let mut identity = ProviderIdentity {
            issuer: claims.issuer().to_string(),
            subject: claims.subject().to_string(),
            email: claims.email().map(|e| e.to_string()).unwrap_or_default(),
            name: claims.name().and_then(|n| n.get(None)).map(|n| n.to_string()),
            picture: claims.picture().and_then(|p| p.get(None)).map(|p| p.to_string()),
            email_verified: claims.email_verified().unwrap_or(false),
        };
        // Google puts profile claims in the ID token; providers that follow the core spec
        // strictly return them from UserInfo only (for the code flow). Ask UserInfo then.
        if identity.email.is_empty() {
            self.fill_from_user_info(&client, token.access_token(), claims.subject(), &mut identity)
                .await?;
        }
        Ok(SignedIn {
            identity,
            feature: attempt.feature,
            refresh_token: token.refresh_token().map(|t| SecretString::from(t.secret().clone())),
            granted_scopes: token.scopes().map(|s| s.iter().map(|s| s.to_string()).collect()),
        })
    }

    async fn fill_from_user_info(
        &self,
        client: &DiscoveredClient,
        access_token: &AccessToken,
        subject: &SubjectIdentifier,
        identity: &mut ProviderIdentity,
    ) -> Result<(), SignInError> {
        let Ok(request) = client.user_info(access_token.clone(), Some(subject.clone())) else {
            return Ok(()); // The provider offers no UserInfo endpoint.
        };
        let info: CoreUserInfoClaims = request
            .request_async(&self.http)
            .await
            .map_err(|e| SignInError::BadIdToken(format!("UserInfo failed: {e}")))?;
        if let Some(email) = info.email() {
            identity.email = email.to_string();
            identity.email_verified = info.email_verified().unwrap_or(false);
        }
        if identity.name.is_none() {
            identity.name = info.name().and_then(|n| n.get(None)).map(|n| n.to_string());
        }
        if identity.picture.is_none() {
            identity.picture = info.picture().and_then(|p| p.get(None)).map(|p| p.to_string());
        }
        Ok(())
    }
}
