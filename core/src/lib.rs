//! Leadgen's domain: configuration, the key vault, session tokens, the store and the
//! Google Places client. Knows no web framework and no job runtime: the API and the
//! workers build on it.

pub mod api_key;
pub mod audit;
pub mod billing;
pub mod bus;
pub mod catalogue;
pub mod config;
pub mod delivery;
pub mod enrich;
pub mod error;
pub mod ids;
pub mod invitations;
pub mod jobs;
pub mod keys;
pub mod lead;
pub mod master_key;
pub mod money;
pub mod outbound;
pub mod personal_tokens;
pub mod place_types;
pub mod places;
pub mod rotation;
pub mod saved_search;
pub mod search;
pub mod secrets_file;
pub mod session;
pub mod sheets;
pub mod spend;
pub mod store;
pub mod telemetry;
pub mod time;
pub mod usage;
pub mod user;
pub mod vault;
pub mod webhooks;
pub mod words;
pub mod workspace;

pub use error::{CoreError, CoreResult};

/// Installs rustls' ring crypto provider for the process (reqwest and sqlx use rustls
/// without a built-in provider). Call first in every `main` and test; repeat calls are
/// harmless.
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}
