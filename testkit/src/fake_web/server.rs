//! The fake web's HTTP server: every site under one host, robots.txt for all of them,
//! and `/_web/*` routes for tests and benchmarks.

use std::{
    collections::{BTreeSet, HashMap},
    net::SocketAddr,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use poem::{EndpointExt, Request, Response, Route, handler, http::StatusCode, web::Data};
use serde_json::json;

use super::{
    pages::{self, Answer, Context},
    sites::{MEMBERS_PREFIX, SITES_PREFIX, Site},
};
use crate::sim::server::{Bound, SimServer};

/// How long a slow site's home page takes by default: slow, but within a crawler's
/// page time-out.
pub const DEFAULT_SLOW_DELAY: Duration = Duration::from_millis(1200);
/// How long a stalled site's home page takes by default: past any sane time-out.
pub const DEFAULT_STALL_DELAY: Duration = Duration::from_secs(20);

/// robots.txt of the whole fake web: open to everyone, `/members/` closed to us.
const ROBOTS_TXT: &str = "User-agent: *\nAllow: /\n\nUser-agent: LeadgenBot\nDisallow: /members/\n";

/// What the server counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WebStats {
    /// Requests served, all paths.
    pub requests: u64,
    /// Requests that arrived at the trap, the loopback target of redirecting sites: a
    /// guarded client never sends one.
    pub trap_hits: u64,
}

#[derive(Debug)]
struct State {
    ctx: Context,
    requests: AtomicU64,
    trap_hits: AtomicU64,
    /// Slugs whose home page was asked for: `/_web/truth` without `site` lists these.
    visited: Mutex<BTreeSet<String>>,
}

/// A running fake web; stops when dropped.
pub struct FakeWeb {
    /// e.g. `http://127.0.0.1:41234`: give it to places-sim, and exempt its `host:port`
    /// in `LEADGEN_OUTBOUND_ALLOWED_HOSTS`.
    pub base_url: String,
    state: Arc<State>,
    server: SimServer,
}

/// Builds a fake web: `FakeWeb::builder().slow_delay(d).start(addr).await`.
#[derive(Debug, Clone)]
#[must_use]
pub struct FakeWebBuilder {
    slow_delay: Duration,
    stall_delay: Duration,
}

impl Default for FakeWebBuilder {
    fn default() -> Self {
        Self {
            slow_delay: DEFAULT_SLOW_DELAY,
            stall_delay: DEFAULT_STALL_DELAY,
        }
    }
}

impl FakeWebBuilder {
    /// The slow sites' delay.
    pub fn slow_delay(mut self, delay: Duration) -> Self {
        self.slow_delay = delay;
        self
    }

    /// The stalled sites' delay.
    pub fn stall_delay(mut self, delay: Duration) -> Self {
        self.stall_delay = delay;
        self
    }

    /// Starts it on `addr` (port 0 picks a free one).
    pub async fn start(self, addr: SocketAddr) -> std::io::Result<FakeWeb> {
        let bound = Bound::bind(addr).await?;
        let state = Arc::new(State {
            ctx: Context {
                slow_delay: self.slow_delay,
                stall_delay: self.stall_delay,
                port: bound.local_addr.port(),
            },
            requests: AtomicU64::new(0),
            trap_hits: AtomicU64::new(0),
            visited: Mutex::default(),
        });
        let counted = Arc::clone(&state);
        let app = Route::new()
            .at("/robots.txt", poem::get(robots))
            .at("/_web/truth", poem::get(truth))
            .at("/_web/stats", poem::get(stats))
            .at("/_web/trap", trap)
            .at("/sites/*rest", poem::get(site_page))
            .at("/members/*rest", poem::get(site_page))
            .data(Arc::clone(&state))
            .before(move |req| {
                let counted = Arc::clone(&counted);
                async move {
                    counted.requests.fetch_add(1, Ordering::Relaxed);
                    Ok(req)
                }
            });
        Ok(FakeWeb {
            base_url: bound.base_url(),
            server: bound.serve(app),
            state,
        })
    }
}

impl FakeWeb {
    /// Starts a fake web with default delays on `addr` (port 0 picks a free one).
    pub async fn start(addr: SocketAddr) -> std::io::Result<Self> {
        FakeWebBuilder::default().start(addr).await
    }

    /// A builder for other delays.
    pub fn builder() -> FakeWebBuilder {
        FakeWebBuilder::default()
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// `host:port`, as `LEADGEN_OUTBOUND_ALLOWED_HOSTS` takes it.
    pub fn host_port(&self) -> String {
        self.local_addr().to_string()
    }

    /// Counters so far.
    pub fn stats(&self) -> WebStats {
        WebStats {
            requests: self.state.requests.load(Ordering::Relaxed),
            trap_hits: self.state.trap_hits.load(Ordering::Relaxed),
        }
    }
}

#[handler]
fn robots() -> Response {
    Response::builder().content_type("text/plain").body(ROBOTS_TXT)
}

/// `/{prefix}/{slug}/{page}`: a site's page (`""` is its home page).
#[handler]
async fn site_page(req: &Request, state: Data<&Arc<State>>) -> Response {
    let path = req.uri().path();
    let rest = path
        .strip_prefix(SITES_PREFIX)
        .or_else(|| path.strip_prefix(MEMBERS_PREFIX))
        .unwrap_or_default();
    let (slug, page) = rest.split_once('/').unwrap_or((rest, ""));
    if slug.is_empty() {
        return status(404);
    }
    if page.is_empty() && !path.ends_with('/') {
        // `/sites/joes` -> `/sites/joes/`, as a web server does for a directory.
        return Response::builder()
            .status(StatusCode::MOVED_PERMANENTLY)
            .header("Location", format!("{path}/"))
            .finish();
    }
    serve(path, slug, page, &state).await
}

/// One page of one site, or 404 when the site lives under the other prefix.
async fn serve(path: &str, slug: &str, page: &str, state: &State) -> Response {
    let site = Site::of(slug);
    if !path.starts_with(&site.path()) {
        return status(404);
    }
    let page = page.trim_matches('/');
    if page.is_empty() {
        state
            .visited
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(slug.to_owned());
    }
    match pages::answer(&site, page, &state.ctx) {
        Answer::Html(delay, html) => {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            Response::builder().content_type("text/html; charset=utf-8").body(html)
        }
        Answer::Status(code) => status(code),
        Answer::Redirect(to) => Response::builder()
            .status(StatusCode::FOUND)
            .header("Location", to)
            .finish(),
    }
}

fn status(code: u16) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .finish()
}

#[handler]
fn trap(state: Data<&Arc<State>>) -> Response {
    state.trap_hits.fetch_add(1, Ordering::Relaxed);
    Response::builder().body("a guarded client never gets here")
}

#[handler]
fn stats(state: Data<&Arc<State>>) -> Response {
    let stats = WebStats {
        requests: state.requests.load(Ordering::Relaxed),
        trap_hits: state.trap_hits.load(Ordering::Relaxed),
    };
    json_response(&json!(stats))
}

/// `GET /_web/truth?site=a&site=b`: what those sites publish in a supported form; without
/// `site`, every site whose home page was asked for so far.
#[handler]
fn truth(req: &Request, state: Data<&Arc<State>>) -> Response {
    let asked: Vec<String> = url::form_urlencoded::parse(req.uri().query().unwrap_or_default().as_bytes())
        .filter(|(k, _)| k == "site")
        .map(|(_, v)| v.into_owned())
        .collect();
    let slugs: Vec<String> = if asked.is_empty() {
        state
            .visited
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    } else {
        asked
    };
    let sites: HashMap<String, super::sites::Truth> = slugs
        .iter()
        .map(|slug| (slug.clone(), Site::of(slug).truth()))
        .collect();
    json_response(&json!({ "sites": sites }))
}

fn json_response(value: &serde_json::Value) -> Response {
    Response::builder()
        .content_type("application/json")
        .body(value.to_string())
}
