//! Settings of the fake and the builder that starts it with them.

use std::{net::SocketAddr, time::Duration};

use super::server::GoogleSim;

/// Lifetime of an access token when none is given: Google's `expires_in` of 3599 s.
pub const DEFAULT_ACCESS_TOKEN_LIFETIME: Duration = Duration::from_secs(3599);

/// Largest request body accepted. Google recommends at most 2 MB per Sheets request but
/// its front end only refuses bodies over 10 MB, with the message this fake copies.
pub const MAX_BODY_BYTES: usize = 10 * 1024 * 1024;

/// The OAuth client (from the Google Cloud console) the token endpoint accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthClient {
    /// `client_id`, e.g. `1234-abc.apps.googleusercontent.com`.
    pub id: String,
    /// `client_secret`.
    pub secret: String,
}

/// How the fake behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct GoogleSimConfig {
    /// The only client the token endpoint accepts. `None` (the default) accepts any
    /// client id with any secret, so tests need not agree on credentials.
    pub client: Option<OAuthClient>,
    /// How long minted access tokens work. Default [`DEFAULT_ACCESS_TOKEN_LIFETIME`].
    pub access_token_lifetime: Duration,
    /// Sheets write requests (create, batchUpdate, append) allowed per identity in any
    /// 60 s; 0 (the default) means no limit.
    pub write_quota_per_minute: u32,
    /// Whether an unknown refresh token becomes a new grant (identity `user-` plus the
    /// first 8 hex digits of its SHA-256; scopes `spreadsheets` and `drive.file`) instead
    /// of `invalid_grant`. For browser tests whose refresh tokens come from another
    /// provider. Default false.
    pub accept_unknown_refresh_tokens: bool,
}

impl Default for GoogleSimConfig {
    fn default() -> Self {
        Self {
            client: None,
            access_token_lifetime: DEFAULT_ACCESS_TOKEN_LIFETIME,
            write_quota_per_minute: 0,
            accept_unknown_refresh_tokens: false,
        }
    }
}

/// Builds a fake: `GoogleSim::builder().client("id", "secret").write_quota_per_minute(60).start(addr).await`.
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct GoogleSimBuilder {
    config: GoogleSimConfig,
}

impl GoogleSimBuilder {
    /// Accept only this OAuth client at the token endpoint.
    pub fn client(mut self, id: &str, secret: &str) -> Self {
        self.config.client = Some(OAuthClient {
            id: id.to_owned(),
            secret: secret.to_owned(),
        });
        self
    }

    /// How long minted access tokens work.
    pub fn access_token_lifetime(mut self, lifetime: Duration) -> Self {
        self.config.access_token_lifetime = lifetime;
        self
    }

    /// Sheets write requests per identity per minute; 0 disables the quota.
    pub fn write_quota_per_minute(mut self, limit: u32) -> Self {
        self.config.write_quota_per_minute = limit;
        self
    }

    /// Whether unknown refresh tokens become new grants (see [`GoogleSimConfig`]).
    pub fn accept_unknown_refresh_tokens(mut self, accept: bool) -> Self {
        self.config.accept_unknown_refresh_tokens = accept;
        self
    }

    /// All settings at once.
    pub fn config(mut self, config: GoogleSimConfig) -> Self {
        self.config = config;
        self
    }

    /// Starts the fake on `addr` (port 0 picks a free one).
    pub async fn start(self, addr: SocketAddr) -> std::io::Result<GoogleSim> {
        GoogleSim::start_with(addr, self.config).await
    }
}
