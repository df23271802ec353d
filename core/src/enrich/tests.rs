//! The crawler against a small local web: what it finds, what it refuses, robots.txt,
//! time budgets, size caps and politeness.

use std::{
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use leadgen_testkit::sim::server::{Bound, SimServer};
use poem::{Request, Response, http::StatusCode};

use super::*;

/// A local web of a few sites under one host; records paths requested and the most
/// requests it served at once.
struct Web {
    _server: SimServer,
    addr: SocketAddr,
    requested: Arc<Mutex<Vec<String>>>,
    peak: Arc<AtomicUsize>,
}

impl Web {
    async fn start() -> Self {
        let bound = Bound::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.expect("bind");
        let addr = bound.local_addr;
        let requested = Arc::new(Mutex::new(Vec::new()));
        let peak = Arc::new(AtomicUsize::new(0));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let (log, top) = (Arc::clone(&requested), Arc::clone(&peak));
        let server = bound.serve(poem::endpoint::make(move |req: Request| {
            let (log, top, in_flight) = (Arc::clone(&log), Arc::clone(&top), Arc::clone(&in_flight));
            async move {
                log.lock().expect("lock").push(req.uri().path().to_owned());
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                top.fetch_max(now, Ordering::SeqCst);
                let response = respond(req.uri().path(), addr).await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
                response
            }
        }));
        Self {
            _server: server,
            addr,
            requested,
            peak,
        }
    }

    fn site(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    fn crawler(&self, limits: CrawlLimits) -> Crawler {
        let fetch = FetchLimits {
            timeout: Duration::from_millis(700),
            connect_timeout: Duration::from_millis(300),
            max_body_bytes: 256 * 1024,
            ..website_fetch_limits()
        };
        let client = GuardedClient::new(OutboundPolicy::new(vec![self.addr.to_string()]), fetch);
        Crawler::new(client, limits)
    }

    fn requested(&self, prefix: &str) -> usize {
        self.requested
            .lock()
            .expect("lock")
            .iter()
            .filter(|p| p.starts_with(prefix))
            .count()
    }
}

/// Another origin (another port) with robots.txt rules of its own: `/home/` and
/// `/private/` are not for us; `/open/` is.
struct Origin {
    _server: SimServer,
    addr: SocketAddr,
    requested: Arc<Mutex<Vec<String>>>,
}

impl Origin {
    async fn start() -> Self {
        let bound = Bound::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.expect("bind");
        let addr = bound.local_addr;
        let requested = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requested);
        let server = bound.serve(poem::endpoint::make(move |req: Request| {
            let log = Arc::clone(&log);
            async move {
                let path = req.uri().path().to_owned();
                log.lock().expect("lock").push(path.clone());
                match path.as_str() {
                    "/robots.txt" => Response::builder()
                        .content_type("text/plain")
                        .body("User-agent: LeadgenBot\nDisallow: /home/\nDisallow: /private/\n"),
                    "/home/" => html("<a href='mailto:moved@other.com'>m</a>"),
                    "/private/contact" => html("<a href='mailto:private@other.com'>m</a>"),
                    "/open/" => html("<a href='mailto:open@other.com'>m</a>"),
                    _ => Response::builder().status(StatusCode::NOT_FOUND).finish(),
                }
            }
        }));
        Self {
            _server: server,
            addr,
            requested,
        }
    }

    fn requested(&self, path: &str) -> usize {
        self.requested
            .lock()
            .expect("lock")
            .iter()
            .filter(|p| *p == path)
            .count()
    }
}

fn html(body: &str) -> Response {
    Response::builder()
        .content_type("text/html; charset=utf-8")
        .body(format!("<!doctype html><html><body>{body}</body></html>"))
}

async fn respond(path: &str, addr: SocketAddr) -> Response {
    match path {
        "/robots.txt" => Response::builder()
            .content_type("text/plain")
            .body("User-agent: *\nDisallow: /blocked/\n\nUser-agent: LeadgenBot\nDisallow: /blocked/\nDisallow: /ours-only/\n"),
        "/joes/" => html(
            r#"<a href="mailto:hello@joes-pizza.com">Email</a>
            <a href="https://www.facebook.com/joespizza">Facebook</a>
            <a href="https://www.facebook.com/sharer/sharer.php?u=x">Share</a>
            <a href="contact">Contact us</a> <a href="about-us">About</a> <a href="menu">Menu</a>
            <img src="logo@2x.png" alt="logo">"#,
        ),
        "/joes/contact" => html(
            r#"<p>Orders: orders [at] joes-pizza [dot] com</p>
            <a href="https://instagram.com/joespizza/">Instagram</a>
            <a href="https://www.instagram.com/other">Other</a>"#,
        ),
        "/joes/about-us" => html("<p>Chef: chef@joes-pizza.com; template: you@example.com</p>"),
        "/joes/menu" => html("<p>menu@joes-pizza.com is never read</p>"),
        "/plain/" => html("<p>Nothing but pizza.</p>"),
        "/plain/impressum" => html("<p>Inhaber: inhaber@plain-pizza.de</p>"),
        "/staff/" => html("<p>Write to office@staff-dental.com</p>"),
        "/staff/contact" => html("<p>Dr. Maria Lopez: maria.lopez@staff-dental.com</p>"),
        "/blocked/" => html("<a href='mailto:x@blocked.com'>x</a>"),
        "/ours-only/" => html("<a href='mailto:x@ours-only.com'>x</a>"),
        "/slow/" => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            html("late@slow.com")
        }
        "/slow-contact/" => html(r#"<a href="mailto:first@slow-contact.com">m</a><a href="contact">Contact</a>"#),
        "/slow-contact/contact" => {
            tokio::time::sleep(Duration::from_secs(5)).await;
            html("late@slow-contact.com")
        }
        "/huge/" => html(&format!("<p>big@huge.com</p>{}", "<p>filler</p>".repeat(60_000))),
        "/to-private/" => Response::builder()
            .status(StatusCode::FOUND)
            .header("Location", "http://10.0.0.7/admin")
            .finish(),
        "/to-metadata/" => Response::builder()
            .status(StatusCode::MOVED_PERMANENTLY)
            .header("Location", "http://169.254.169.254/latest/meta-data/")
            .finish(),
        "/to-loopback/" => Response::builder()
            .status(StatusCode::FOUND)
            // Our own port, but as "localhost": not the exempt host:port, so refused.
            .header("Location", format!("http://localhost:{}/joes/", addr.port()))
            .finish(),
        // To another origin: `/redirect-to/{host:port}/{path}` answers a redirect there.
        p if p.starts_with("/redirect-to/") => Response::builder()
            .status(StatusCode::FOUND)
            .header("Location", format!("http://{}", &p["/redirect-to/".len()..]))
            .finish(),
        // A home page whose contact link redirects to another origin's `/private/contact`.
        p if p.starts_with("/links-to/") => {
            let other = p["/links-to/".len()..].trim_end_matches('/');
            html(&format!(
                r#"<a href="mailto:home@links.com">m</a><a href="/redirect-to/{other}/private/contact">Contact</a>"#
            ))
        }
        "/pdf/" => Response::builder().content_type("application/pdf").body("%PDF-1.7"),
        "/gone/" => Response::builder().status(StatusCode::NOT_FOUND).finish(),
        p if p.starts_with("/chain-") => {
            tokio::time::sleep(Duration::from_millis(60)).await;
            html("<a href='mailto:hq@chain.com'>hq</a>")
        }
        _ => Response::builder().status(StatusCode::NOT_FOUND).finish(),
    }
}

#[tokio::test]
async fn reads_the_home_page_and_the_likely_contact_pages() {
    let web = Web::start().await;
    let contacts = web
        .crawler(CrawlLimits::default())
        .read_site(&web.site("/joes/"))
        .await
        .expect("read");
    assert_eq!(
        contacts.emails,
        ["hello@joes-pizza.com", "orders@joes-pizza.com", "chef@joes-pizza.com"]
    );
    assert_eq!(
        contacts.socials,
        Socials {
            facebook: Some("https://www.facebook.com/joespizza".into()),
            instagram: Some("https://www.instagram.com/joespizza".into()),
            ..Socials::default()
        }
    );
    assert_eq!(contacts.contact_page, Some(web.site("/joes/contact")));
    assert_eq!(web.requested("/joes/menu"), 0, "a menu is not a contact page");
    assert_eq!(web.requested("/robots.txt"), 1);
    let json = serde_json::to_value(&contacts).expect("json");
    assert!(json.get("contactPage").is_some(), "camelCase on the wire: {json}");
}

#[tokio::test]
async fn tries_the_usual_paths_when_the_home_page_links_none() {
    let web = Web::start().await;
    let contacts = web
        .crawler(CrawlLimits::default())
        .read_site(&web.site("/plain/"))
        .await
        .expect("read");
    assert_eq!(contacts.emails, ["inhaber@plain-pizza.de"]);
    assert_eq!(contacts.contact_page, Some(web.site("/plain/impressum")));
}

#[tokio::test]
async fn the_usual_contact_page_is_read_even_when_the_home_page_shows_an_address() {
    let web = Web::start().await;
    let contacts = web
        .crawler(CrawlLimits::default())
        .read_site(&web.site("/staff/"))
        .await
        .expect("read");
    assert!(web.requested("/staff/contact") >= 1, "the usual contact page was read");
    assert_eq!(
        contacts.emails,
        ["office@staff-dental.com", "maria.lopez@staff-dental.com"]
    );
    assert_eq!(contacts.status, super::ReadStatus::Found);
}

#[tokio::test]
async fn a_site_not_read_says_why() {
    let web = Web::start().await;
    let crawler = web.crawler(CrawlLimits::default());
    let error = crawler.read_site(&web.site("/blocked/")).await.expect_err("disallowed");
    assert_eq!(super::NotRead::from(&error), super::NotRead::RobotsTxt);
    let plain = crawler.read_site(&web.site("/plain/impressum")).await.expect("read");
    assert_eq!(plain.status, super::ReadStatus::Found);
}

#[tokio::test]
async fn honours_robots_txt() {
    let web = Web::start().await;
    let crawler = web.crawler(CrawlLimits::default());
    for path in ["/blocked/", "/ours-only/"] {
        assert_eq!(
            crawler.read_site(&web.site(path)).await,
            Err(SiteError::Disallowed),
            "{path}"
        );
        assert_eq!(web.requested(path), 0, "{path} was never requested");
    }
    assert_eq!(web.requested("/robots.txt"), 1, "robots.txt is read once per origin");
}

/// A crawler that may read both the fake web and `other` (both on loopback).
fn crawler_of_both(web: &Web, other: &Origin) -> Crawler {
    let policy = OutboundPolicy::new(vec![web.addr.to_string(), other.addr.to_string()]);
    Crawler::new(
        GuardedClient::new(policy, website_fetch_limits()),
        CrawlLimits::default(),
    )
}

#[tokio::test]
async fn a_redirect_to_another_origin_is_read_under_that_origins_robots_txt() {
    let web = Web::start().await;
    let other = Origin::start().await;
    let crawler = crawler_of_both(&web, &other);
    // The home page moved to another origin whose robots.txt keeps us out of it.
    let moved = web.site(&format!("/redirect-to/{}/home/", other.addr));
    assert_eq!(crawler.read_site(&moved).await, Err(SiteError::Disallowed));
    assert_eq!(other.requested("/home/"), 0, "the disallowed page was never requested");
    assert_eq!(other.requested("/robots.txt"), 1, "the final origin's rules were read");

    // A page that origin allows is read, under the rules kept for it.
    let open = web.site(&format!("/redirect-to/{}/open/", other.addr));
    let contacts = crawler.read_site(&open).await.expect("read");
    assert_eq!(contacts.emails, ["open@other.com"]);
    assert_eq!(other.requested("/robots.txt"), 1, "kept per origin");
}

#[tokio::test]
async fn a_contact_page_redirected_to_another_origin_obeys_its_rules() {
    let web = Web::start().await;
    let other = Origin::start().await;
    let crawler = crawler_of_both(&web, &other);
    let site = web.site(&format!("/links-to/{}/", other.addr));
    let contacts = crawler.read_site(&site).await.expect("the home page is read");
    assert_eq!(contacts.emails, ["home@links.com"]);
    assert_eq!(
        other.requested("/private/contact"),
        0,
        "the redirect's target is disallowed there: not requested"
    );
    assert_eq!(other.requested("/robots.txt"), 1);
}

#[tokio::test]
async fn a_slow_site_ends_within_its_budget() {
    let web = Web::start().await;
    let limits = CrawlLimits {
        site_budget: Duration::from_millis(1200),
        ..CrawlLimits::default()
    };
    let crawler = web.crawler(limits);
    let started = Instant::now();
    assert_eq!(crawler.read_site(&web.site("/slow/")).await, Err(SiteError::TimedOut));
    assert!(
        started.elapsed() < Duration::from_millis(1000),
        "the page time-out (700 ms) cut it"
    );

    // A slow contact page costs the page's time-out, and the home page still counts.
    let started = Instant::now();
    let contacts = crawler.read_site(&web.site("/slow-contact/")).await.expect("partial");
    assert_eq!(contacts.emails, ["first@slow-contact.com"]);
    assert_eq!(contacts.contact_page, None, "the contact page was not read");
    assert!(
        started.elapsed() < Duration::from_millis(1400),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_huge_page_is_not_read_past_the_cap() {
    let web = Web::start().await;
    let result = web.crawler(CrawlLimits::default()).read_site(&web.site("/huge/")).await;
    assert!(
        matches!(&result, Err(SiteError::Unreachable(why)) if why.contains("larger than the limit")),
        "{result:?}"
    );
}

#[tokio::test]
async fn refuses_redirects_to_private_addresses() {
    let web = Web::start().await;
    let crawler = web.crawler(CrawlLimits::default());
    for (path, words) in [
        ("/to-private/", "private"),
        ("/to-metadata/", "metadata"),
        ("/to-loopback/", "loopback"),
    ] {
        let result = crawler.read_site(&web.site(path)).await;
        assert!(
            matches!(&result, Err(SiteError::Refused { reason }) if reason.contains(words)),
            "{path}: {result:?}"
        );
    }
    assert_eq!(web.requested("/joes/"), 0, "the loopback redirect was not followed");
}

#[tokio::test]
async fn refuses_private_websites_outright() {
    let crawler = Crawler::new(
        GuardedClient::new(OutboundPolicy::strict(), website_fetch_limits()),
        CrawlLimits::default(),
    );
    for website in [
        "http://127.0.0.1/",
        "http://localhost:8080/",
        "http://169.254.169.254/",
        "http://[::1]/",
        "http://10.0.0.1/",
    ] {
        assert!(
            matches!(crawler.read_site(website).await, Err(SiteError::Refused { .. })),
            "{website}"
        );
    }
    assert!(matches!(
        crawler.read_site("ftp://files.example/").await,
        Err(SiteError::Refused { .. })
    ));
    assert_eq!(crawler.read_site("   ").await, Err(SiteError::InvalidAddress));
    assert_eq!(crawler.read_site("http://").await, Err(SiteError::InvalidAddress));
}

#[tokio::test]
async fn down_missing_and_non_html_sites_say_why() {
    let web = Web::start().await;
    let crawler = web.crawler(CrawlLimits::default());
    for path in ["/gone/", "/pdf/"] {
        assert!(
            matches!(crawler.read_site(&web.site(path)).await, Err(SiteError::Unreachable(_))),
            "{path}"
        );
    }
    // A port nobody listens on, exempted so the refusal does not answer first.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = closed.local_addr().expect("addr").port();
    drop(closed);
    let crawler = Crawler::new(
        GuardedClient::new(
            OutboundPolicy::new(vec![format!("127.0.0.1:{port}")]),
            website_fetch_limits(),
        ),
        CrawlLimits::default(),
    );
    let result = crawler.read_site(&format!("http://127.0.0.1:{port}/")).await;
    assert!(
        matches!(&result, Err(SiteError::Unreachable(why)) if !why.contains("127.0.0.1")),
        "{result:?}"
    );
}

#[tokio::test]
async fn a_website_that_is_a_social_profile_is_not_crawled() {
    let crawler = Crawler::new(
        GuardedClient::new(OutboundPolicy::strict(), website_fetch_limits()),
        CrawlLimits::default(),
    );
    let contacts = crawler
        .read_site("https://www.facebook.com/JoesPizzaHouston/")
        .await
        .expect("the profile");
    assert_eq!(
        contacts.socials.facebook.as_deref(),
        Some("https://www.facebook.com/JoesPizzaHouston")
    );
    assert!(contacts.emails.is_empty());
}

#[tokio::test]
async fn one_host_gets_a_few_requests_at_a_time() {
    let web = Web::start().await;
    let crawler = web.crawler(CrawlLimits {
        per_host_concurrency: 2,
        ..CrawlLimits::default()
    });
    let sites: Vec<String> = (0..12).map(|i| web.site(&format!("/chain-{i}/"))).collect();
    let reads = sites.iter().map(|site| crawler.read_site(site));
    let results = futures_util::future::join_all(reads).await;
    assert!(
        results
            .iter()
            .all(|r| r.as_ref().is_ok_and(|c| c.emails == ["hq@chain.com"]))
    );
    let peak = web.peak.load(Ordering::SeqCst);
    assert!((1..=2).contains(&peak), "at most 2 at once, saw {peak}");
    assert_eq!(
        web.requested("/robots.txt"),
        1,
        "sites starting together fetch robots.txt once"
    );
}

#[tokio::test]
async fn the_global_limit_caps_sites_read_at_once() {
    let web = Web::start().await;
    let crawler = web.crawler(CrawlLimits {
        per_host_concurrency: 100,
        global_concurrency: 3,
        ..CrawlLimits::default()
    });
    let sites: Vec<String> = (0..12).map(|i| web.site(&format!("/chain-{i}/"))).collect();
    let results = futures_util::future::join_all(sites.iter().map(|site| crawler.read_site(site))).await;
    assert!(results.iter().all(Result::is_ok));
    let peak = web.peak.load(Ordering::SeqCst);
    assert!((1..=3).contains(&peak), "at most 3 sites at once, saw {peak}");
}

/// The crawler over the fake web: every address a site publishes in a supported form is
/// found, nothing else is, and no request reaches a refused address.
#[tokio::test]
async fn finds_every_published_email_on_the_fake_web_and_no_junk() {
    use leadgen_testkit::fake_web::{FakeWeb, Kind, Site, site_url};

    let web = FakeWeb::builder()
        .slow_delay(Duration::from_millis(300))
        .stall_delay(Duration::from_secs(10))
        .start(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("fake web");
    let fetch = FetchLimits {
        timeout: Duration::from_millis(1500),
        ..website_fetch_limits()
    };
    let crawler = Crawler::new(
        GuardedClient::new(OutboundPolicy::new(vec![web.host_port()]), fetch),
        CrawlLimits {
            per_host_concurrency: 16,
            ..CrawlLimits::default()
        },
    );
    // Enough slugs that every kind occurs several times.
    let slugs: Vec<String> = (0..240).map(|i| format!("recall-business-{i}")).collect();
    let reads = slugs.iter().map(|slug| {
        let crawler = crawler.clone();
        let url = site_url(&web.base_url, slug);
        async move { (slug, crawler.read_site(&url).await) }
    });
    let results = futures_util::future::join_all(reads).await;
    let mut kinds = std::collections::HashSet::new();
    for (slug, result) in results {
        let site = Site::of(slug);
        kinds.insert(format!("{:?}", site.kind));
        let truth = site.truth();
        let found = result.clone().unwrap_or_default();
        assert_eq!(found.emails, truth.emails, "{slug} ({:?}): {result:?}", site.kind);
        let socials = serde_json::to_value(&found.socials).expect("json");
        let expected = serde_json::to_value(&truth.socials).expect("json");
        for network in ["facebook", "instagram", "linkedin", "x", "youtube", "tiktok"] {
            let want = expected.get(network).cloned().unwrap_or(serde_json::Value::Null);
            assert_eq!(socials[network], want, "{slug} {network}");
        }
        let expected_error = match site.kind {
            Kind::Stalled => Some("TimedOut"),
            Kind::Huge | Kind::Down => Some("Unreachable"),
            Kind::Disallowed => Some("Disallowed"),
            Kind::RedirectPrivate => Some("Refused"),
            _ => None,
        };
        let error = result.as_ref().err().map(|e| format!("{e:?}"));
        match expected_error {
            Some(kind) => assert!(
                error.as_deref().is_some_and(|e| e.starts_with(kind)),
                "{slug}: {error:?}"
            ),
            None => assert_eq!(error, None, "{slug}"),
        }
    }
    assert_eq!(kinds.len(), 16, "every kind was read: {kinds:?}");
    assert_eq!(web.stats().trap_hits, 0, "no request reached a refused address");
}
