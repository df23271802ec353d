//! Leadgen's domain: configuration, the key vault, session tokens, the store and the
//! Google Places client. Knows no web framework and no job runtime: the API and the
//! workers build on it.

pub mod api_key;
pub mod config;
pub mod error;
pub mod keys;
pub mod places;
pub mod rotation;
pub mod secrets_file;
pub mod session;
pub mod store;
pub mod time;
pub mod user;
pub mod vault;

pub use error::{CoreError, CoreResult};
