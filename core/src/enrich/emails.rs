//! Finding email addresses in a page's text and links: plain, `mailto:`, the common
//! bracket obfuscations ("name [at] domain [dot] com") and Cloudflare's email protection;
//! then dropping what is not a business's address (image names like `logo@2x.png`,
//! placeholders, error-tracking keys).

use std::sync::LazyLock;

use regex::Regex;

/// An address in text: a local part, `@`, and a domain of labels ending in a letters-only
/// top-level label. Deliberately narrower than RFC 5322: quoted local parts and
/// international addresses do not appear on business websites, and a narrow pattern finds
/// less junk.
static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"[A-Za-z0-9_+][A-Za-z0-9._+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}\b",
    )
    .expect("a valid pattern")
});

/// "[at]", "(at)", "{at}", "<at>" (any case, spaces allowed inside and around), and the
/// same around a literal "@".
static AT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\s*[\[\(\{<]\s*(?:at|@)\s*[\]\)\}>]\s*").expect("a valid pattern"));

/// "[dot]", "(dot)", "{dot}", "<dot>", and the same around a literal ".".
static DOT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\s*[\[\(\{<]\s*(?:dot|\.)\s*[\]\)\}>]\s*").expect("a valid pattern"));

/// Every address in `text`, including the bracket-obfuscated ones, in order of
/// appearance (junk included: see [`keep`]).
pub fn in_text(text: &str) -> Vec<String> {
    let plain = EMAIL.find_iter(text).map(|m| m.as_str().to_owned());
    // Undo the obfuscations only where they occur, so the common case costs one scan.
    let deobfuscated: Vec<String> = if AT.is_match(text) {
        let text = DOT.replace_all(&AT.replace_all(text, "@"), ".").into_owned();
        EMAIL.find_iter(&text).map(|m| m.as_str().to_owned()).collect()
    } else {
        Vec::new()
    };
    plain.chain(deobfuscated).collect()
}

/// The addresses of a `mailto:` link (`mailto:a@b.com,c@d.com?subject=Hi`), or none when
/// `href` is not one.
pub fn in_mailto(href: &str) -> Vec<String> {
    let href = href.trim();
    let Some(rest) = href
        .get(..7)
        .filter(|s| s.eq_ignore_ascii_case("mailto:"))
        .map(|_| &href[7..])
    else {
        return Vec::new();
    };
    let recipients = rest.split(['?', '#']).next().unwrap_or_default();
    let decoded = percent_encoding::percent_decode_str(recipients).decode_utf8_lossy();
    decoded
        .split([',', ';'])
        .flat_map(|r| EMAIL.find(r.trim()).map(|m| m.as_str().to_owned()))
        .collect()
}

/// Decodes Cloudflare's email protection: hex, the first byte a key XORed into the rest,
/// the result UTF-8. Found in `data-cfemail` attributes and in
/// `/cdn-cgi/l/email-protection#{hex}` links.
pub fn cloudflare_decode(hex: &str) -> Option<String> {
    let hex = hex.trim();
    if hex.len() < 4 || !hex.len().is_multiple_of(2) {
        return None;
    }
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect::<Option<_>>()?;
    let key = bytes[0];
    let decoded: Vec<u8> = bytes[1..].iter().map(|b| b ^ key).collect();
    let text = String::from_utf8(decoded).ok()?;
    EMAIL.find(&text).map(|m| m.as_str().to_owned())
}

/// File extensions that end "addresses" which are really asset names (`logo@2x.png`,
/// `icon@3x.webp`, `chunk@1.2.3.js`).
const FILE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico", "bmp", "tif", "tiff", "heic", "css", "js", "mjs", "cjs",
    "ts", "json", "xml", "map", "woff", "woff2", "ttf", "otf", "eot", "mp4", "webm", "mov", "mp3", "wav", "pdf", "zip",
    "gz", "php", "html", "htm", "asp", "aspx", "jsp", "txt",
];

/// Domains that stand for "your address here" in templates.
const PLACEHOLDER_DOMAINS: &[&str] = &[
    "example.com",
    "example.org",
    "example.net",
    "example.edu",
    "domain.com",
    "domain.tld",
    "yourdomain.com",
    "your-domain.com",
    "yoursite.com",
    "yourwebsite.com",
    "yourcompany.com",
    "company.com",
    "email.com",
    "test.com",
    "sample.com",
    "website.com",
    "mysite.com",
    "site.com",
];

/// Local parts that stand for a person's address in templates.
const PLACEHOLDER_LOCALS: &[&str] = &[
    "yourname",
    "your.name",
    "your-name",
    "your_name",
    "youremail",
    "your.email",
    "your-email",
    "your_email",
    "username",
    "user",
    "firstname.lastname",
    "first.last",
    "firstname",
    "name.surname",
    "john.doe",
    "jane.doe",
    "johndoe",
    "janedoe",
    "someone",
    "somebody",
    "example",
    "name",
    "you",
];

/// Domains (and their subdomains) whose "addresses" are error-tracking or analytics keys
/// embedded in scripts, never a mailbox: Sentry DSNs (`{key}@o123.ingest.sentry.io`),
/// Wix's Sentry, and the like.
const TRACKING_DOMAINS: &[&str] = &[
    "sentry.io",
    "sentry-next.wixpress.com",
    "sentry.wixpress.com",
    "wixpress.com",
    "sentry.dev",
    "bugsnag.com",
    "rollbar.com",
    "raygun.io",
    "loggly.com",
    "mixpanel.com",
    "segment.io",
    "segment.com",
    "hotjar.com",
    "doubleclick.net",
    "google-analytics.com",
];

/// Top-level labels that never end a mailbox's domain: the reserved ones.
const RESERVED_TLDS: &[&str] = &["example", "test", "invalid", "localhost", "local", "lan", "internal"];

/// `address` lower-cased, or `None` when it is junk: an asset name, a placeholder, a
/// tracking key, or malformed.
pub fn keep(address: &str) -> Option<String> {
    let address = address.trim().trim_matches('.').to_ascii_lowercase();
    let (local, domain) = address.rsplit_once('@')?;
    if local.is_empty() || local.len() > 64 || domain.len() > 253 {
        return None;
    }
    if local.starts_with('.') || local.ends_with('.') || local.contains("..") || domain.contains("..") {
        return None;
    }
    let tld = domain.rsplit('.').next()?;
    if FILE_EXTENSIONS.contains(&tld) || RESERVED_TLDS.contains(&tld) {
        return None;
    }
    let under = |list: &[&str]| {
        list.iter()
            .any(|d| domain == *d || domain.strip_suffix(d).is_some_and(|p| p.ends_with('.')))
    };
    if under(PLACEHOLDER_DOMAINS) || under(TRACKING_DOMAINS) || domain.starts_with("example.") {
        return None;
    }
    if PLACEHOLDER_LOCALS.contains(&local) {
        return None;
    }
    // Hex keys (Sentry's 32-character public keys and the like) are not mailboxes.
    if local.len() >= 16 && local.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    // Version-like locals (`bootstrap@5.3.2`, `jquery@3.7`): a package, not a person.
    if domain.split('.').all(|label| label.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    Some(address)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(text: &str) -> Vec<String> {
        in_text(text).iter().filter_map(|e| keep(e)).collect()
    }

    #[test]
    fn finds_plain_addresses_in_text() {
        assert_eq!(
            kept("Write to Info@Biz-Shop.co.uk or sales.team+web@biz.com."),
            ["info@biz-shop.co.uk", "sales.team+web@biz.com"]
        );
        assert_eq!(kept("(hello@cafe.com)"), ["hello@cafe.com"]);
        assert_eq!(kept("\"email\": \"mailto:office@dental.org\""), ["office@dental.org"]);
    }

    #[test]
    fn undoes_bracket_obfuscations() {
        for text in [
            "jane [at] smith-law [dot] com",
            "jane(at)smith-law(dot)com",
            "jane {at} smith-law {dot} com",
            "jane <AT> smith-law <DOT> com",
            "jane [ at ] smith-law [ dot ] com",
            "jane [@] smith-law [.] com",
            "jane [at] smith-law.com",
        ] {
            assert_eq!(kept(text), ["jane@smith-law.com"], "{text}");
        }
    }

    #[test]
    fn reads_mailto_links() {
        assert_eq!(in_mailto("mailto:info@biz.com"), ["info@biz.com"]);
        assert_eq!(in_mailto("MAILTO:info@biz.com?subject=Hello%20there"), ["info@biz.com"]);
        assert_eq!(in_mailto("mailto:%20info%40biz.com"), ["info@biz.com"]);
        assert_eq!(in_mailto("mailto:a@biz.com,b@biz.com"), ["a@biz.com", "b@biz.com"]);
        assert!(in_mailto("https://biz.com/mailto:x@y.com").is_empty());
        assert!(in_mailto("mailto:").is_empty());
    }

    #[test]
    fn decodes_cloudflare_email_protection() {
        // Key 0x42 XORed into "info@biz.com".
        let hex = encode_cf(0x42, "info@biz.com");
        assert_eq!(cloudflare_decode(&hex).as_deref(), Some("info@biz.com"));
        assert_eq!(cloudflare_decode("zz12"), None);
        assert_eq!(cloudflare_decode("4"), None);
        assert_eq!(cloudflare_decode(&encode_cf(0x13, "not an address")), None);
    }

    fn encode_cf(key: u8, text: &str) -> String {
        std::iter::once(key)
            .chain(text.bytes().map(|b| b ^ key))
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn drops_junk() {
        for junk in [
            "logo@2x.png",
            "icon-home@3x.webp",
            "hero@2x.jpg",
            "bg@1.5x.svg",
            "chunk@5.3.2",
            "bootstrap@5.3.2",
            "you@example.com",
            "info@example.org",
            "name@yourdomain.com",
            "john.doe@gmail.com",
            "yourname@company.com",
            "email@domain.com",
            "user@site.test",
            "a1b2c3d4e5f60718293a4b5c6d7e8f90@o12345.ingest.sentry.io",
            "abc@sentry.io",
            "605a7baede844d278b89dc95ae0a9123@sentry-next.wixpress.com",
            "x@sentry.wixpress.com",
        ] {
            assert_eq!(kept(junk), Vec::<String>::new(), "{junk}");
        }
        assert_eq!(
            keep("Info@Example-Dental.com").as_deref(),
            Some("info@example-dental.com")
        );
        assert_eq!(keep("owner@gmail.com").as_deref(), Some("owner@gmail.com"));
    }
}
