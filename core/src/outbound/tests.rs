//! The guarded client against a real local server: every refusal (and that a refused
//! address receives no request), redirects, pinning, time-outs and size caps.

use std::{
    collections::HashMap,
    io,
    net::{IpAddr, SocketAddr},
    sync::{
        Arc, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use leadgen_testkit::sim::server::{Bound, SimServer};
use poem::{Body, Request, Response, http::StatusCode};

use super::{resolver::BoxFuture, *};

/// A local server that counts the requests it receives.
struct Peer {
    _server: SimServer,
    addr: SocketAddr,
    hits: Arc<AtomicUsize>,
}

impl Peer {
    async fn start() -> Self {
        let bound = Bound::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await.expect("bind");
        let addr = bound.local_addr;
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&hits);
        let server = bound.serve(poem::endpoint::make(move |req: Request| {
            counter.fetch_add(1, Ordering::SeqCst);
            respond(req)
        }));
        Self {
            _server: server,
            addr,
            hits,
        }
    }

    fn url(&self, path: &str) -> Url {
        Url::parse(&format!("http://{}{path}", self.addr)).expect("url")
    }

    fn allowed(&self) -> String {
        self.addr.to_string()
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

async fn respond(req: Request) -> Response {
    let query: HashMap<String, String> = url::form_urlencoded::parse(req.uri().query().unwrap_or("").as_bytes())
        .into_owned()
        .collect();
    match req.uri().path() {
        "/ok" => Response::builder().content_type("text/html").body("hello"),
        "/redirect" => Response::builder()
            .status(StatusCode::FOUND)
            .header("Location", query.get("to").cloned().unwrap_or_default())
            .header("Set-Cookie", "session=abc; Path=/")
            .finish(),
        "/loop" => Response::builder()
            .status(StatusCode::MOVED_PERMANENTLY)
            .header("Location", "/loop")
            .finish(),
        "/echo" => {
            let header = |name: &str| {
                req.headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("")
                    .to_owned()
            };
            let body = format!(
                "cookie={}|ua={}|sig={}",
                header("cookie"),
                header("user-agent"),
                header("webhook-signature")
            );
            Response::builder().body(body)
        }
        "/slow" => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            Response::builder().body("late")
        }
        "/trickle" => {
            // Headers at once, then a body that never ends in time.
            let chunks = futures_util::stream::unfold(0u32, |n| async move {
                tokio::time::sleep(Duration::from_millis(100)).await;
                Some((Ok::<_, io::Error>(bytes::Bytes::from_static(b"x")), n + 1))
            });
            Response::builder().body(Body::from_bytes_stream(chunks))
        }
        "/sized" => {
            let n: usize = query.get("n").and_then(|n| n.parse().ok()).unwrap_or(0);
            Response::builder().body(vec![b'a'; n])
        }
        "/streamed" => {
            // No Content-Length: the cap must hold while reading.
            let n: usize = query.get("n").and_then(|n| n.parse().ok()).unwrap_or(0);
            let chunks = futures_util::stream::iter(
                std::iter::repeat_n(bytes::Bytes::from(vec![b'b'; 1024]), n.div_ceil(1024)).map(Ok::<_, io::Error>),
            );
            Response::builder().body(Body::from_bytes_stream(chunks))
        }
        _ => Response::builder().status(StatusCode::NOT_FOUND).finish(),
    }
}

fn limits() -> FetchLimits {
    FetchLimits {
        timeout: Duration::from_millis(800),
        connect_timeout: Duration::from_millis(400),
        max_body_bytes: 64 * 1024,
        max_redirects: 3,
        ..FetchLimits::default()
    }
}

fn strict() -> GuardedClient {
    GuardedClient::new(OutboundPolicy::strict(), limits())
}

fn exempting(peer: &Peer) -> GuardedClient {
    GuardedClient::new(OutboundPolicy::new(vec![peer.allowed()]), limits())
}

fn refused(result: Result<Fetched, OutboundError>) -> String {
    match result {
        Err(OutboundError::Refused { reason }) => reason,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Answers from a table, counting lookups; a name may answer differently on later calls.
struct TableLookup {
    answers: HashMap<&'static str, Vec<Vec<IpAddr>>>,
    calls: Mutex<HashMap<String, usize>>,
}

impl TableLookup {
    fn new(answers: &[(&'static str, &[&[&str]])]) -> Arc<Self> {
        let answers = answers
            .iter()
            .map(|(name, calls)| {
                let calls = calls
                    .iter()
                    .map(|ips| ips.iter().map(|ip| ip.parse().expect("ip")).collect())
                    .collect();
                (*name, calls)
            })
            .collect();
        Arc::new(Self {
            answers,
            calls: Mutex::default(),
        })
    }

    fn calls(&self, name: &str) -> usize {
        self.calls.lock().expect("lock").get(name).copied().unwrap_or(0)
    }
}

impl Lookup for TableLookup {
    fn lookup(&self, host: &str) -> BoxFuture<io::Result<Vec<IpAddr>>> {
        let mut calls = self.calls.lock().expect("lock");
        let n = calls.entry(host.to_owned()).or_default();
        let answer = self.answers.get(host).map(|answers| {
            let i = (*n).min(answers.len() - 1);
            answers[i].clone()
        });
        *n += 1;
        Box::pin(async move { answer.ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "unknown host")) })
    }
}

#[tokio::test]
async fn an_exempt_host_is_fetched() {
    let peer = Peer::start().await;
    let fetched = exempting(&peer).get(&peer.url("/ok")).await.expect("fetched");
    assert_eq!(fetched.status, 200);
    assert_eq!(&fetched.body[..], b"hello");
    assert_eq!(fetched.content_type.as_deref(), Some("text/html"));
    assert_eq!(fetched.final_url, peer.url("/ok"));
}

#[tokio::test]
async fn refuses_schemes_other_than_http_and_https() {
    let client = strict();
    for url in [
        "ftp://example.com/file",
        "file:///etc/passwd",
        "gopher://example.com/",
        "data:text/plain,hello",
        "javascript:alert(1)",
        "ws://example.com/",
    ] {
        let reason = refused(client.get(&Url::parse(url).expect("url")).await);
        assert!(reason.contains("only http and https"), "{url}: {reason}");
    }
}

#[tokio::test]
async fn refuses_every_non_public_literal_address_without_sending_a_request() {
    let peer = Peer::start().await;
    let client = strict();
    let port = peer.addr.port();
    for url in [
        format!("http://127.0.0.1:{port}/ok"),
        format!("http://127.1:{port}/ok"),
        format!("http://2130706433:{port}/ok"),
        format!("http://0x7f.0.0.1:{port}/ok"),
        format!("http://0.0.0.0:{port}/ok"),
        format!("http://[::1]:{port}/ok"),
        format!("http://[::ffff:127.0.0.1]:{port}/ok"),
        format!("http://[::]:{port}/ok"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://[::ffff:169.254.169.254]/".to_owned(),
        "http://10.1.2.3/".to_owned(),
        "http://172.16.0.1/".to_owned(),
        "http://192.168.0.1/".to_owned(),
        "http://100.64.0.1/".to_owned(),
        "http://[fd00::1]/".to_owned(),
        "http://[fe80::1]/".to_owned(),
        "http://224.0.0.1/".to_owned(),
        "http://[ff02::1]/".to_owned(),
        "https://255.255.255.255/".to_owned(),
    ] {
        let reason = refused(client.get(&Url::parse(&url).expect("url")).await);
        assert!(reason.starts_with("the host is "), "{url}: {reason}");
    }
    assert_eq!(peer.hits(), 0, "no refused address was contacted");
    let reason = refused(client.get(&Url::parse("http://169.254.169.254/").expect("url")).await);
    assert_eq!(reason, "the host is the cloud metadata address");
}

#[tokio::test]
async fn refuses_names_that_resolve_to_non_public_addresses() {
    let peer = Peer::start().await;
    let port = peer.addr.port();
    // The system resolver: localhost is loopback.
    let reason = refused(strict().get(&peer_url("localhost", port)).await);
    assert!(reason.contains("loopback"), "{reason}");

    let lookup = TableLookup::new(&[
        ("intranet.test", &[&["10.0.0.5"]]),
        ("metadata.test", &[&["169.254.169.254"]]),
        ("mixed.test", &[&["93.184.216.34", "127.0.0.1"]]),
        ("ula.test", &[&["fd00::5"]]),
        ("mapped.test", &[&["::ffff:192.168.1.1"]]),
    ]);
    let client = GuardedClient::with_lookup(OutboundPolicy::strict(), limits(), lookup.clone());
    for (name, words) in [
        ("intranet.test", "private"),
        ("metadata.test", "metadata"),
        ("mixed.test", "loopback"),
        ("ula.test", "unique-local"),
        ("mapped.test", "private"),
    ] {
        let reason = refused(client.get(&peer_url(name, port)).await);
        assert!(reason.contains(words), "{name}: {reason}");
        assert!(!reason.contains(name), "the reason does not repeat the host");
    }
    assert_eq!(peer.hits(), 0, "no refused address was contacted");
}

fn peer_url(host: &str, port: u16) -> Url {
    Url::parse(&format!("http://{host}:{port}/ok")).expect("url")
}

#[tokio::test]
async fn the_connection_goes_to_the_address_that_was_checked() {
    // A rebinding name: public on the first lookup, loopback (where our peer listens) on
    // any later one. A client that checked, then resolved again to connect, would reach
    // the peer; the guarded one connects to the checked public address or fails.
    let peer = Peer::start().await;
    let lookup = TableLookup::new(&[("rebind.test", &[&["192.88.99.200"], &["127.0.0.1"]])]);
    let client = GuardedClient::with_lookup(OutboundPolicy::strict(), limits(), lookup.clone());
    let result = client.get(&peer_url("rebind.test", peer.addr.port())).await;
    assert!(
        matches!(result, Err(OutboundError::Connect(_) | OutboundError::TimedOut)),
        "{result:?}"
    );
    assert_eq!(
        lookup.calls("rebind.test"),
        1,
        "one lookup: the checked answer is the one used"
    );
    assert_eq!(peer.hits(), 0, "the loopback peer was never reached");
}

#[tokio::test]
async fn redirects_are_checked_like_the_first_address() {
    let peer = Peer::start().await;
    let target = Peer::start().await; // loopback, not exempt
    let client = exempting(&peer);
    let port = target.addr.port();
    for to in [
        format!("http://127.0.0.1:{port}/ok"),
        format!("http://localhost:{port}/ok"),
        format!("http://[::1]:{port}/ok"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://10.0.0.1/".to_owned(),
        "file:///etc/passwd".to_owned(),
        "ftp://example.com/".to_owned(),
    ] {
        let mut from = peer.url("/redirect");
        from.query_pairs_mut().append_pair("to", &to);
        let reason = refused(client.get(&from).await);
        assert!(!reason.is_empty(), "{to}");
    }
    assert_eq!(target.hits(), 0, "no redirect reached a refused address");
}

#[tokio::test]
async fn follows_a_few_redirects_and_no_more() {
    let peer = Peer::start().await;
    let client = exempting(&peer);
    let mut hop = peer.url("/redirect");
    hop.query_pairs_mut().append_pair("to", "/ok");
    let fetched = client.get(&hop).await.expect("followed");
    assert_eq!(&fetched.body[..], b"hello");
    assert_eq!(fetched.final_url, peer.url("/ok"));

    let before = peer.hits();
    let result = client.get(&peer.url("/loop")).await;
    assert!(
        matches!(&result, Err(OutboundError::Http(words)) if words.contains("more than 3 redirects")),
        "{result:?}"
    );
    assert_eq!(peer.hits() - before, 4, "the first request and three redirects");
}

#[tokio::test]
async fn sends_no_cookies_and_a_clear_user_agent() {
    let peer = Peer::start().await;
    let client = exempting(&peer);
    // The redirect sets a cookie; the next hop must not send it back.
    let mut hop = peer.url("/redirect");
    hop.query_pairs_mut().append_pair("to", "/echo");
    let fetched = client.get(&hop).await.expect("fetched");
    let body = String::from_utf8_lossy(&fetched.body).into_owned();
    assert!(body.starts_with("cookie=|"), "{body}");
    assert!(body.contains("ua=LeadgenBot/"), "{body}");
}

#[tokio::test]
async fn a_slow_site_times_out_within_the_limit() {
    let peer = Peer::start().await;
    let client = exempting(&peer);
    for path in ["/slow", "/trickle"] {
        let started = Instant::now();
        let result = client.get(&peer.url(path)).await;
        assert_eq!(result.err(), Some(OutboundError::TimedOut), "{path}");
        assert!(
            started.elapsed() < Duration::from_millis(1500),
            "{path}: {:?}",
            started.elapsed()
        );
    }
}

#[tokio::test]
async fn a_body_over_the_cap_is_too_large() {
    let peer = Peer::start().await;
    let client = exempting(&peer);
    let cap = limits().max_body_bytes;
    for path in ["/sized", "/streamed"] {
        let mut at_cap = peer.url(path);
        at_cap.query_pairs_mut().append_pair("n", &cap.to_string());
        let fetched = client.get(&at_cap).await.expect("a body of exactly the cap");
        assert_eq!(fetched.body.len(), cap, "{path}");

        let mut over = peer.url(path);
        over.query_pairs_mut().append_pair("n", &(cap * 4).to_string());
        assert_eq!(client.get(&over).await.err(), Some(OutboundError::TooLarge), "{path}");
    }
}

#[tokio::test]
async fn post_sends_headers_and_follows_no_redirect() {
    let peer = Peer::start().await;
    let target = Peer::start().await;
    let client = exempting(&peer);
    let fetched = client
        .post(
            &peer.url("/echo"),
            &[("webhook-signature", "v1,abc".to_owned())],
            b"{}".to_vec(),
        )
        .await
        .expect("posted");
    assert!(String::from_utf8_lossy(&fetched.body).contains("sig=v1,abc"));

    let mut hop = peer.url("/redirect");
    hop.query_pairs_mut()
        .append_pair("to", &format!("http://127.0.0.1:{}/ok", target.addr.port()));
    let fetched = client.post(&hop, &[], Vec::new()).await.expect("a response");
    assert_eq!(fetched.status, 302, "the redirect itself is the answer");
    assert_eq!(target.hits(), 0);

    let reason = refused(strict().post(&target.url("/ok"), &[], Vec::new()).await);
    assert!(reason.contains("loopback"), "{reason}");
    assert_eq!(target.hits(), 0, "a webhook to a refused address sends nothing");
}

#[tokio::test]
async fn errors_never_repeat_the_address() {
    let lookup = TableLookup::new(&[]);
    let client = GuardedClient::with_lookup(OutboundPolicy::strict(), limits(), lookup);
    let err = client
        .get(&Url::parse("http://secret-business.test/").expect("url"))
        .await
        .expect_err("unknown host");
    assert!(matches!(err, OutboundError::Connect(_)), "{err:?}");
    assert!(!err.to_string().contains("secret-business"), "{err}");
}

#[tokio::test]
async fn refusals_are_counted_for_operators() {
    let refused_so_far = || {
        crate::telemetry::metrics::metrics()
            .outbound_requests
            .get_or_create(&crate::telemetry::metrics::OutcomeLabels {
                outcome: "refused".into(),
            })
            .get()
    };
    let before = refused_so_far();
    let _ = strict().get(&Url::parse("http://169.254.169.254/").expect("url")).await;
    assert!(
        refused_so_far() > before,
        "leadgen_outbound_requests_total{{outcome=\"refused\"}} went up"
    );
}

/// What a webhook's owner reads of a failure (#25): refused, unknown and closed addresses
/// all read the same; a server that does not speak TLS, a slow one and a huge answer each
/// have their own plain outcome. The client's error keeps the detail, for the server log.
#[tokio::test]
async fn delivery_outcomes_do_not_tell_one_unreachable_address_from_another() {
    use crate::webhooks::DeliveryFailure;

    let peer = Peer::start().await;
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr")
    };
    let lookup = TableLookup::new(&[("intranet.test", &[&["10.0.0.5"]])]);
    let policy = OutboundPolicy::new(vec![peer.allowed(), closed.to_string()]);
    let client = GuardedClient::with_lookup(policy, limits(), lookup);
    let post = |url: String| {
        let client = client.clone();
        async move {
            let url = Url::parse(&url).expect("url");
            client.post(&url, &[], b"{}".to_vec()).await.expect_err("a failure")
        }
    };
    let unreachable = [
        post(format!("http://intranet.test:{}/ok", peer.addr.port())).await,
        post(format!("http://missing.test:{}/ok", peer.addr.port())).await,
        post("http://169.254.169.254/latest/meta-data/".into()).await,
        post(format!("http://{closed}/ok")).await,
    ];
    for error in &unreachable {
        assert_eq!(DeliveryFailure::of(error), DeliveryFailure::Unreachable, "{error}");
    }
    // The details differ (they are the server log's).
    assert!(
        matches!(unreachable[0], OutboundError::Refused { .. }),
        "{:?}",
        unreachable[0]
    );
    assert!(
        matches!(unreachable[1], OutboundError::Connect(_)),
        "{:?}",
        unreachable[1]
    );
    assert!(
        matches!(unreachable[3], OutboundError::Connect(_)),
        "{:?}",
        unreachable[3]
    );

    let tls = post(format!("https://{}/ok", peer.addr)).await;
    assert!(matches!(tls, OutboundError::Tls(_)), "{tls:?}");
    assert_eq!(DeliveryFailure::of(&tls).to_string(), "TLS error");
    let slow = post(peer.url("/slow").to_string()).await;
    assert_eq!(DeliveryFailure::of(&slow).to_string(), "timed out");
    let mut huge = peer.url("/sized");
    huge.query_pairs_mut()
        .append_pair("n", &(limits().max_body_bytes * 2).to_string());
    let huge = post(huge.to_string()).await;
    assert_eq!(DeliveryFailure::of(&huge).to_string(), "response too large");
    assert_eq!(peer.hits(), 2, "only the slow and the huge answer reached the peer");
}
