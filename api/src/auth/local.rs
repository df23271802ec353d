//! Local sign-in for embedded mode without an identity provider: one operator account.
//! Allowed only when listening on loopback (enforced by configuration at start).

use leadgen_core::user::ProviderIdentity;

/// Issuer recorded for the local operator account.
pub const LOCAL_ISSUER: &str = "local";

/// The one local account.
pub fn operator_identity() -> ProviderIdentity {
    ProviderIdentity {
        issuer: LOCAL_ISSUER.to_owned(),
        subject: "operator".to_owned(),
        email: "operator@localhost".to_owned(),
        name: Some("Local Operator".to_owned()),
        picture: None,
    }
}
