//! The fake web's sites: each one drawn from its slug alone (a stable hash), so the
//! places simulator and the fake web agree on every business's site without sharing
//! state, and any slug is a site.

use serde::Serialize;

/// What a site is like, drawn from its slug. Shares are per 100 sites.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A `mailto:` link on the home page, beside junk (asset names, a Sentry key). 20.
    Mailto,
    /// The address in the home page's text and in its JSON-LD. 12.
    Text,
    /// The address only in the home page's JSON-LD block. 5.
    JsonLd,
    /// A linked contact page with "name [at] domain [dot] com". 8.
    Obfuscated,
    /// Cloudflare email protection on the home page (`data-cfemail` and the link). 7.
    Cloudflare,
    /// A linked imprint page with the address as HTML entities. 5.
    Entities,
    /// No links and no address on the home page; a `contact-us` page at its usual path. 5.
    UnlinkedContact,
    /// One address on the home page and another on the linked contact page. 5.
    TwoPages,
    /// No address anywhere (phone and socials only). 10.
    NoEmail,
    /// The home page answers after the slow delay (default 1.2 s), within a crawler's
    /// page time-out. 4.
    Slow,
    /// The home page answers after the stall delay (default 20 s): past any time-out. 3.
    Stalled,
    /// A 3 MiB home page with its address at the end: past any sane size cap. 3.
    Huge,
    /// Every page answers 503. 3.
    Down,
    /// Under `/members/`, which robots.txt closes to `LeadgenBot`. 3.
    Disallowed,
    /// The home page redirects to a private, metadata or loopback address. 3.
    RedirectPrivate,
    /// Template junk (`you@example.com`, `logo@2x.png`, tracking keys) around one real
    /// address in the text. 4.
    JunkAround,
}

/// `(kind, share per 100)`, in the order the hash walks them.
const SHARES: &[(Kind, u64)] = &[
    (Kind::Mailto, 20),
    (Kind::Text, 12),
    (Kind::JsonLd, 5),
    (Kind::Obfuscated, 8),
    (Kind::Cloudflare, 7),
    (Kind::Entities, 5),
    (Kind::UnlinkedContact, 5),
    (Kind::TwoPages, 5),
    (Kind::NoEmail, 10),
    (Kind::Slow, 4),
    (Kind::Stalled, 3),
    (Kind::Huge, 3),
    (Kind::Down, 3),
    (Kind::Disallowed, 3),
    (Kind::RedirectPrivate, 3),
    (Kind::JunkAround, 4),
];

/// The path prefix robots.txt closes to `LeadgenBot`.
pub const MEMBERS_PREFIX: &str = "/members/";
/// The path prefix of every other site.
pub const SITES_PREFIX: &str = "/sites/";

/// FNV-1a: stable across runs, platforms and Rust versions (std's hasher is not).
fn fnv(text: &str, salt: u64) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ salt;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// One site, as its slug makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The slug in its URL (`joes-pizza`).
    pub slug: String,
    /// What it is like.
    pub kind: Kind,
    hash: u64,
}

/// The social networks a site may link, in the crawler's canonical forms.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Socials {
    /// `https://www.facebook.com/{handle}`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facebook: Option<String>,
    /// `https://www.instagram.com/{handle}`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instagram: Option<String>,
    /// `https://www.linkedin.com/company/{handle}`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linkedin: Option<String>,
    /// `https://x.com/{handle}`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    /// `https://www.youtube.com/@{handle}`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub youtube: Option<String>,
    /// `https://www.tiktok.com/@{handle}`
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiktok: Option<String>,
}

/// What a site publishes in a supported form, reachable by a polite reader within
/// sane limits (robots.txt honoured, pages under a few MiB answering within seconds).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Truth {
    /// The site's slug.
    pub site: String,
    /// What it is like.
    pub kind: Kind,
    /// Addresses, lower-case.
    pub emails: Vec<String>,
    /// Profiles, canonical.
    pub socials: Socials,
}

impl Site {
    /// The site of `slug`.
    pub fn of(slug: &str) -> Self {
        let hash = fnv(slug, 0);
        let mut draw = hash % 100;
        let kind = SHARES
            .iter()
            .find(|(_, share)| {
                if draw < *share {
                    true
                } else {
                    draw -= share;
                    false
                }
            })
            .map_or(Kind::Mailto, |(kind, _)| *kind);
        Self {
            slug: slug.to_owned(),
            kind,
            hash,
        }
    }

    /// The site's path: `/sites/{slug}/`, or `/members/{slug}/` when robots.txt closes it.
    pub fn path(&self) -> String {
        let prefix = if self.kind == Kind::Disallowed {
            MEMBERS_PREFIX
        } else {
            SITES_PREFIX
        };
        format!("{prefix}{}/", self.slug)
    }

    /// The business's domain in its addresses.
    fn domain(&self) -> String {
        let short: String = self.slug.chars().take(40).collect();
        format!("{}.com", short.trim_end_matches('-'))
    }

    /// The main address.
    pub fn email(&self) -> String {
        const LOCALS: &[&str] = &["info", "hello", "contact", "office", "bookings", "team", "frontdesk"];
        let local = LOCALS[(fnv(&self.slug, 1) % LOCALS.len() as u64) as usize];
        format!("{local}@{}", self.domain())
    }

    /// The second address of a [`Kind::TwoPages`] site.
    pub fn second_email(&self) -> String {
        format!("sales@{}", self.domain())
    }

    /// A handle for its social profiles: letters and digits of the slug.
    fn handle(&self) -> String {
        self.slug.chars().filter(char::is_ascii_alphanumeric).take(30).collect()
    }

    /// The profiles it links (a stable draw per network).
    pub fn socials(&self) -> Socials {
        let h = self.handle();
        let has = |salt: u64, per_100: u64| fnv(&self.slug, salt) % 100 < per_100;
        Socials {
            facebook: has(10, 60).then(|| format!("https://www.facebook.com/{h}")),
            instagram: has(11, 40).then(|| format!("https://www.instagram.com/{h}")),
            linkedin: has(12, 20).then(|| format!("https://www.linkedin.com/company/{h}")),
            x: has(13, 15).then(|| format!("https://x.com/{h}")),
            youtube: has(14, 10).then(|| format!("https://www.youtube.com/@{h}")),
            tiktok: has(15, 10).then(|| format!("https://www.tiktok.com/@{h}")),
        }
    }

    /// What a polite reader can find on it.
    pub fn truth(&self) -> Truth {
        let readable = !matches!(
            self.kind,
            Kind::Stalled | Kind::Huge | Kind::Down | Kind::Disallowed | Kind::RedirectPrivate
        );
        let emails = match self.kind {
            _ if !readable => Vec::new(),
            Kind::NoEmail => Vec::new(),
            Kind::TwoPages => vec![self.email(), self.second_email()],
            _ => vec![self.email()],
        };
        Truth {
            site: self.slug.clone(),
            kind: self.kind,
            emails,
            // An unlinked-contact site's pages carry no footer links.
            socials: if readable && self.kind != Kind::UnlinkedContact {
                self.socials()
            } else {
                Socials::default()
            },
        }
    }

    /// A number drawn from the site, for variations within a kind.
    pub(super) fn variant(&self, of: u64) -> u64 {
        (self.hash >> 17) % of.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_slug_is_the_same_site_and_kinds_follow_their_shares() {
        assert_eq!(Site::of("joes-pizza"), Site::of("joes-pizza"));
        assert_eq!(SHARES.iter().map(|(_, s)| s).sum::<u64>(), 100);
        let n = 5_000;
        let mailto = (0..n)
            .filter(|i| Site::of(&format!("business-{i}")).kind == Kind::Mailto)
            .count();
        assert!((800..1200).contains(&mailto), "about 20%: {mailto}");
    }

    #[test]
    fn unreadable_sites_publish_nothing_reachable() {
        let site = (0..)
            .map(|i| Site::of(&format!("b-{i}")))
            .find(|s| s.kind == Kind::Disallowed)
            .expect("a disallowed site");
        assert!(site.path().starts_with(MEMBERS_PREFIX));
        assert!(site.truth().emails.is_empty());
        assert_eq!(site.truth().socials, Socials::default());
        let two = (0..)
            .map(|i| Site::of(&format!("b-{i}")))
            .find(|s| s.kind == Kind::TwoPages)
            .expect("a two-page site");
        assert_eq!(two.truth().emails.len(), 2);
    }
}
