//! The user as the rest of the system sees it.

use serde::Serialize;

/// A signed-in person. Accounts are created only through identity-provider sign-in (or
/// the local operator account in embedded mode).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct User {
    /// Our own id (UUID text), never the provider's subject.
    pub id: crate::ids::UserId,
    /// Issuer URL of the identity provider that vouched for this account.
    pub issuer: String,
    /// The provider's stable subject identifier.
    pub subject: String,
    /// E-mail as the provider reported it at the last sign-in.
    pub email: String,
    /// Display name as the provider reported it, if any.
    pub name: Option<String>,
    /// Picture URL as the provider reported it, if any.
    pub picture: Option<String>,
    /// 1 once the user finished onboarding, else 0 (integers keep one SQL text for both
    /// backends: sqlx's Any driver cannot read SQLite booleans).
    pub onboarded: i64,
    /// How many times the user has signed in.
    pub login_count: i64,
    /// Unix seconds.
    pub created_at: i64,
}

impl User {
    /// The spec's `needsOnboarding`: onboarding not finished yet.
    pub fn needs_onboarding(&self) -> bool {
        self.onboarded == 0
    }

    /// The spec's `isFirstLogin`: this is the first session of the account.
    pub fn is_first_login(&self) -> bool {
        self.login_count <= 1
    }
}

/// What an identity provider tells us about a person at sign-in.
#[derive(Debug, Clone)]
pub struct ProviderIdentity {
    /// Issuer URL.
    pub issuer: String,
    /// Subject at that issuer.
    pub subject: String,
    /// E-mail claim (may be empty when the provider withholds it).
    pub email: String,
    /// Name claim.
    pub name: Option<String>,
    /// Picture claim.
    pub picture: Option<String>,
    /// Whether the provider vouched for `email` (its `email_verified` claim; absent
    /// counts as not): accepting an invitation needs it.
    pub email_verified: bool,
}
