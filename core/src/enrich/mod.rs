//! Contact enrichment: reads a business's own public website (its home page and a few
//! likely contact pages) through the [`GuardedClient`] and returns the emails and social
//! profiles it publishes. Results live only in flight: nothing here stores or logs them.
//!
//! Polite by construction: robots.txt honoured for every page of every origin a site
//! leads to (redirects are followed here, hop by hop, each address checked against its
//! own origin's rules before it is requested; rules kept a few minutes per origin), at most
//! a few requests at a time per host, a global limit on sites read at once, a time budget
//! per site, and the client's caps on bytes, time and redirects per page.

mod contact_pages;
pub mod emails;
pub mod page;
mod politeness;
pub mod robots;
pub mod socials;

use std::{sync::Arc, time::Duration};

use serde::{Deserialize, Serialize};
use tokio::{sync::Semaphore, time::Instant};
use url::Url;

use crate::outbound::{FetchLimits, Fetched, GuardedClient, Hop, OutboundError, OutboundPolicy};
pub use politeness::host_key;
use politeness::{HostGate, SingleFlight};
use robots::{RobotsCache, Rules};
pub use socials::Network;

/// What a website publishes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "ContactsItem", rename_all = "camelCase")
)]
pub struct Contacts {
    /// Addresses found, lower-case, junk dropped, in the order met (home page first).
    pub emails: Vec<String>,
    /// One profile per network: the first one met.
    pub socials: Socials,
    /// The contact (or imprint) page that was read, if the site has one.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub contact_page: Option<String>,
    /// How reading the site went: found something, found none, not read (and why), or
    /// no website to read. Every lead of an enriched search ends with one (#26).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", oai(default))]
    pub status: ReadStatus,
    /// Why the site was not read, when `status` is `not_read`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub reason: Option<NotRead>,
}

impl Contacts {
    /// True when nothing was found.
    pub fn is_empty(&self) -> bool {
        self.emails.is_empty() && self.socials == Socials::default() && self.contact_page.is_none()
    }

    /// What a site read to its end gave, with its status: `found` or `none`.
    pub fn read(mut self) -> Self {
        self.status = if self.is_empty() {
            ReadStatus::None
        } else {
            ReadStatus::Found
        };
        self.reason = None;
        self
    }

    /// A site that was not read, and why.
    pub fn not_read(reason: NotRead) -> Self {
        Self {
            status: ReadStatus::NotRead,
            reason: Some(reason),
            ..Self::default()
        }
    }

    /// A lead without a website.
    pub fn no_website() -> Self {
        Self {
            status: ReadStatus::NoWebsite,
            ..Self::default()
        }
    }
}

/// How reading a lead's website went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "ReadStatus", rename_all = "snake_case")
)]
pub enum ReadStatus {
    /// Read; it publishes an email, a social profile or a contact page.
    Found,
    /// Read; it publishes none of them.
    #[default]
    None,
    /// Not read: `reason` says why.
    NotRead,
    /// The lead has no website.
    NoWebsite,
}

/// Why a website was not read, in words a user can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "NotReadReason", rename_all = "snake_case")
)]
pub enum NotRead {
    /// It did not answer within its time budget.
    TimedOut,
    /// Its robots.txt does not let us read it.
    RobotsTxt,
    /// It (or a redirect) points at an address we never contact (private, loopback...).
    RefusedAddress,
    /// It is down, answered an error, or is not a web page.
    SiteDown,
    /// The website field is not a web address.
    NotAWebAddress,
    /// Its turn did not come before the search's enrichment ended.
    NotReachedInTime,
}

impl From<&SiteError> for NotRead {
    fn from(error: &SiteError) -> Self {
        match error {
            SiteError::InvalidAddress => Self::NotAWebAddress,
            SiteError::Refused { .. } => Self::RefusedAddress,
            SiteError::Disallowed => Self::RobotsTxt,
            SiteError::Unreachable(_) => Self::SiteDown,
            SiteError::TimedOut => Self::TimedOut,
        }
    }
}

/// Social profiles, canonical URLs (`https://www.facebook.com/{page}`, ...).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Object), oai(rename = "SocialsItem"))]
pub struct Socials {
    /// Facebook page.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub facebook: Option<String>,
    /// Instagram account.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub instagram: Option<String>,
    /// LinkedIn company or person.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub linkedin: Option<String>,
    /// X (Twitter) account.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub x: Option<String>,
    /// YouTube channel.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub youtube: Option<String>,
    /// TikTok account.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub tiktok: Option<String>,
}

impl Socials {
    fn slot(&mut self, network: Network) -> &mut Option<String> {
        match network {
            Network::Facebook => &mut self.facebook,
            Network::Instagram => &mut self.instagram,
            Network::Linkedin => &mut self.linkedin,
            Network::X => &mut self.x,
            Network::Youtube => &mut self.youtube,
            Network::Tiktok => &mut self.tiktok,
        }
    }

    /// Keeps `url` for `network` unless one is already known.
    pub fn offer(&mut self, network: Network, url: String) {
        self.slot(network).get_or_insert(url);
    }
}

/// How much one site may cost.
#[derive(Debug, Clone)]
pub struct CrawlLimits {
    /// Pages read per site, home page included. Default 4.
    pub max_pages: usize,
    /// Time for one site, from when it gets one of the global slots: robots.txt, the home
    /// page and contact pages together. Default 5 s.
    pub site_budget: Duration,
    /// Requests at a time to one host, across all sites and searches of this process.
    /// Default 4.
    pub per_host_concurrency: usize,
    /// Sites read at a time by this process. Default 64.
    pub global_concurrency: usize,
    /// Addresses kept per site. Default 10.
    pub max_emails: usize,
    /// How long a site's robots.txt is kept. Default 10 minutes.
    pub robots_ttl: Duration,
}

impl Default for CrawlLimits {
    fn default() -> Self {
        Self {
            max_pages: 4,
            site_budget: Duration::from_secs(5),
            per_host_concurrency: 4,
            global_concurrency: 64,
            max_emails: 10,
            robots_ttl: Duration::from_secs(600),
        }
    }
}

/// The per-page caps for reading websites: 2.5 s a page (1.5 s to connect), 1 MiB, 3
/// redirects. Business home pages are small; one that is slower or larger than this is
/// rarely worth the wait a search would make for it (enrichment must end within a few
/// seconds of the search's last lead).
pub fn website_fetch_limits() -> FetchLimits {
    FetchLimits {
        timeout: Duration::from_millis(2500),
        connect_timeout: Duration::from_millis(1500),
        max_body_bytes: 1024 * 1024,
        max_redirects: 3,
        ..FetchLimits::default()
    }
}

/// Why a site gave nothing. Plain words without the site's address (websites are lead
/// data; these messages may be logged).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SiteError {
    /// The website field is not an http(s) address.
    #[error("the website is not a web address")]
    InvalidAddress,
    /// The guarded client refused the site or one of its redirects.
    #[error("refused: {reason}")]
    Refused {
        /// Which kind of address, or which scheme.
        reason: String,
    },
    /// robots.txt does not let us read the home page (or could not be read: RFC 9309
    /// says to assume complete disallow then).
    #[error("the site's robots.txt does not allow reading it")]
    Disallowed,
    /// The home page could not be read.
    #[error("the site could not be read: {0}")]
    Unreachable(String),
    /// The site did not answer within its budget.
    #[error("the site did not answer in time")]
    TimedOut,
}

/// Reads websites; cheap to clone (clones share limits, robots.txt cache and slots).
#[derive(Clone, Debug)]
pub struct Crawler {
    client: GuardedClient,
    limits: Arc<CrawlLimits>,
    robots: Arc<RobotsCache>,
    robots_fetches: Arc<SingleFlight>,
    hosts: Arc<HostGate>,
    global: Arc<Semaphore>,
}

/// robots.txt rules kept at most for this many origins.
const ROBOTS_CACHE_CAPACITY: usize = 4096;

impl Crawler {
    /// A crawler fetching through `client` (build it with [`website_fetch_limits`]).
    pub fn new(client: GuardedClient, limits: CrawlLimits) -> Self {
        Self {
            robots: Arc::new(RobotsCache::new(limits.robots_ttl, ROBOTS_CACHE_CAPACITY)),
            robots_fetches: Arc::default(),
            hosts: Arc::new(HostGate::new(limits.per_host_concurrency)),
            global: Arc::new(Semaphore::new(limits.global_concurrency.max(1))),
            limits: Arc::new(limits),
            client,
        }
    }

    /// A crawler with the production limits: a guarded client with `policy` and
    /// [`website_fetch_limits`], and [`CrawlLimits::default`].
    pub fn for_websites(policy: OutboundPolicy) -> Self {
        Self::new(
            GuardedClient::new(policy, website_fetch_limits()),
            CrawlLimits::default(),
        )
    }

    /// Reads a business's website (home + a few likely contact pages) and returns what it
    /// found; a site that is down, refused or disallowed is an `Err` with the reason.
    /// Never panics. Waits for one of the global slots first (callers bound that wait
    /// with their own deadline), then never takes longer than
    /// [`CrawlLimits::site_budget`]. Pages read before the budget ran out still count.
    pub async fn read_site(&self, website: &str) -> Result<Contacts, SiteError> {
        let start = parse_website(website)?;
        let mut found = Contacts::default();
        // A "website" that is a social profile (common for small businesses) is the
        // profile: the network's pages are not the business's and forbid crawlers.
        if let Some((network, profile)) = socials::profile(&start) {
            found.socials.offer(network, profile);
            return Ok(found.read());
        }
        let _slot = self
            .global
            .acquire()
            .await
            .unwrap_or_else(|_| unreachable!("the global semaphore is never closed"));
        let deadline = Instant::now() + self.limits.site_budget;
        let home = self.read_home(&start, deadline).await?;
        let mut visit = Visit::new(&self.limits, found);
        visit.take(home.findings.clone());
        // The usual contact and about paths are tried even when the home page shows an
        // address: staff addresses (jane.doe@) live there (#26).
        let candidates = contact_pages::candidates(&home.findings.links, &home.url, true);
        for candidate in candidates.into_iter().take(self.limits.max_pages.saturating_sub(1)) {
            match self.read_page(&candidate.url, deadline).await {
                Ok(Some(page)) => {
                    visit.take(page.findings);
                    if candidate.is_contact_page() && visit.contacts.contact_page.is_none() {
                        visit.contacts.contact_page = Some(page.url.to_string());
                    }
                }
                // Out of time: keep what the pages read so far gave.
                Err(_) if Instant::now() >= deadline => break,
                // A missing, slow or broken contact page is not the site's failure.
                Ok(None) | Err(_) => {}
            }
        }
        Ok(visit.contacts.read())
    }

    /// The home page, which robots.txt must allow and which must be readable HTML.
    async fn read_home(&self, start: &Url, deadline: Instant) -> Result<Page, SiteError> {
        let fetched = self
            .fetch_allowed(start, deadline)
            .await?
            .ok_or(SiteError::Disallowed)?;
        if !(200..300).contains(&fetched.status) {
            return Err(SiteError::Unreachable(format!(
                "the home page answered HTTP {}",
                fetched.status
            )));
        }
        Page::of(fetched).ok_or_else(|| SiteError::Unreachable("the home page is not HTML".into()))
    }

    /// A further page, if robots.txt allows it and it is readable HTML.
    async fn read_page(&self, url: &Url, deadline: Instant) -> Result<Option<Page>, SiteError> {
        let Some(fetched) = self.fetch_allowed(url, deadline).await? else {
            return Ok(None);
        };
        Ok(Some(fetched)
            .filter(|f| (200..300).contains(&f.status))
            .and_then(Page::of))
    }

    /// GETs `url`, following its redirects here, hop by hop: each address is requested
    /// only if its own origin's robots.txt allows it (a home page that moved to another
    /// origin is read under that origin's rules). `None` when one does not.
    async fn fetch_allowed(&self, url: &Url, deadline: Instant) -> Result<Option<Fetched>, SiteError> {
        let max_redirects = self.client.limits().max_redirects;
        let mut url = url.clone();
        for _ in 0..=max_redirects {
            if !self.rules_for(&url, deadline).await?.allows(&url) {
                return Ok(None);
            }
            match self.hop(&url, deadline).await.map_err(site_error)? {
                Hop::Page(fetched) => return Ok(Some(fetched)),
                Hop::Redirect(next) => url = next,
            }
        }
        Err(site_error(OutboundError::Http(format!(
            "more than {max_redirects} redirects"
        ))))
    }

    async fn rules_for(&self, url: &Url, deadline: Instant) -> Result<Rules, SiteError> {
        if let Some(rules) = self.robots.get(url) {
            return Ok(rules);
        }
        // Sites of one origin starting together: one fetches, the others read the cache.
        let origin = url.origin().ascii_serialization();
        let _turn = tokio::time::timeout_at(deadline, self.robots_fetches.enter(&origin))
            .await
            .map_err(|_| SiteError::TimedOut)?;
        if let Some(rules) = self.robots.get(url) {
            return Ok(rules);
        }
        let fetched = self.fetch(&robots::robots_url(url), deadline).await;
        // A site that does not answer at all is down (or slow), whatever its rules.
        if let Err(e @ (OutboundError::Connect(_) | OutboundError::Tls(_) | OutboundError::TimedOut)) = fetched {
            return Err(site_error(e));
        }
        // Only an answer is kept: a network failure may pass, and must not shut the
        // site out for the cache's lifetime.
        let answered = fetched.is_ok();
        let rules = Rules::from_fetch(fetched).map_err(site_error)?;
        if answered {
            self.robots.put(url, rules.clone());
        }
        Ok(rules)
    }

    /// One request of a page, redirects not followed, in the host's turn, within the
    /// site's deadline.
    async fn hop(&self, url: &Url, deadline: Instant) -> Result<Hop, OutboundError> {
        let fetch = async {
            let _turn = self.hosts.enter(url).await;
            self.client.get_hop(url).await
        };
        tokio::time::timeout_at(deadline, fetch)
            .await
            .unwrap_or(Err(OutboundError::TimedOut))
    }

    /// One GET, redirects followed (robots.txt itself: RFC 9309 follows its redirects),
    /// in the host's turn, within the site's deadline.
    async fn fetch(&self, url: &Url, deadline: Instant) -> Result<Fetched, OutboundError> {
        let fetch = async {
            let _turn = self.hosts.enter(url).await;
            self.client.get(url).await
        };
        tokio::time::timeout_at(deadline, fetch)
            .await
            .unwrap_or(Err(OutboundError::TimedOut))
    }
}

/// What one visit has gathered so far.
struct Visit<'a> {
    limits: &'a CrawlLimits,
    contacts: Contacts,
}

impl<'a> Visit<'a> {
    fn new(limits: &'a CrawlLimits, contacts: Contacts) -> Self {
        Self { limits, contacts }
    }

    fn take(&mut self, findings: page::Findings) {
        for email in findings.emails {
            if self.contacts.emails.len() < self.limits.max_emails && !self.contacts.emails.contains(&email) {
                self.contacts.emails.push(email);
            }
        }
        for (network, url) in findings.socials {
            self.contacts.socials.offer(network, url);
        }
    }
}

/// A page read as HTML.
struct Page {
    url: Url,
    findings: page::Findings,
}

impl Page {
    /// The page's findings, or `None` when it is not HTML (a PDF, an image, JSON).
    fn of(fetched: Fetched) -> Option<Self> {
        let html = fetched.content_type.as_deref().is_none_or(|t| {
            let t = t.to_ascii_lowercase();
            t.starts_with("text/html") || t.starts_with("application/xhtml")
        });
        if !html {
            return None;
        }
        let text = String::from_utf8_lossy(&fetched.body);
        let findings = page::read(&text, &fetched.final_url);
        Some(Self {
            url: fetched.final_url,
            findings,
        })
    }
}

fn site_error(error: OutboundError) -> SiteError {
    match error {
        OutboundError::Refused { reason } => SiteError::Refused { reason },
        OutboundError::TimedOut => SiteError::TimedOut,
        other => SiteError::Unreachable(other.to_string()),
    }
}

/// The website field as a URL: Places gives absolute URLs, but a scheme-less
/// `www.biz.com` is read as `http://`.
fn parse_website(website: &str) -> Result<Url, SiteError> {
    let website = website.trim();
    if website.is_empty() {
        return Err(SiteError::InvalidAddress);
    }
    let url = match Url::parse(website) {
        Ok(url) => url,
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            Url::parse(&format!("http://{website}")).map_err(|_| SiteError::InvalidAddress)?
        }
        Err(_) => return Err(SiteError::InvalidAddress),
    };
    if url.host_str().is_none_or(str::is_empty) {
        return Err(SiteError::InvalidAddress);
    }
    if !matches!(url.scheme(), "http" | "https") {
        return Err(SiteError::Refused {
            reason: "only http and https addresses are fetched".into(),
        });
    }
    Ok(url)
}

#[cfg(test)]
mod tests;
