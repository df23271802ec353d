//! The HTML of each kind of site, written the way real small-business sites are: a
//! header, a menu, a footer with social links, and the usual template debris.

use std::time::Duration;

use super::sites::{Kind, Site, Socials};

/// How the server answers one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// 200 with this HTML, after this delay.
    Html(Duration, String),
    /// This status, no body.
    Status(u16),
    /// 302 to this address.
    Redirect(String),
}

/// What pages need to know about the server.
#[derive(Debug, Clone)]
pub struct Context {
    /// The slow kind's delay.
    pub slow_delay: Duration,
    /// The stalled kind's delay.
    pub stall_delay: Duration,
    /// The server's own port (loopback redirects point back at its trap).
    pub port: u16,
}

/// Size of a [`Kind::Huge`] home page.
const HUGE_BYTES: usize = 3 * 1024 * 1024;

/// The answer for `page` (`""` for the home page, `contact`, ...) of `site`.
pub fn answer(site: &Site, page: &str, ctx: &Context) -> Answer {
    let now = Duration::ZERO;
    let home = page.is_empty() || page == "index.html";
    match (site.kind, home) {
        (Kind::Down, _) => Answer::Status(503),
        (Kind::RedirectPrivate, true) => Answer::Redirect(private_target(site, ctx.port)),
        (Kind::Slow, true) => Answer::Html(ctx.slow_delay, home_page(site)),
        (Kind::Stalled, true) => Answer::Html(ctx.stall_delay, home_page(site)),
        (Kind::Huge, true) => Answer::Html(now, huge_page(site)),
        (_, true) => Answer::Html(now, home_page(site)),
        (Kind::Obfuscated | Kind::TwoPages, false) if page == "contact" => Answer::Html(now, contact_page(site)),
        (Kind::Entities, false) if page == "impressum" => Answer::Html(now, imprint_page(site)),
        (Kind::UnlinkedContact, false) if page == "contact-us" => Answer::Html(now, contact_page(site)),
        (_, false) if page == "menu" => Answer::Html(now, layout(site, "<h2>Menu</h2><p>Ask us.</p>", "")),
        _ => Answer::Status(404),
    }
}

/// Where a [`Kind::RedirectPrivate`] site sends readers: a private address, the cloud
/// metadata service, or back to the fake web by a loopback name (its trap counts any
/// request that arrives, which a guarded client never sends).
fn private_target(site: &Site, port: u16) -> String {
    match site.variant(4) {
        0 => "http://10.0.0.7/admin".to_owned(),
        1 => "http://169.254.169.254/latest/meta-data/".to_owned(),
        2 => format!("http://localhost:{port}/_web/trap"),
        _ => format!("http://[::1]:{port}/_web/trap"),
    }
}

fn title(site: &Site) -> String {
    site.slug
        .split('-')
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Links to the profiles, in the forms sites really use (not always canonical), and a
/// share button that is not a profile.
fn social_links(socials: &Socials, variant: u64) -> String {
    let mut links = String::from(r#"<a href="https://www.facebook.com/sharer/sharer.php?u=here">Share</a> "#);
    let handle = |url: &str| {
        url.rsplit('/')
            .next()
            .unwrap_or_default()
            .trim_start_matches('@')
            .to_owned()
    };
    if let Some(url) = &socials.facebook {
        let h = handle(url);
        let written = if variant.is_multiple_of(2) {
            format!("https://facebook.com/{h}/?ref=site")
        } else {
            url.clone()
        };
        links.push_str(&format!(
            r#"<a href="{written}" aria-label="Facebook"><svg></svg></a> "#
        ));
    }
    if let Some(url) = &socials.instagram {
        links.push_str(&format!(r#"<a href="{url}/">Instagram</a> "#));
    }
    if let Some(url) = &socials.linkedin {
        links.push_str(&format!(r#"<a href="{url}">LinkedIn</a> "#));
    }
    if let Some(url) = &socials.x {
        let h = handle(url);
        let written = if variant.is_multiple_of(3) {
            format!("https://twitter.com/{h}")
        } else {
            url.clone()
        };
        links.push_str(&format!(r#"<a href="{written}">X</a> "#));
    }
    if let Some(url) = &socials.youtube {
        links.push_str(&format!(r#"<a href="{url}">YouTube</a> "#));
    }
    if let Some(url) = &socials.tiktok {
        links.push_str(&format!(r#"<a href="{url}?lang=en">TikTok</a> "#));
    }
    links
}

fn layout(site: &Site, main: &str, head: &str) -> String {
    let name = title(site);
    let nav = match site.kind {
        Kind::Obfuscated | Kind::TwoPages => r#"<a href="menu">Menu</a> <a href="contact">Contact</a>"#,
        Kind::Entities => r#"<a href="menu">Menu</a> <a href="impressum">Impressum</a>"#,
        Kind::UnlinkedContact => "",
        _ => r#"<a href="menu">Menu</a>"#,
    };
    let footer = if site.kind == Kind::UnlinkedContact {
        String::new()
    } else {
        social_links(&site.socials(), site.variant(6))
    };
    format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{name}</title>
<link rel="icon" href="favicon@2x.png">{head}
<script>window.__cfg={{sentry:"https://0123456789abcdef0123456789abcdef@o44123.ingest.sentry.io/55",lib:"swiper@11.0.5"}};</script>
</head><body><header><img src="logo@2x.png" alt="{name} logo"><nav>{nav}</nav></header>
<main><h1>{name}</h1>{main}<p>Call us: (555) 555-0123</p></main>
<footer>{footer}<p>&copy; {name}</p></footer></body></html>"#
    )
}

fn json_ld(site: &Site) -> String {
    format!(
        r#"<script type="application/ld+json">{{"@context":"https://schema.org","@type":"LocalBusiness","name":"{}","email":"{}","telephone":"(555) 555-0123"}}</script>"#,
        title(site),
        site.email()
    )
}

fn home_page(site: &Site) -> String {
    let email = site.email();
    match site.kind {
        Kind::Mailto | Kind::Slow | Kind::Stalled | Kind::Disallowed | Kind::RedirectPrivate => layout(
            site,
            &format!(r#"<p>Questions? <a href="mailto:{email}?subject=Hello">Email us</a>.</p>"#),
            "",
        ),
        Kind::Text => layout(site, &format!("<p>Write to {email} any time.</p>"), &json_ld(site)),
        Kind::JsonLd => layout(site, "<p>Open every day.</p>", &json_ld(site)),
        Kind::Cloudflare => layout(
            site,
            &format!(
                r#"<p>Email: <a href="/cdn-cgi/l/email-protection" class="__cf_email__" data-cfemail="{cf}">[email&#160;protected]</a>
or <a href="/cdn-cgi/l/email-protection#{cf2}">click to write</a></p>"#,
                cf = cloudflare(&email, 0x5a),
                cf2 = cloudflare(&email, 0x21)
            ),
            "",
        ),
        Kind::TwoPages => layout(site, &format!(r#"<p><a href="mailto:{email}">{email}</a></p>"#), ""),
        Kind::JunkAround => layout(
            site,
            &format!(
                "<p>Template: you@example.com, name@yourdomain.com. Hero image hero@2x.jpg.</p>\
                 <p>Our address is {email}.</p>"
            ),
            "",
        ),
        Kind::Obfuscated | Kind::Entities | Kind::UnlinkedContact | Kind::NoEmail | Kind::Huge | Kind::Down => {
            layout(site, "<p>Welcome! We are open Monday to Saturday.</p>", "")
        }
    }
}

fn huge_page(site: &Site) -> String {
    let filler = "<p>Gallery photo caption, lorem ipsum dolor sit amet.</p>\n";
    let mut page = String::with_capacity(HUGE_BYTES + 200);
    page.push_str("<!doctype html><html><body>");
    while page.len() < HUGE_BYTES {
        page.push_str(filler);
    }
    page.push_str(&format!("<p>{}</p></body></html>", site.email()));
    page
}

fn contact_page(site: &Site) -> String {
    let main = match site.kind {
        Kind::Obfuscated => {
            let (local, domain) = site
                .email()
                .split_once('@')
                .map(|(l, d)| (l.to_owned(), d.to_owned()))
                .unwrap_or_default();
            let (name, tld) = domain
                .rsplit_once('.')
                .map(|(n, t)| (n.to_owned(), t.to_owned()))
                .unwrap_or_default();
            let (at, dot) = match site.variant(3) {
                0 => ("[at]", "[dot]"),
                1 => ("(at)", "(dot)"),
                _ => (" { at } ", " { dot } "),
            };
            format!("<p>Email: {local} {at} {name} {dot} {tld}</p>")
        }
        Kind::TwoPages => format!("<p>Sales: {}</p>", site.second_email()),
        _ => format!(r#"<p><a href="mailto:{0}">{0}</a></p>"#, site.email()),
    };
    layout(site, &format!("<h2>Contact</h2>{main}"), "")
}

fn imprint_page(site: &Site) -> String {
    let entities: String = site.email().chars().map(|c| format!("&#{};", c as u32)).collect();
    layout(site, &format!("<h2>Impressum</h2><p>E-Mail: {entities}</p>"), "")
}

/// Cloudflare's email protection encoding: a key byte, then each byte XOR the key, in hex.
fn cloudflare(email: &str, key: u8) -> String {
    std::iter::once(key)
        .chain(email.bytes().map(|b| b ^ key))
        .map(|b| format!("{b:02x}"))
        .collect()
}
