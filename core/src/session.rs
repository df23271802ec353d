//! Session tokens: our own JWTs, HS256 only (the algorithm is pinned, so `alg: none` and
//! algorithm-confusion tokens fail), short-lived, each with a `jti` recorded in the store
//! so that logout and refresh can revoke it.

use crate::ids::UserId;
use std::time::Duration;

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use secrecy::{ExposeSecret, SecretBox};
use serde::{Deserialize, Serialize};

use crate::{CoreError, CoreResult, time::now_unix};

/// The `iss` of every session token we issue.
pub const ISSUER: &str = "leadgen";

/// What a session token says.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Claims {
    /// Our user id.
    pub sub: String,
    /// Session id, recorded in the store.
    pub jti: String,
    /// Issued at (Unix seconds).
    pub iat: i64,
    /// Expires at (Unix seconds).
    pub exp: i64,
    /// Always [`ISSUER`].
    pub iss: String,
}

/// Signs and verifies session tokens.
pub struct SessionKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    ttl: Duration,
}

impl SessionKeys {
    /// Keys from the HMAC secret; tokens live for `ttl`.
    pub fn new(secret: &SecretBox<Vec<u8>>, ttl: Duration) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_issuer(&[ISSUER]);
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        validation.leeway = 5;
        Self {
            encoding: EncodingKey::from_secret(secret.expose_secret()),
            decoding: DecodingKey::from_secret(secret.expose_secret()),
            validation,
            ttl,
        }
    }

    /// A new token for `user_id`, with a fresh `jti`.
    pub fn issue(&self, user_id: &UserId) -> CoreResult<(String, Claims)> {
        let iat = now_unix();
        let claims = Claims {
            sub: user_id.to_string(),
            jti: uuid::Uuid::new_v4().to_string(),
            iat,
            exp: iat + i64::try_from(self.ttl.as_secs()).unwrap_or(3600),
            iss: ISSUER.to_owned(),
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(|e| CoreError::Internal(format!("could not sign session token: {e}")))?;
        Ok((token, claims))
    }

    /// Checks signature, algorithm, issuer and expiry. Revocation is the store's job.
    pub fn verify(&self, token: &str) -> CoreResult<Claims> {
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|e| CoreError::Unauthorized(format!("invalid session token: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD as B64};

    use super::*;

    fn keys(secret: &[u8]) -> SessionKeys {
        SessionKeys::new(&SecretBox::new(Box::new(secret.to_vec())), Duration::from_secs(600))
    }

    #[test]
    fn issues_three_part_tokens_that_verify() {
        let k = keys(&[7; 32]);
        let (token, claims) = k.issue(&"user-1".into()).expect("issue");
        assert_eq!(token.split('.').count(), 3);
        assert_eq!(k.verify(&token).expect("verify"), claims);
        assert_eq!(claims.exp - claims.iat, 600);
    }

    #[test]
    fn rejects_other_secret_tampering_none_and_expiry() {
        let k = keys(&[7; 32]);
        let (token, claims) = k.issue(&"user-1".into()).expect("issue");
        assert!(keys(&[8; 32]).verify(&token).is_err(), "other secret");

        let parts: Vec<&str> = token.split('.').collect();
        let mut forged = claims.clone();
        forged.sub = "user-2".into();
        let forged_payload = B64.encode(serde_json::to_vec(&forged).expect("json"));
        assert!(
            k.verify(&format!("{}.{}.{}", parts[0], forged_payload, parts[2]))
                .is_err(),
            "tampered"
        );

        let none_header = B64.encode(br#"{"alg":"none","typ":"JWT"}"#);
        assert!(k.verify(&format!("{none_header}.{}.", parts[1])).is_err(), "alg none");

        let mut old = claims;
        old.iat -= 7200;
        old.exp = now_unix() - 60;
        let expired = jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            &old,
            &EncodingKey::from_secret(&[7; 32]),
        )
        .expect("encode");
        assert!(k.verify(&expired).is_err(), "expired");
    }
}
