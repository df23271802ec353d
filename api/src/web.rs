//! The built front end (`frontend/dist`), served from the API's origin, and what search
//! engines read (`/robots.txt`, `/sitemap.xml`).
//!
//! Files are served as the build left them: `npm run build` writes a brotli (`.br`) and a
//! gzip (`.gz`) copy beside every text file worth compressing, and the copy the browser
//! accepts is sent with `Content-Encoding` (nothing is compressed per request). Hashed
//! files under `/assets/` never change, so browsers keep them for a year; the HTML is
//! revalidated on every visit so a deploy is picked up at once. Unknown paths get
//! `index.html` (the router sends unknown routes to `/`), marked `noindex` unless the path
//! is one of the public pages.

use std::path::{Path, PathBuf};

use poem::{
    Endpoint, EndpointExt, FromRequest, IntoResponse, Request, Response, Result,
    error::NotFoundError,
    handler,
    http::{HeaderValue, Method, StatusCode, header},
    web::{Data, Html, StaticFileRequest},
};

use crate::state::AppState;

/// The pages anyone may read and search engines may index; everything else is the app.
pub const PUBLIC_PAGES: [&str; 3] = ["/", "/privacy", "/terms"];

/// `Cache-Control` of content-hashed files: a new build gives them new names.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of the HTML: kept, but revalidated before every use.
pub const REVALIDATE: &str = "no-cache";
/// `Cache-Control` of unhashed files beside the HTML (the favicon).
const UNHASHED: &str = "public, max-age=86400";

/// Static files with SPA fallback, or a short page explaining how to build the UI.
pub fn spa(dir: &Path) -> poem::endpoint::BoxEndpoint<'static> {
    if dir.join("index.html").is_file() {
        WebApp { dir: dir.to_path_buf() }.map_to_response().boxed()
    } else {
        not_built.map_to_response().boxed()
    }
}

/// Serves `dir` (the built app): precompressed variants, cache lifetimes, SPA fallback.
struct WebApp {
    dir: PathBuf,
}

impl Endpoint for WebApp {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Response> {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return Ok(StatusCode::METHOD_NOT_ALLOWED.into_response());
        }
        let path = req.uri().path().to_owned();
        let accepted = Accepted::from_request(&req);
        let conditions = StaticFileRequest::from_request_without_body(&req).await?;
        match relative_file(&path) {
            Some(rel) if rel != "index.html" && self.dir.join(&rel).is_file() => {
                let cache = if rel.starts_with("assets/") {
                    IMMUTABLE
                } else {
                    UNHASHED
                };
                self.file(&rel, accepted, conditions, cache)
            }
            // A hashed file this build does not have (an old page asking for an old chunk):
            // answering with HTML would be cached for a year under a script's name.
            Some(rel) if rel.starts_with("assets/") => Err(NotFoundError.into()),
            _ => {
                let page = match path.trim_end_matches('/') {
                    "" | "/index.html" => "/",
                    page => page,
                };
                let html = self.page_html(page);
                let mut resp = self.file(&html, accepted, conditions, REVALIDATE)?;
                let public = PUBLIC_PAGES.contains(&page);
                if !public {
                    // App pages and unknown paths: the HTML is the same, but only the
                    // public pages are worth a search engine's index.
                    resp.headers_mut()
                        .insert("x-robots-tag", HeaderValue::from_static("noindex"));
                }
                Ok(resp)
            }
        }
    }
}

impl WebApp {
    /// The HTML for an app page: `pages/<name>.html` when the build wrote one for the
    /// path's first segment (the same `index.html`, preloading that page's chunks; see
    /// `routePages` in frontend/vite.config.ts), `index.html` for everything else.
    fn page_html(&self, page: &str) -> String {
        let name = page.trim_start_matches('/').split('/').next().unwrap_or_default();
        let plain = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '-');
        let file = format!("pages/{name}.html");
        if plain && self.dir.join(&file).is_file() {
            file
        } else {
            "index.html".to_owned()
        }
    }

    /// One file of the build (`rel` is checked), in the best encoding the client accepts.
    fn file(
        &self,
        rel: &str,
        accepted: Accepted,
        conditions: StaticFileRequest,
        cache: &'static str,
    ) -> Result<Response> {
        let content_type = compressible_type(rel);
        let variant = content_type.and_then(|_| {
            [(accepted.br, "br"), (accepted.gzip, "gzip")]
                .into_iter()
                .filter(|(ok, _)| *ok)
                .map(|(_, coding)| (coding, self.dir.join(format!("{rel}.{}", suffix(coding)))))
                .find(|(_, file)| file.is_file())
        });
        let mut resp = match (&variant, content_type) {
            (Some((_, file)), Some(ct)) => conditions.create_response(file, true, false)?.with_content_type(ct),
            _ => conditions.create_response(self.dir.join(rel), true, false)?,
        }
        .into_response();
        let headers = resp.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        if content_type.is_some() {
            headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
        if let Some((coding, _)) = variant
            && resp.status().is_success()
        {
            resp.headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        Ok(resp)
    }
}

/// File name suffix of a precompressed variant.
fn suffix(coding: &str) -> &'static str {
    if coding == "br" { "br" } else { "gz" }
}

/// The request path as a path inside the build, or `None` when it cannot name a file
/// there: empty, a directory, `.`/`..` or hidden segments, percent-escapes (no file of
/// the build needs one), backslashes.
fn relative_file(path: &str) -> Option<String> {
    let rel = path.trim_start_matches('/');
    let ok = !rel.is_empty()
        && !rel.contains(['%', '\\', '\0'])
        && rel.split('/').all(|seg| !seg.is_empty() && !seg.starts_with('.'));
    ok.then(|| rel.to_owned())
}

/// The content type of the files the build precompresses; `None` for the rest (images,
/// fonts), which are served as they are.
fn compressible_type(rel: &str) -> Option<&'static str> {
    let ext = rel.rsplit_once('.').map(|(_, ext)| ext)?;
    Some(match ext {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "txt" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        _ => return None,
    })
}

/// The content codings a request accepts (`Accept-Encoding`), of those we send.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Accepted {
    /// `br` (brotli) is acceptable.
    pub br: bool,
    /// `gzip` is acceptable.
    pub gzip: bool,
}

impl Accepted {
    /// Reads every `Accept-Encoding` header: a coding counts when listed (or matched by
    /// `*`) with a non-zero quality.
    pub fn from_request(req: &Request) -> Self {
        let mut listed: Vec<(String, bool)> = Vec::new();
        for value in req.headers().get_all(header::ACCEPT_ENCODING) {
            let Ok(value) = value.to_str() else { continue };
            for item in value.split(',') {
                let mut parts = item.split(';');
                let coding = parts.next().unwrap_or("").trim().to_ascii_lowercase();
                if coding.is_empty() {
                    continue;
                }
                let q = parts
                    .filter_map(|p| p.trim().strip_prefix("q="))
                    .find_map(|q| q.trim().parse::<f32>().ok())
                    .unwrap_or(1.0);
                listed.push((coding, q > 0.0));
            }
        }
        let star = listed.iter().find(|(c, _)| c == "*").map(|(_, ok)| *ok);
        let accepts = |name: &str| {
            listed
                .iter()
                .find(|(c, _)| c == name || (name == "gzip" && c == "x-gzip"))
                .map(|(_, ok)| *ok)
                .or(star)
                .unwrap_or(false)
        };
        Self {
            br: accepts("br"),
            gzip: accepts("gzip"),
        }
    }
}

/// `/robots.txt`: the public pages may be crawled; the app, its API and metrics not.
#[handler]
pub fn robots(state: Data<&AppState>) -> Response {
    let sitemap_url = page_url(&state.config.server.public_url, "/sitemap.xml");
    let body = format!(
        "User-agent: *\n\
         Disallow: /api/\n\
         Disallow: /auth/\n\
         Disallow: /billing/\n\
         Disallow: /dashboard\n\
         Disallow: /metrics\n\
         Disallow: /onboarding\n\
         Disallow: /settings\n\
         Allow: /\n\
         \n\
         Sitemap: {sitemap_url}\n"
    );
    text_response(body, "text/plain; charset=utf-8")
}

/// `/sitemap.xml`: the public pages at `LEADGEN_PUBLIC_URL`.
#[handler]
pub fn sitemap(state: Data<&AppState>) -> Response {
    let urls: String = PUBLIC_PAGES
        .iter()
        .map(|page| {
            format!(
                "  <url><loc>{}</loc></url>\n",
                xml_escape(&page_url(&state.config.server.public_url, page))
            )
        })
        .collect();
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{urls}</urlset>\n"
    );
    text_response(body, "application/xml; charset=utf-8")
}

/// A page's absolute address under the public URL (which may carry a path prefix).
pub fn page_url(public_url: &url::Url, page: &str) -> String {
    public_url.join(page.trim_start_matches('/')).map_or_else(
        |_| format!("{}{page}", public_url.as_str().trim_end_matches('/')),
        String::from,
    )
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn text_response(body: String, content_type: &'static str) -> Response {
    Response::builder()
        .content_type(content_type)
        .header(header::CACHE_CONTROL, "public, max-age=3600")
        .body(body)
}

#[handler]
fn not_built() -> Html<&'static str> {
    Html(
        "<!doctype html><title>Leadgen</title><h1>Leadgen API is running</h1>\
         <p>The web app is not built. Start Leadgen with <code>./leadgen run</code>, which builds it, \
         or read the API docs at <a href=\"/api/docs\">/api/docs</a>.</p>",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepted(values: &[&str]) -> Accepted {
        let mut req = Request::builder();
        for v in values {
            req = req.header(header::ACCEPT_ENCODING, *v);
        }
        Accepted::from_request(&req.finish())
    }

    #[test]
    fn accept_encoding_is_negotiated() {
        assert_eq!(accepted(&[]), Accepted::default());
        assert_eq!(
            accepted(&["gzip, deflate, br, zstd"]),
            Accepted { br: true, gzip: true }
        );
        assert_eq!(accepted(&["gzip"]), Accepted { br: false, gzip: true });
        assert_eq!(accepted(&["br;q=0, gzip;q=0.5"]), Accepted { br: false, gzip: true });
        assert_eq!(accepted(&["*"]), Accepted { br: true, gzip: true });
        assert_eq!(accepted(&["*;q=1, gzip;q=0"]), Accepted { br: true, gzip: false });
        assert_eq!(accepted(&["identity"]), Accepted::default());
        assert_eq!(accepted(&["deflate", "BR"]), Accepted { br: true, gzip: false });
    }

    #[test]
    fn only_plain_paths_name_files() {
        assert_eq!(
            relative_file("/assets/index-abc.js").as_deref(),
            Some("assets/index-abc.js")
        );
        assert_eq!(relative_file("/favicon.svg").as_deref(), Some("favicon.svg"));
        for bad in [
            "/",
            "/assets/",
            "/../secrets.json",
            "/assets/../x",
            "/.env",
            "/a//b",
            "/%2e%2e/x",
            "/a\\b",
        ] {
            assert_eq!(relative_file(bad), None, "{bad}");
        }
    }

    #[test]
    fn page_urls_follow_the_public_url() {
        let root = url::Url::parse("https://leads.example.com/").expect("url");
        assert_eq!(page_url(&root, "/"), "https://leads.example.com/");
        assert_eq!(page_url(&root, "/privacy"), "https://leads.example.com/privacy");
        let prefixed = url::Url::parse("https://example.com/leadgen/").expect("url");
        assert_eq!(page_url(&prefixed, "/terms"), "https://example.com/leadgen/terms");
    }
}
