//! Everything a request handler needs, built once at start.

use std::sync::Arc;

use anyhow::Context;
use leadgen_core::{
    config::Config, keys::KeyService, places::PlacesClient, secrets_file, session::SessionKeys, store::Store,
    vault::Vault,
};

use crate::auth::oidc::Oidc;

/// Shared application state; cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// The parts of [`AppState`].
pub struct Inner {
    /// Validated configuration.
    pub config: Config,
    /// Users, secrets, sessions.
    pub store: Store,
    /// Seals and opens secrets.
    pub vault: Arc<Vault>,
    /// Users' Places keys.
    pub keys: KeyService,
    /// Signs and verifies session tokens.
    pub sessions: SessionKeys,
    /// Google Places API (New).
    pub places: PlacesClient,
    /// OIDC sign-in; `None` in local mode.
    pub oidc: Option<Oidc>,
    /// Queue and event bus connection in distributed mode.
    pub redis: Option<redis::aio::ConnectionManager>,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    /// Connects and migrates the store, loads secrets, prepares clients.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        let secrets = secrets_file::resolve(&config).context("loading secrets")?;
        let store = Store::connect(&config.store_url())
            .await
            .with_context(|| format!("connecting to the store ({})", redact(&config.store_url())))?;
        store.migrate().await.context("applying migrations")?;
        let redis = match &config.redis_url {
            Some(url) => {
                let client = redis::Client::open(url.as_str()).context("REDIS_URL")?;
                Some(
                    redis::aio::ConnectionManager::new(client)
                        .await
                        .with_context(|| format!("connecting to Redis at {}", redact(url)))?,
                )
            }
            None => None,
        };
        let vault = Arc::new(secrets.vault);
        let oidc = match &config.oidc {
            Some(oidc) => Some(Oidc::new(oidc.clone(), &config.public_url)?),
            None => None,
        };
        Ok(Self(Arc::new(Inner {
            keys: KeyService::new(store.clone(), vault.clone()),
            sessions: SessionKeys::new(&secrets.jwt_secret, config.session_ttl),
            places: PlacesClient::new(&config.places_base_url)?,
            store,
            vault,
            oidc,
            redis,
            config,
        })))
    }
}

/// A connection URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}
