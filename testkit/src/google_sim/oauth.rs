//! Google's OAuth 2.0 token endpoint for the `refresh_token` grant, and the grants and
//! access tokens behind it. Each refresh token belongs to an identity and carries scopes;
//! access tokens minted from it carry both until they expire or the grant is revoked
//! (revoking either token of a grant revokes both, as Google documents).

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use poem::{Response, http::StatusCode};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::{config::GoogleSimConfig, errors::oauth_error, ids};

/// See, edit, create and delete all Google Sheets spreadsheets.
pub const SCOPE_SPREADSHEETS: &str = "https://www.googleapis.com/auth/spreadsheets";
/// See all Google Sheets spreadsheets.
pub const SCOPE_SPREADSHEETS_READONLY: &str = "https://www.googleapis.com/auth/spreadsheets.readonly";
/// See, edit, create and delete all Drive files.
pub const SCOPE_DRIVE: &str = "https://www.googleapis.com/auth/drive";
/// See and download all Drive files.
pub const SCOPE_DRIVE_READONLY: &str = "https://www.googleapis.com/auth/drive.readonly";
/// See, edit, create and delete only the Drive files the app uses (created, or opened
/// with it). Non-sensitive, so the scope a Sheets export should ask for.
pub const SCOPE_DRIVE_FILE: &str = "https://www.googleapis.com/auth/drive.file";
/// See information about Drive files.
pub const SCOPE_DRIVE_METADATA_READONLY: &str = "https://www.googleapis.com/auth/drive.metadata.readonly";

const SCOPE_PREFIX: &str = "https://www.googleapis.com/auth/";

/// A scope in full: `spreadsheets` becomes `https://www.googleapis.com/auth/spreadsheets`;
/// full URLs and the OpenID scopes (`openid`, `email`, `profile`) are kept as given.
pub(crate) fn normalize_scope(scope: &str) -> String {
    if scope.contains("://") || matches!(scope, "openid" | "email" | "profile") {
        scope.to_owned()
    } else {
        format!("{SCOPE_PREFIX}{scope}")
    }
}

/// Who an access token speaks for, and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Principal {
    pub identity: String,
    pub scopes: Vec<String>,
}

impl Principal {
    /// Whether the token carries at least one of `scopes`.
    pub(crate) fn has_any(&self, scopes: &[&str]) -> bool {
        self.scopes.iter().any(|s| scopes.contains(&s.as_str()))
    }
}

/// What an access token turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TokenCheck {
    Valid(Principal),
    /// Never minted, or its grant was revoked.
    Unknown,
    /// Past its lifetime, or expired by a test.
    Expired,
}

#[derive(Debug, Clone)]
struct Grant {
    identity: String,
    scopes: Vec<String>,
    revoked: bool,
}

#[derive(Debug, Clone)]
struct Minted {
    refresh_token: String,
    expires_at: Instant,
    expired: bool,
}

/// Every grant and minted access token.
#[derive(Debug, Default)]
pub(crate) struct Auth {
    grants: HashMap<String, Grant>,
    access: HashMap<String, Minted>,
}

impl Auth {
    /// A new refresh token for `identity` with `scopes` (short names allowed).
    pub(crate) fn grant(&mut self, identity: &str, scopes: &[&str]) -> String {
        let token = ids::refresh_token();
        self.insert_grant(&token, identity, scopes);
        token
    }

    fn insert_grant(&mut self, token: &str, identity: &str, scopes: &[&str]) {
        self.grants.insert(
            token.to_owned(),
            Grant {
                identity: identity.to_owned(),
                scopes: scopes.iter().map(|s| normalize_scope(s)).collect(),
                revoked: false,
            },
        );
    }

    /// Revokes the grant `token` belongs to (a refresh or an access token); false when
    /// the token is unknown or already revoked.
    pub(crate) fn revoke(&mut self, token: &str) -> bool {
        let refresh = match self.access.get(token) {
            Some(minted) => minted.refresh_token.clone(),
            None => token.to_owned(),
        };
        match self.grants.get_mut(&refresh) {
            Some(grant) if !grant.revoked => {
                grant.revoked = true;
                true
            }
            _ => false,
        }
    }

    /// Makes every access token minted so far answer 401, as if an hour had passed.
    pub(crate) fn expire_all(&mut self) {
        for minted in self.access.values_mut() {
            minted.expired = true;
        }
    }

    /// What `access_token` is at `now`.
    pub(crate) fn check(&self, access_token: &str, now: Instant) -> TokenCheck {
        let Some(minted) = self.access.get(access_token) else {
            return TokenCheck::Unknown;
        };
        let Some(grant) = self.grants.get(&minted.refresh_token).filter(|g| !g.revoked) else {
            return TokenCheck::Unknown;
        };
        if minted.expired || now >= minted.expires_at {
            return TokenCheck::Expired;
        }
        TokenCheck::Valid(Principal {
            identity: grant.identity.clone(),
            scopes: grant.scopes.clone(),
        })
    }

    /// `POST /token`: `fields` are the form fields, `basic` the client credentials of an
    /// HTTP Basic header (RFC 6749 §2.3.1 allows either place).
    pub(crate) fn token_endpoint(
        &mut self,
        config: &GoogleSimConfig,
        fields: &HashMap<String, String>,
        basic: Option<(String, String)>,
        now: Instant,
    ) -> Response {
        let field = |name: &str| fields.get(name).map(String::as_str).filter(|v| !v.is_empty());
        let grant_type = field("grant_type").unwrap_or_default();
        if grant_type != "refresh_token" {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "unsupported_grant_type",
                &format!("Invalid grant_type: {grant_type}"),
            );
        }
        let (client_id, client_secret) = match (field("client_id"), basic) {
            (Some(id), _) => (id.to_owned(), field("client_secret").unwrap_or_default().to_owned()),
            (None, Some(basic)) => basic,
            (None, None) => {
                return oauth_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request",
                    "Could not determine client ID from request.",
                );
            }
        };
        if let Some(client) = &config.client {
            if client.id != client_id {
                return oauth_error(
                    StatusCode::UNAUTHORIZED,
                    "invalid_client",
                    "The OAuth client was not found.",
                );
            }
            if client.secret != client_secret {
                return oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "Unauthorized");
            }
        }
        let Some(refresh_token) = field("refresh_token") else {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "Missing required parameter: refresh_token",
            );
        };
        if !self.grants.contains_key(refresh_token) && config.accept_unknown_refresh_tokens {
            let identity = adopted_identity(refresh_token);
            self.insert_grant(refresh_token, &identity, &[SCOPE_SPREADSHEETS, SCOPE_DRIVE_FILE]);
        }
        let Some(grant) = self.grants.get(refresh_token).filter(|g| !g.revoked) else {
            return oauth_error(
                StatusCode::BAD_REQUEST,
                "invalid_grant",
                "Token has been expired or revoked.",
            );
        };
        let scope = grant.scopes.join(" ");
        let access_token = ids::access_token();
        let lifetime = config.access_token_lifetime;
        self.access.insert(
            access_token.clone(),
            Minted {
                refresh_token: refresh_token.to_owned(),
                expires_at: now + lifetime,
                expired: false,
            },
        );
        Response::builder()
            .status(StatusCode::OK)
            .content_type("application/json; charset=utf-8")
            .header("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate")
            .body(
                json!({
                    "access_token": access_token,
                    "expires_in": expires_in(lifetime),
                    "scope": scope,
                    "token_type": "Bearer",
                })
                .to_string(),
            )
    }

    /// `POST /revoke`: 200 with an empty body, or Google's 400 `invalid_token`.
    pub(crate) fn revoke_endpoint(&mut self, token: Option<&str>) -> Response {
        match token {
            Some(token) if self.revoke(token) => Response::builder().status(StatusCode::OK).finish(),
            _ => oauth_error(StatusCode::BAD_REQUEST, "invalid_token", "Token expired or revoked"),
        }
    }
}

/// The identity an adopted refresh token gets: `user-` and 8 hex digits of its SHA-256.
pub(crate) fn adopted_identity(refresh_token: &str) -> String {
    let digest = Sha256::digest(refresh_token.as_bytes());
    format!("user-{}", &hex::encode(digest)[..8])
}

/// Whole seconds, as `expires_in` is an integer; at least 1 so clients never see 0.
fn expires_in(lifetime: Duration) -> u64 {
    lifetime.as_secs().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revoking_an_access_token_revokes_its_grant() {
        let mut auth = Auth::default();
        let refresh = auth.grant("ann@example.com", &["spreadsheets"]);
        let config = GoogleSimConfig::default();
        let fields: HashMap<String, String> = [
            ("grant_type", "refresh_token"),
            ("client_id", "c"),
            ("refresh_token", refresh.as_str()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let now = Instant::now();
        assert_eq!(
            auth.token_endpoint(&config, &fields, None, now).status(),
            StatusCode::OK
        );
        let access = auth.access.keys().next().cloned().expect("minted");
        assert_eq!(
            auth.check(&access, now),
            TokenCheck::Valid(Principal {
                identity: "ann@example.com".to_owned(),
                scopes: vec![SCOPE_SPREADSHEETS.to_owned()],
            })
        );
        assert_eq!(auth.check(&access, now + DEFAULT_LIFETIME), TokenCheck::Expired);
        assert!(auth.revoke(&access));
        assert_eq!(auth.check(&access, now), TokenCheck::Unknown);
        assert!(!auth.revoke(&refresh), "already revoked");
        assert_eq!(
            auth.token_endpoint(&config, &fields, None, now).status(),
            StatusCode::BAD_REQUEST
        );
    }

    const DEFAULT_LIFETIME: Duration = super::super::config::DEFAULT_ACCESS_TOKEN_LIFETIME;

    #[test]
    fn adopted_identities_are_stable() {
        assert_eq!(adopted_identity("abc"), "user-ba7816bf");
        assert_eq!(normalize_scope("drive.file"), SCOPE_DRIVE_FILE);
        assert_eq!(normalize_scope(SCOPE_DRIVE), SCOPE_DRIVE);
        assert_eq!(normalize_scope("openid"), "openid");
    }
}
