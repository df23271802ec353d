//! Recognising a business's social profile among a page's links: its profile or page,
//! not a share button, a post, a login page or the network's own pages.

use url::Url;

/// The networks [`super::Socials`] has a field for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Network {
    /// facebook.com/{page}
    Facebook,
    /// instagram.com/{user}
    Instagram,
    /// linkedin.com/company/{id}, /in/{id}, /school/{id}, /showcase/{id}
    Linkedin,
    /// x.com/{handle} or twitter.com/{handle}
    X,
    /// youtube.com/@{handle}, /channel/{id}, /c/{name}, /user/{name}
    Youtube,
    /// tiktok.com/@{handle}
    Tiktok,
}

/// Paths on facebook.com, instagram.com and x.com that are the network's own pages or
/// actions, not somebody's profile.
const NOT_PROFILES: &[&str] = &[
    "sharer",
    "sharer.php",
    "share",
    "share.php",
    "dialog",
    "plugins",
    "tr",
    "login",
    "login.php",
    "signup",
    "home",
    "home.php",
    "policies",
    "privacy",
    "legal",
    "help",
    "about",
    "intent",
    "i",
    "hashtag",
    "search",
    "explore",
    "accounts",
    "p",
    "reel",
    "reels",
    "stories",
    "watch",
    "events",
    "groups",
    "photo",
    "photo.php",
    "story.php",
    "permalink.php",
    "profile.php",
    "pages",
    "people",
    "settings",
    "web",
    "embed",
    "widgets.js",
    "tos",
    "terms",
];

/// The network and canonical profile URL (`https`, canonical host, no query, fragment or
/// trailing slash) that `link` points to, or `None` when it is not a profile.
pub fn profile(link: &Url) -> Option<(Network, String)> {
    if !matches!(link.scheme(), "http" | "https") {
        return None;
    }
    let host = link.host_str()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    let host = host
        .strip_prefix("m.")
        .or_else(|| host.strip_prefix("mobile."))
        .unwrap_or(host);
    let segments: Vec<&str> = link
        .path_segments()
        .map(|s| s.filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    let first = *segments.first()?;
    let plain = |network: Network, canonical_host: &str| -> Option<(Network, String)> {
        let handle = first.trim_start_matches('@');
        (!NOT_PROFILES.contains(&first.to_ascii_lowercase().as_str()) && is_handle(handle))
            .then(|| (network, format!("https://{canonical_host}/{first}")))
    };
    match host {
        "facebook.com" | "fb.com" => plain(Network::Facebook, "www.facebook.com"),
        "instagram.com" => plain(Network::Instagram, "www.instagram.com"),
        "x.com" | "twitter.com" => plain(Network::X, "x.com"),
        "tiktok.com" => first
            .strip_prefix('@')
            .filter(|h| is_handle(h))
            .map(|_| (Network::Tiktok, format!("https://www.tiktok.com/{first}"))),
        "linkedin.com" => match (first, segments.get(1)) {
            ("company" | "in" | "school" | "showcase", Some(id)) if is_handle(id) => {
                Some((Network::Linkedin, format!("https://www.linkedin.com/{first}/{id}")))
            }
            _ => None,
        },
        "youtube.com" => match (first, segments.get(1)) {
            (handle, _) if handle.starts_with('@') && is_handle(&handle[1..]) => {
                Some((Network::Youtube, format!("https://www.youtube.com/{handle}")))
            }
            ("channel" | "c" | "user", Some(id)) if is_handle(id) => {
                Some((Network::Youtube, format!("https://www.youtube.com/{first}/{id}")))
            }
            _ => None,
        },
        _ => None,
    }
}

/// Letters, digits, `.`, `_` and `-`: what the networks allow in a handle (percent-encoded
/// or longer things are posts or tracking links).
fn is_handle(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 100
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(link: &str) -> Option<(Network, String)> {
        profile(&Url::parse(link).expect("url"))
    }

    #[test]
    fn recognises_profiles_and_canonicalises_them() {
        let cases = [
            (
                "https://facebook.com/JoesPizza/",
                Network::Facebook,
                "https://www.facebook.com/JoesPizza",
            ),
            (
                "http://m.facebook.com/JoesPizza?ref=page",
                Network::Facebook,
                "https://www.facebook.com/JoesPizza",
            ),
            (
                "https://www.instagram.com/joes.pizza/",
                Network::Instagram,
                "https://www.instagram.com/joes.pizza",
            ),
            ("https://twitter.com/joespizza", Network::X, "https://x.com/joespizza"),
            ("https://x.com/joespizza#top", Network::X, "https://x.com/joespizza"),
            (
                "https://www.linkedin.com/company/joes-pizza/about/",
                Network::Linkedin,
                "https://www.linkedin.com/company/joes-pizza",
            ),
            (
                "https://linkedin.com/in/joe-smith",
                Network::Linkedin,
                "https://www.linkedin.com/in/joe-smith",
            ),
            (
                "https://www.youtube.com/@JoesPizza",
                Network::Youtube,
                "https://www.youtube.com/@JoesPizza",
            ),
            (
                "https://youtube.com/channel/UC123abc",
                Network::Youtube,
                "https://www.youtube.com/channel/UC123abc",
            ),
            (
                "https://www.tiktok.com/@joespizza?lang=en",
                Network::Tiktok,
                "https://www.tiktok.com/@joespizza",
            ),
        ];
        for (link, network, canonical) in cases {
            assert_eq!(of(link), Some((network, canonical.to_owned())), "{link}");
        }
    }

    #[test]
    fn ignores_share_buttons_posts_and_the_networks_own_pages() {
        for link in [
            "https://www.facebook.com/sharer/sharer.php?u=https://biz.com",
            "https://www.facebook.com/",
            "https://www.facebook.com/tr?id=123&ev=PageView",
            "https://www.facebook.com/plugins/page.php?href=x",
            "https://twitter.com/intent/tweet?text=hi",
            "https://twitter.com/share",
            "https://x.com/i/flow/login",
            "https://www.instagram.com/p/Cx1abc/",
            "https://www.instagram.com/explore/tags/pizza/",
            "https://www.linkedin.com/shareArticle?mini=true",
            "https://www.linkedin.com/company/",
            "https://www.youtube.com/watch?v=abc",
            "https://www.youtube.com/embed/abc",
            "https://youtu.be/abc",
            "https://www.tiktok.com/embed/v2/123",
            "https://www.tiktok.com/",
            "mailto:x@facebook.com",
            "https://notfacebook.com/joes",
        ] {
            assert_eq!(of(link), None, "{link}");
        }
    }
}
