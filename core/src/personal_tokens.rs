//! Personal API tokens (issue #15): long-lived, scoped, revocable credentials for
//! integrators, a second way to authenticate the same bearer scheme as a session.
//!
//! A token is `lgp_` and 48 hex characters (24 random bytes). The prefix lets secret
//! scanners recognise a leaked one; the randomness (192 bits) makes a fast hash enough at
//! rest: only SHA-256 of the whole token is stored (a slow password hash protects guessable
//! secrets, and nobody guesses 192 random bits). The token itself is shown once.

use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::CoreError;

/// What every personal token starts with.
pub const TOKEN_PREFIX: &str = "lgp_";
/// Characters of a token shown in lists (`lgp_` and the first 8 hex digits).
pub const SHOWN_PREFIX_LEN: usize = 12;
/// A user's tokens, at most.
pub const MAX_TOKENS_PER_USER: i64 = 50;
/// A token's name, at most (characters).
pub const MAX_NAME_LEN: usize = 80;
/// A token's lifetime, at most (days).
pub const MAX_EXPIRY_DAYS: u32 = 3650;

/// What a token may do. Sessions may do everything; a token only what its scopes allow.
/// Managing tokens themselves, billing and sign-out always need a session, so a leaked
/// token cannot mint more tokens or change the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Enum), oai(rename = "TokenScope"))]
pub enum Scope {
    /// Estimate, run, follow, list and cancel searches.
    #[serde(rename = "searches:run")]
    #[cfg_attr(feature = "openapi", oai(rename = "searches:run"))]
    SearchesRun,
    /// Read usage, plan and subscription status.
    #[serde(rename = "usage:read")]
    #[cfg_attr(feature = "openapi", oai(rename = "usage:read"))]
    UsageRead,
    /// Export leads to Google Sheets.
    #[serde(rename = "exports:write")]
    #[cfg_attr(feature = "openapi", oai(rename = "exports:write"))]
    ExportsWrite,
    /// Save, delete or test the Places API key.
    #[serde(rename = "keys:write")]
    #[cfg_attr(feature = "openapi", oai(rename = "keys:write"))]
    KeysWrite,
    /// Create, list, test and delete webhook endpoints.
    #[serde(rename = "webhooks:write")]
    #[cfg_attr(feature = "openapi", oai(rename = "webhooks:write"))]
    WebhooksWrite,
}

impl Scope {
    /// Every scope, in the order the UI lists them.
    pub const ALL: [Scope; 5] = [
        Scope::SearchesRun,
        Scope::UsageRead,
        Scope::ExportsWrite,
        Scope::KeysWrite,
        Scope::WebhooksWrite,
    ];

    /// The wire name (`searches:run`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SearchesRun => "searches:run",
            Self::UsageRead => "usage:read",
            Self::ExportsWrite => "exports:write",
            Self::KeysWrite => "keys:write",
            Self::WebhooksWrite => "webhooks:write",
        }
    }

    /// Parses a wire name.
    pub fn parse(name: &str) -> Result<Self, CoreError> {
        Self::ALL.into_iter().find(|s| s.as_str() == name).ok_or_else(|| {
            CoreError::Invalid(format!(
                "Unknown scope '{name}'. Scopes are: {}.",
                Self::ALL.map(Self::as_str).join(", ")
            ))
        })
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A set of scopes, stored as their names separated by spaces.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// Parses and de-duplicates scope names; at least one is needed.
    pub fn parse<S: AsRef<str>>(names: &[S]) -> Result<Self, CoreError> {
        let mut scopes = names
            .iter()
            .map(|n| Scope::parse(n.as_ref().trim()))
            .collect::<Result<Vec<_>, _>>()?;
        scopes.sort();
        scopes.dedup();
        if scopes.is_empty() {
            return Err(CoreError::Invalid("Choose at least one scope for the token.".into()));
        }
        Ok(Self(scopes))
    }

    /// Reads the stored form; unknown names (from a newer release) are skipped.
    pub fn from_stored(text: &str) -> Self {
        Self(text.split_whitespace().filter_map(|n| Scope::parse(n).ok()).collect())
    }

    /// The stored form.
    pub fn to_stored(&self) -> String {
        self.0.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
    }

    /// Whether `scope` is granted.
    pub fn contains(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    /// The scopes, sorted.
    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }
}

/// A freshly generated token: the secret (shown once) and what is stored of it.
#[derive(Debug)]
pub struct NewToken {
    /// The whole token, for the one answer that shows it.
    pub secret: String,
    /// SHA-256 of it, hex: the only form kept.
    pub hash: String,
    /// Its first characters, to recognise it in a list.
    pub prefix: String,
}

/// Generates a token.
pub fn generate() -> NewToken {
    let mut bytes = [0u8; 24];
    rand::rng().fill_bytes(&mut bytes);
    let secret = format!("{TOKEN_PREFIX}{}", hex::encode(bytes));
    NewToken {
        hash: hash(&secret),
        prefix: secret[..SHOWN_PREFIX_LEN].to_owned(),
        secret,
    }
}

/// Whether a bearer value is a personal token (rather than a session JWT).
pub fn is_personal_token(bearer: &str) -> bool {
    bearer.starts_with(TOKEN_PREFIX)
}

/// The stored hash of a token.
pub fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// A checked token name.
pub fn check_name(name: &str) -> Result<String, CoreError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(CoreError::Invalid("Give the token a name.".into()));
    }
    if name.chars().count() > MAX_NAME_LEN {
        return Err(CoreError::Invalid(format!(
            "A token's name is at most {MAX_NAME_LEN} characters."
        )));
    }
    Ok(name.to_owned())
}

/// A checked expiry: `None` never expires; days from 1 to [`MAX_EXPIRY_DAYS`].
pub fn check_expiry_days(days: Option<u32>) -> Result<Option<u32>, CoreError> {
    match days {
        Some(d) if d == 0 || d > MAX_EXPIRY_DAYS => Err(CoreError::Invalid(format!(
            "A token expires after 1 to {MAX_EXPIRY_DAYS} days, or never."
        ))),
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_recognisable_random_and_stored_as_its_hash_only() {
        let a = generate();
        let b = generate();
        assert!(a.secret.starts_with("lgp_") && a.secret.len() == 52);
        assert!(a.secret[4..].chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a.secret, b.secret);
        assert_eq!(a.hash, hash(&a.secret));
        assert_eq!(a.hash.len(), 64);
        assert!(!a.hash.contains(&a.secret[4..]));
        assert_eq!(a.prefix, &a.secret[..12]);
        assert!(is_personal_token(&a.secret) && !is_personal_token("eyJhbGciOi.x.y"));
    }

    #[test]
    fn scopes_parse_once_and_refuse_unknown_names() {
        let scopes = Scopes::parse(&["usage:read", "searches:run", "usage:read"]).expect("valid");
        assert_eq!(scopes.to_stored(), "searches:run usage:read");
        assert_eq!(Scopes::from_stored(&scopes.to_stored()), scopes);
        assert!(scopes.contains(Scope::SearchesRun) && !scopes.contains(Scope::KeysWrite));
        let err = Scopes::parse(&["searches:all"]).expect_err("unknown");
        assert!(err.to_string().contains("Unknown scope 'searches:all'"));
        assert!(Scopes::parse::<&str>(&[]).is_err());
    }

    #[test]
    fn names_and_expiries_are_checked() {
        assert_eq!(check_name("  CI  ").expect("ok"), "CI");
        assert!(check_name(" ").is_err());
        assert!(check_name(&"x".repeat(81)).is_err());
        assert_eq!(check_expiry_days(None).expect("never"), None);
        assert_eq!(check_expiry_days(Some(30)).expect("ok"), Some(30));
        assert!(check_expiry_days(Some(0)).is_err());
        assert!(check_expiry_days(Some(3651)).is_err());
    }
}
