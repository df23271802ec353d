//! Which links of a home page are worth reading for contacts: contact, imprint and about
//! pages of the same site, best first; the usual paths when the page links none.

use url::Url;

use super::page::Link;

/// How likely a page is to carry contacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// About, team: sometimes.
    About = 1,
    /// Imprint (legally required in Germany, Austria, Switzerland: always an address).
    Imprint = 2,
    /// Contact page.
    Contact = 3,
}

/// A page to read.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Where.
    pub url: Url,
    /// Why.
    pub kind: Kind,
}

impl Candidate {
    /// Whether this is the page `contactPage` should name (contact or imprint).
    pub fn is_contact_page(&self) -> bool {
        self.kind >= Kind::Imprint
    }
}

/// Words (in link text or path) and the kind of page they announce, in several languages.
const WORDS: &[(&str, Kind)] = &[
    ("contact", Kind::Contact),
    ("kontakt", Kind::Contact),
    ("contacto", Kind::Contact),
    ("contato", Kind::Contact),
    ("contatti", Kind::Contact),
    ("contactez", Kind::Contact),
    ("get in touch", Kind::Contact),
    ("reach us", Kind::Contact),
    ("write to us", Kind::Contact),
    ("impressum", Kind::Imprint),
    ("imprint", Kind::Imprint),
    ("legal notice", Kind::Imprint),
    ("mentions-legales", Kind::Imprint),
    ("mentions légales", Kind::Imprint),
    ("aviso-legal", Kind::Imprint),
    ("about", Kind::About),
    ("über uns", Kind::About),
    ("ueber-uns", Kind::About),
    ("uber-uns", Kind::About),
    ("a-propos", Kind::About),
    ("quienes-somos", Kind::About),
    ("chi-siamo", Kind::About),
    ("our team", Kind::About),
    ("team", Kind::About),
];

/// Paths tried when the home page links no contact-like page and shows no address,
/// relative to the website's own address (a site may live under a path).
const USUAL_PATHS: &[(&str, Kind)] = &[
    ("contact", Kind::Contact),
    ("contact-us", Kind::Contact),
    ("impressum", Kind::Imprint),
    ("about", Kind::About),
];

/// Candidates kept from one home page (only a few are read).
const MAX_CANDIDATES: usize = 16;

/// Extensions of links that are not pages.
const NOT_PAGES: &[&str] = &[
    ".pdf", ".jpg", ".jpeg", ".png", ".gif", ".svg", ".webp", ".zip", ".doc", ".docx", ".xls", ".xlsx", ".mp4", ".mp3",
    ".vcf", ".ics",
];

/// Contact-like links of `home` (read from `home_url`), best kind first, then in page
/// order, without repeats; the usual paths when there are none and `nothing_yet`.
pub fn candidates(links: &[Link], home_url: &Url, nothing_yet: bool) -> Vec<Candidate> {
    let mut found: Vec<Candidate> = Vec::new();
    for link in links {
        if !same_site(&link.url, home_url) || same_page(&link.url, home_url) || !is_page(&link.url) {
            continue;
        }
        let Some(kind) = kind_of(link) else { continue };
        let known = found.iter().any(|c| same_page(&c.url, &link.url));
        if !known && found.len() >= MAX_CANDIDATES {
            // Full (a page with thousands of such links): a better kind replaces the first
            // of the weakest, so the work per link stays small.
            let weakest = found
                .iter()
                .enumerate()
                .min_by_key(|(_, c)| c.kind)
                .map(|(i, _)| i)
                .filter(|&i| found[i].kind < kind);
            let Some(weakest) = weakest else { continue };
            found.remove(weakest);
        }
        match found.iter_mut().find(|c| same_page(&c.url, &link.url)) {
            Some(existing) => existing.kind = existing.kind.max(kind),
            None => found.push(Candidate {
                url: link.url.clone(),
                kind,
            }),
        }
    }
    if found.is_empty() && nothing_yet {
        let base = directory_of(home_url);
        found = USUAL_PATHS
            .iter()
            .filter_map(|(path, kind)| base.join(path).ok().map(|url| Candidate { url, kind: *kind }))
            .collect();
    }
    // Stable: page order within a kind.
    found.sort_by_key(|c| std::cmp::Reverse(c.kind));
    found
}

fn kind_of(link: &Link) -> Option<Kind> {
    let path = link.url.path().to_lowercase();
    WORDS
        .iter()
        .filter(|(word, _)| link.text.contains(word) || path.contains(&word.replace(' ', "-")))
        .map(|(_, kind)| *kind)
        .max()
}

/// Same host (give or take `www.`) and port.
fn same_site(url: &Url, home: &Url) -> bool {
    let bare = |u: &Url| {
        let host = u.host_str().unwrap_or_default().to_ascii_lowercase();
        host.strip_prefix("www.").map(str::to_owned).unwrap_or(host)
    };
    bare(url) == bare(home) && url.port_or_known_default() == home.port_or_known_default()
}

fn same_page(a: &Url, b: &Url) -> bool {
    same_site(a, b) && a.path().trim_end_matches('/') == b.path().trim_end_matches('/') && a.query() == b.query()
}

fn is_page(url: &Url) -> bool {
    let path = url.path().to_ascii_lowercase();
    !NOT_PAGES.iter().any(|ext| path.ends_with(ext))
}

/// `https://biz.com/shop/` for `https://biz.com/shop/` and `https://biz.com/shop/index.html`.
fn directory_of(url: &Url) -> Url {
    let mut dir = url.clone();
    dir.set_query(None);
    dir.set_fragment(None);
    if !dir.path().ends_with('/') {
        let path = dir.path();
        let cut = path.rfind('/').map_or(0, |i| i + 1);
        let last = &path[cut..];
        // "/sites/joes" is a directory without its slash; "/index.html" is a file.
        let parent = if last.contains('.') {
            path[..cut].to_owned()
        } else {
            format!("{path}/")
        };
        dir.set_path(&parent);
    }
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(url: &str, text: &str) -> Link {
        Link {
            url: Url::parse(url).expect("url"),
            text: text.into(),
        }
    }

    #[test]
    fn ranks_contact_before_imprint_before_about_and_skips_the_rest() {
        let home = Url::parse("https://www.joes.test/").expect("url");
        let links = [
            link("https://www.joes.test/menu", "menu"),
            link("https://www.joes.test/ueber-uns", "über uns"),
            link("https://joes.test/impressum", "impressum"),
            link("https://www.joes.test/reach", "get in touch"),
            link("https://www.joes.test/contact", "contact"),
            link("https://www.joes.test/contact/", "write to us"),
            link("https://other.test/contact", "contact"),
            link("https://www.joes.test/contact.pdf", "contact"),
            link("https://www.joes.test/", "home contact"),
        ];
        let urls: Vec<(String, Kind)> = candidates(&links, &home, false)
            .into_iter()
            .map(|c| (c.url.to_string(), c.kind))
            .collect();
        assert_eq!(
            urls,
            [
                ("https://www.joes.test/reach".to_owned(), Kind::Contact),
                ("https://www.joes.test/contact".to_owned(), Kind::Contact),
                ("https://joes.test/impressum".to_owned(), Kind::Imprint),
                ("https://www.joes.test/ueber-uns".to_owned(), Kind::About),
            ]
        );
    }

    #[test]
    fn a_page_of_thousands_of_links_keeps_a_few_of_the_best() {
        let home = Url::parse("https://joes.test/").expect("url");
        // Quadratic work over 20,000 links would take minutes; bounded work, milliseconds.
        let mut links: Vec<Link> = (0..20_000)
            .map(|i| link(&format!("https://joes.test/about-{i}"), "about"))
            .collect();
        links.push(link("https://joes.test/contact", "contact"));
        let started = std::time::Instant::now();
        let found = candidates(&links, &home, false);
        assert_eq!(found.len(), MAX_CANDIDATES);
        assert_eq!(found[0].url.path(), "/contact", "the contact page made it in");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn tries_the_usual_paths_only_when_nothing_was_found() {
        let home = Url::parse("http://127.0.0.1:9/sites/joes").expect("url");
        let usual: Vec<String> = candidates(&[], &home, true)
            .into_iter()
            .map(|c| c.url.path().to_owned())
            .collect();
        assert_eq!(
            usual,
            [
                "/sites/joes/contact",
                "/sites/joes/contact-us",
                "/sites/joes/impressum",
                "/sites/joes/about"
            ]
        );
        assert!(
            candidates(&[], &home, false).is_empty(),
            "the home page already gave an address"
        );
        let file = Url::parse("https://joes.test/index.html").expect("url");
        assert_eq!(
            candidates(&[], &file, true)[0].url.as_str(),
            "https://joes.test/contact"
        );
    }
}
