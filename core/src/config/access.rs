//! `[oidc]` and `[secrets]`: who may sign in, and the keys that seal secrets and sign
//! sessions.

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Deserializer};

use super::{
    de::{self, field_error},
    google::GOOGLE_ISSUER,
};

/// Sign-in through an external OpenID Connect provider.
#[derive(Debug, Clone)]
pub struct OidcConfig {
    /// `LEADGEN_OIDC_ISSUER`: issuer URL, discovered at `/.well-known/openid-configuration`.
    /// Default: Google (`https://accounts.google.com`). Kept as written: ID tokens' `iss`
    /// must match it exactly (no added slash).
    pub issuer: String,
    /// `LEADGEN_OIDC_CLIENT_ID`: the client id registered with the provider. Setting it is
    /// what turns OIDC sign-in on.
    pub client_id: String,
    /// `LEADGEN_OIDC_CLIENT_SECRET`: client secret, if the provider issued one.
    pub client_secret: Option<SecretString>,
}

/// `[oidc]` as written: OIDC is on when a client id is set.
#[derive(Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct OidcSection {
    #[serde(deserialize_with = "de::optional_text")]
    issuer: Option<String>,
    #[serde(deserialize_with = "de::optional_text")]
    client_id: Option<String>,
    #[serde(deserialize_with = "de::optional_secret")]
    client_secret: Option<SecretString>,
}

/// `[oidc]`: `None` (local single-operator sign-in) without a client id.
pub(super) fn oidc<'de, D: Deserializer<'de>>(d: D) -> Result<Option<OidcConfig>, D::Error> {
    let section = OidcSection::deserialize(d)?;
    let Some(client_id) = section.client_id else {
        return match section.issuer {
            Some(_) => Err(field_error("client_id", "is required when LEADGEN_OIDC_ISSUER is set")),
            None => Ok(None),
        };
    };
    let issuer = section.issuer.unwrap_or_else(|| GOOGLE_ISSUER.to_owned());
    de::parse_http_url(&issuer).map_err(|expected| field_error("issuer", format!("'{issuer}' must be {expected}")))?;
    Ok(Some(OidcConfig {
        issuer,
        client_id,
        client_secret: section.client_secret,
    }))
}

/// Master keys. Both are required with `DATABASE_URL`; embedded mode generates them into
/// the data directory when unset.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SecretsConfig {
    /// `LEADGEN_ENCRYPTION_KEY`: base64 of 32 random bytes, the master key for secrets at
    /// rest. Default none.
    #[serde(deserialize_with = "de::optional_secret")]
    pub encryption_key: Option<SecretString>,
    /// `LEADGEN_PREVIOUS_ENCRYPTION_KEYS`: comma-separated base64 keys still accepted for
    /// decryption during a key rotation. Default none.
    #[serde(deserialize_with = "previous_keys")]
    pub previous_encryption_keys: Vec<SecretString>,
    /// `LEADGEN_JWT_SECRET`: HMAC secret for session tokens, at least 32 characters.
    /// Default none.
    #[serde(deserialize_with = "jwt_secret")]
    pub jwt_secret: Option<SecretString>,
}

fn previous_keys<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<SecretString>, D::Error> {
    Ok(de::optional_secret(d)?
        .map(|keys| {
            keys.expose_secret()
                .split(',')
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .map(|k| SecretString::from(k.to_owned()))
                .collect()
        })
        .unwrap_or_default())
}

fn jwt_secret<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SecretString>, D::Error> {
    let secret = de::optional_secret(d)?;
    if secret.as_ref().is_some_and(|s| s.expose_secret().len() < 32) {
        return Err(serde::de::Error::custom("must be at least 32 characters"));
    }
    Ok(secret)
}
