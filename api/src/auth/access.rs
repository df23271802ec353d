//! What an operation needs of its caller, as types: `Auth<access::SearchesRun>` lets a
//! session or a token with the `searches:run` scope in. The requirement lives in the
//! operation's signature, so it cannot be forgotten, and is checked in one place
//! ([`super::Auth`]'s extractor).

use leadgen_core::personal_tokens::Scope;

/// What an operation needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// A signed-in session; personal tokens are refused.
    Session,
    /// A session, or a token with this scope.
    Scope(Scope),
    /// A session or any valid token (harmless reads: who am I, the catalogue).
    AnyCredential,
}

/// A requirement, as a type (see the module docs).
pub trait Access: Send + Sync + 'static {
    /// What it needs.
    const NEEDS: Needs;
}

macro_rules! access {
    ($($(#[$doc:meta])* $name:ident => $needs:expr;)+) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy)]
            pub struct $name;
            impl Access for $name {
                const NEEDS: Needs = $needs;
            }
        )+
    };
}

access! {
    /// A signed-in session only.
    Session => Needs::Session;
    /// Any valid credential.
    AnyCredential => Needs::AnyCredential;
    /// `searches:run`.
    SearchesRun => Needs::Scope(Scope::SearchesRun);
    /// `usage:read`.
    UsageRead => Needs::Scope(Scope::UsageRead);
    /// `exports:write`.
    ExportsWrite => Needs::Scope(Scope::ExportsWrite);
    /// `keys:write`.
    KeysWrite => Needs::Scope(Scope::KeysWrite);
    /// `webhooks:write`.
    WebhooksWrite => Needs::Scope(Scope::WebhooksWrite);
}
