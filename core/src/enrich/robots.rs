//! robots.txt, read with `texting_robots` (RFC 9309 rules, fuzzed) and kept a few minutes
//! per site origin so the pages of one site, and sites sharing a host, fetch it once.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use texting_robots::Robot;
use url::Url;

use crate::outbound::{Fetched, OutboundError, USER_AGENT_TOKEN};

/// What a site's robots.txt lets us read.
#[derive(Debug, Clone)]
pub enum Rules {
    /// No robots.txt (4xx), or one without a rule for us.
    AllowAll,
    /// robots.txt could not be read (5xx, network trouble): RFC 9309 section 2.3.1.3
    /// says to assume complete disallow.
    DisallowAll,
    /// The parsed rules for our user agent.
    Parsed(Arc<Robot>),
}

impl Rules {
    /// The rules a fetch of `/robots.txt` gives. A refused address is passed on: the site
    /// itself is refused then.
    pub fn from_fetch(fetched: Result<Fetched, OutboundError>) -> Result<Self, OutboundError> {
        match fetched {
            Ok(f) if (200..300).contains(&f.status) => Ok(Self::parse(&f.body)),
            // "Unavailable" (4xx, RFC 9309 2.3.1.3): crawl as if there were no file.
            Ok(f) if (400..500).contains(&f.status) => Ok(Self::AllowAll),
            Ok(_) => Ok(Self::DisallowAll),
            Err(refused @ OutboundError::Refused { .. }) => Err(refused),
            // Too large, timed out, unreachable: "unreachable" in the RFC's words.
            Err(_) => Ok(Self::DisallowAll),
        }
    }

    /// Rules from a robots.txt body.
    pub fn parse(body: &[u8]) -> Self {
        // A parser bug must not take a worker down: a panic reads as "could not parse",
        // and an unparseable file as no file (what crawlers do with garbage).
        match std::panic::catch_unwind(|| Robot::new(USER_AGENT_TOKEN, body)) {
            Ok(Ok(robot)) => Self::Parsed(Arc::new(robot)),
            Ok(Err(_)) | Err(_) => Self::AllowAll,
        }
    }

    /// Whether `url` may be fetched.
    pub fn allows(&self, url: &Url) -> bool {
        match self {
            Self::AllowAll => true,
            Self::DisallowAll => false,
            Self::Parsed(robot) => {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| robot.allowed(url.as_str()))).unwrap_or(false)
            }
        }
    }
}

/// The URL of the robots.txt that governs `url`.
pub fn robots_url(url: &Url) -> Url {
    let mut robots = url.clone();
    robots.set_path("/robots.txt");
    robots.set_query(None);
    robots.set_fragment(None);
    robots
}

/// Recently read robots.txt rules by origin (`scheme://host:port`). Bounded: past
/// `capacity` entries, expired ones go, then the oldest.
#[derive(Debug)]
pub struct RobotsCache {
    entries: Mutex<HashMap<String, (Instant, Rules)>>,
    ttl: Duration,
    capacity: usize,
}

impl RobotsCache {
    /// A cache keeping rules for `ttl`, at most `capacity` origins.
    pub fn new(ttl: Duration, capacity: usize) -> Self {
        Self {
            entries: Mutex::default(),
            ttl,
            capacity: capacity.max(1),
        }
    }

    /// The rules kept for `url`'s origin, if still fresh.
    pub fn get(&self, url: &Url) -> Option<Rules> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .get(&origin(url))
            .filter(|(at, _)| at.elapsed() < self.ttl)
            .map(|(_, rules)| rules.clone())
    }

    /// Keeps `rules` for `url`'s origin.
    pub fn put(&self, url: &Url, rules: Rules) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= self.capacity {
            let ttl = self.ttl;
            entries.retain(|_, (at, _)| at.elapsed() < ttl);
            if entries.len() >= self.capacity
                && let Some(oldest) = entries.iter().min_by_key(|(_, (at, _))| *at).map(|(k, _)| k.clone())
            {
                entries.remove(&oldest);
            }
        }
        entries.insert(origin(url), (Instant::now(), rules));
    }
}

fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

#[cfg(test)]
mod tests {
    use bytes::Bytes;

    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("url")
    }

    fn fetched(status: u16, body: &'static str) -> Result<Fetched, OutboundError> {
        Ok(Fetched {
            final_url: url("https://biz.test/robots.txt"),
            status,
            content_type: Some("text/plain".into()),
            body: Bytes::from_static(body.as_bytes()),
        })
    }

    #[test]
    fn honours_rules_for_us_and_for_everyone() {
        let rules = Rules::parse(b"User-agent: *\nDisallow: /private/\n\nUser-agent: LeadgenBot\nDisallow: /sites/secret/\nAllow: /sites/secret/open\n");
        assert!(!rules.allows(&url("https://biz.test/sites/secret/")));
        assert!(!rules.allows(&url("https://biz.test/sites/secret/contact")));
        assert!(
            rules.allows(&url("https://biz.test/sites/secret/open")),
            "the longer allow wins"
        );
        assert!(
            rules.allows(&url("https://biz.test/private/")),
            "our own group replaces the * group"
        );
        assert!(rules.allows(&url("https://biz.test/")));

        let everyone = Rules::parse(b"User-agent: *\nDisallow: /\n");
        assert!(!everyone.allows(&url("https://biz.test/contact")));
        let nobody = Rules::parse(b"User-agent: OtherBot\nDisallow: /\n");
        assert!(nobody.allows(&url("https://biz.test/contact")));
    }

    #[test]
    fn follows_rfc_9309_when_the_file_is_missing_or_unreachable() {
        let page = url("https://biz.test/");
        assert!(Rules::from_fetch(fetched(404, "")).expect("rules").allows(&page));
        assert!(Rules::from_fetch(fetched(403, "")).expect("rules").allows(&page));
        assert!(!Rules::from_fetch(fetched(503, "")).expect("rules").allows(&page));
        assert!(
            !Rules::from_fetch(Err(OutboundError::TimedOut))
                .expect("rules")
                .allows(&page)
        );
        assert!(
            !Rules::from_fetch(Err(OutboundError::TooLarge))
                .expect("rules")
                .allows(&page)
        );
        let refused = Rules::from_fetch(Err(OutboundError::Refused { reason: "x".into() }));
        assert!(refused.is_err(), "a refused site stays refused");
        assert!(
            Rules::parse(b"\xff\xfe garbage \x00").allows(&page),
            "garbage is no rule"
        );
    }

    #[test]
    fn the_cache_keeps_rules_per_origin_for_a_while() {
        let cache = RobotsCache::new(Duration::from_secs(60), 2);
        cache.put(&url("https://a.test/x"), Rules::DisallowAll);
        assert!(matches!(
            cache.get(&url("https://a.test/other")),
            Some(Rules::DisallowAll)
        ));
        assert!(
            cache.get(&url("http://a.test/")).is_none(),
            "another scheme is another origin"
        );
        cache.put(&url("https://b.test/"), Rules::AllowAll);
        cache.put(&url("https://c.test/"), Rules::AllowAll);
        assert!(cache.get(&url("https://a.test/")).is_none(), "the oldest went");
        let expired = RobotsCache::new(Duration::ZERO, 4);
        expired.put(&url("https://a.test/"), Rules::AllowAll);
        assert!(expired.get(&url("https://a.test/")).is_none());
        assert_eq!(
            robots_url(&url("https://a.test/sites/x/?q=1#f")).as_str(),
            "https://a.test/robots.txt"
        );
    }
}
