//! TEMPORARY STUB of the crawler (owned by the enrich-lib branch, which replaces this file
//! when merged). Only the signatures the pipeline uses are here.

use serde::{Deserialize, Serialize};

use crate::outbound::GuardedClient;

/// What a business's website publishes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contacts {
    /// Email addresses.
    pub emails: Vec<String>,
    /// Social profiles.
    pub socials: Socials,
    /// The contact page read, if any.
    pub contact_page: Option<String>,
}

/// Social profile URLs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Socials {
    /// Facebook.
    pub facebook: Option<String>,
    /// Instagram.
    pub instagram: Option<String>,
    /// LinkedIn.
    pub linkedin: Option<String>,
    /// X.
    pub x: Option<String>,
    /// YouTube.
    pub youtube: Option<String>,
    /// TikTok.
    pub tiktok: Option<String>,
}

/// Crawl limits.
#[derive(Debug, Clone, Default)]
pub struct CrawlLimits {
    _private: (),
}

/// Why a site could not be read.
#[derive(Debug, thiserror::Error)]
#[error("site unreadable")]
pub struct SiteError;

/// Reads business websites.
#[derive(Debug, Clone)]
pub struct Crawler {
    _client: GuardedClient,
}

impl Crawler {
    /// A crawler over `client`.
    pub fn new(client: GuardedClient, _limits: CrawlLimits) -> Self {
        Self { _client: client }
    }

    /// Reads a site (stub: finds nothing).
    pub async fn read_site(&self, _website: &str) -> Result<Contacts, SiteError> {
        Ok(Contacts::default())
    }
}
