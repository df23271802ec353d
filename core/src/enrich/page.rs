//! What one HTML page publishes: emails, social profiles, and links that may lead to a
//! contact page. Parsed with html5ever (through `scraper`), as a browser would, so
//! entities (`&#64;`), broken markup and odd nesting need no special cases.

use std::{collections::HashSet, sync::LazyLock};

use scraper::{ElementRef, Html, Node, Selector};
use url::Url;

use super::{
    emails,
    socials::{self, Network},
};

/// What a page holds.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Findings {
    /// Kept addresses (lower-case, junk dropped), in order of appearance, without repeats.
    pub emails: Vec<String>,
    /// Social profiles in order of appearance (several per network possible).
    pub socials: Vec<(Network, String)>,
    /// Every http(s) link with its text, resolved against the page's URL.
    pub links: Vec<Link>,
}

/// A link and the words it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// Absolute URL, fragment removed.
    pub url: Url,
    /// Text and `title`/`aria-label`, lower-cased, whitespace collapsed.
    pub text: String,
}

static ANCHORS: LazyLock<Selector> = LazyLock::new(|| Selector::parse("a[href], area[href]").expect("selector"));
static CF_EMAILS: LazyLock<Selector> = LazyLock::new(|| Selector::parse("[data-cfemail]").expect("selector"));

/// Addresses kept from one page: a page listing thousands is a directory or a trap, and
/// a business publishes a few.
const MAX_EMAILS: usize = 50;

/// Cloudflare's email-protection link path; the fragment holds the encoded address.
const CF_PATH: &str = "/cdn-cgi/l/email-protection";

/// Reads `html`, fetched from `base` (for relative links).
pub fn read(html: &str, base: &Url) -> Findings {
    let document = Html::parse_document(html);
    let mut found = Findings::default();
    let mut raw_emails: Vec<String> = Vec::new();

    for anchor in document.select(&ANCHORS) {
        let Some(href) = anchor.value().attr("href") else {
            continue;
        };
        let mailto = emails::in_mailto(href);
        if !mailto.is_empty() {
            raw_emails.extend(mailto);
            continue;
        }
        let Ok(mut url) = base.join(href.trim()) else { continue };
        if url.path() == CF_PATH {
            raw_emails.extend(url.fragment().and_then(emails::cloudflare_decode));
            continue;
        }
        if !matches!(url.scheme(), "http" | "https") {
            continue;
        }
        url.set_fragment(None);
        if let Some(profile) = socials::profile(&url) {
            found.socials.push(profile);
        }
        found.links.push(Link {
            url,
            text: link_words(&anchor),
        });
    }
    for protected in document.select(&CF_EMAILS) {
        raw_emails.extend(
            protected
                .value()
                .attr("data-cfemail")
                .and_then(emails::cloudflare_decode),
        );
    }
    raw_emails.extend(emails::in_text(&visible_text(&document)));

    let mut seen = HashSet::new();
    for address in raw_emails.iter().filter_map(|e| emails::keep(e)) {
        if found.emails.len() >= MAX_EMAILS {
            break;
        }
        if seen.insert(address.clone()) {
            found.emails.push(address);
        }
    }
    found
}

/// The document's text as a reader sees it, plus JSON-LD blocks (where many sites put
/// `"email"` for search engines). Other scripts, styles and templates are left out: their
/// "addresses" are code (`bootstrap@5.3.2`, Sentry keys). Text nodes are joined with a
/// space so that words of neighbouring elements do not run together into an address.
fn visible_text(document: &Html) -> String {
    let mut text = String::new();
    for node in document.root_element().descendants() {
        let Node::Text(words) = node.value() else { continue };
        let parent = node.parent().and_then(ElementRef::wrap);
        let shown = parent.is_none_or(|p| {
            let element = p.value();
            match element.name() {
                "style" | "template" | "noscript" => false,
                "script" => element
                    .attr("type")
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json")),
                _ => true,
            }
        });
        if shown {
            text.push_str(words);
            text.push(' ');
        }
    }
    text
}

fn link_words(anchor: &ElementRef<'_>) -> String {
    let element = anchor.value();
    let words: Vec<&str> = anchor
        .text()
        .chain(element.attr("title"))
        .chain(element.attr("aria-label"))
        .flat_map(str::split_whitespace)
        .collect();
    words.join(" ").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Url {
        Url::parse("https://joes-pizza.test/").expect("url")
    }

    #[test]
    fn finds_each_published_form_once() {
        let html = r#"<!doctype html><html><head>
            <script type="application/ld+json">{"@type":"Restaurant","email":"events@joespizza.com"}</script>
            <script>Sentry.init({dsn:"https://0123456789abcdef0123456789abcdef@o1.ingest.sentry.io/1"}); var v="lib@4.2.1";</script>
            <style>.logo{background:url(logo@2x.png)}</style>
            </head><body>
            <img src="/img/logo@2x.png" alt="logo@2x.png">
            <a href="mailto:Info@JoesPizza.com?subject=Order">Email us</a>
            <p>Or write to info@joespizza.com, or orders [at] joespizza [dot] com.</p>
            <p>Chef: &#99;&#104;&#101;&#102;&#64;&#106;&#111;&#101;&#115;&#112;&#105;&#122;&#122;&#97;&#46;&#99;&#111;&#109;</p>
            <a href="/cdn-cgi/l/email-protection#5e3d2b2d2a31333b2c1e34313b2d2e3724243f703d3133">[email&#160;protected]</a>
            <span class="__cf_email__" data-cfemail="4b3b392e38380b21242e383b2231312a65282426">[email&#160;protected]</span>
            <p>Template: you@example.com</p>
            </body></html>"#;
        let found = read(html, &base());
        assert_eq!(
            found.emails,
            [
                "info@joespizza.com",
                "customer@joespizza.com",
                "press@joespizza.com",
                "events@joespizza.com",
                "chef@joespizza.com",
                // Obfuscated addresses come after the plain ones of the same text.
                "orders@joespizza.com",
            ]
        );
    }

    #[test]
    fn a_page_full_of_addresses_gives_a_few_quickly() {
        let html: String = (0..40_000).map(|i| format!("<p>user{i}@biz.com</p>")).collect();
        let started = std::time::Instant::now();
        let found = read(&html, &base());
        assert_eq!(found.emails.len(), MAX_EMAILS);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn finds_profiles_and_links() {
        let html = r#"<body>
            <a href="https://www.facebook.com/sharer/sharer.php?u=x">Share</a>
            <a href="https://facebook.com/joespizza/">Facebook</a>
            <a href="https://instagram.com/joespizza">IG</a>
            <a href="contact.html#form" title="Get in touch">Reach <b>us</b></a>
            <a href="javascript:void(0)">nothing</a>
            </body>"#;
        let found = read(html, &base());
        assert_eq!(
            found.socials,
            [
                (Network::Facebook, "https://www.facebook.com/joespizza".to_owned()),
                (Network::Instagram, "https://www.instagram.com/joespizza".to_owned()),
            ]
        );
        let contact = found
            .links
            .iter()
            .find(|l| l.url.path() == "/contact.html")
            .expect("contact link");
        assert_eq!(contact.text, "reach us get in touch");
        assert_eq!(contact.url.fragment(), None);
        assert!(found.links.iter().all(|l| l.url.scheme() != "javascript"));
    }
}
