//! The web app's delivery: precompressed files, cache lifetimes, SPA fallback, what search
//! engines read, compressed JSON, and a live stream that compression never holds back.

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use futures_util::StreamExt;
use leadgen_testkit::places_sim::PlacesSim;
use poem::{EndpointExt, handler, middleware::Compression, test::TestClient};

use crate::{
    search::env::{Mode, SearchEnv, parse_sse},
    support::{Backend, TestApp},
};

const JS: &str = "assets/index-Ab12Cd34.js";

/// A build as `npm run build` leaves it: files and their `.br`/`.gz` copies (whose bytes
/// say which copy was sent).
fn fake_build() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("leadgen-web-{}", uuid::Uuid::new_v4().simple()));
    let write = |rel: &str, body: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, body).expect("write");
    };
    write("index.html", "<!doctype html><title>Leadgen</title><div id=root></div>");
    write("index.html.br", "index-br");
    write("index.html.gz", "index-gz");
    write(JS, "console.log('app')");
    write(&format!("{JS}.br"), "js-br");
    write(&format!("{JS}.gz"), "js-gz");
    write("assets/only-gzip-Zz99.css", "body{}");
    write("assets/only-gzip-Zz99.css.gz", "css-gz");
    write("favicon.svg", "<svg/>");
    dir
}

async fn app_serving(dir: &Path) -> TestApp {
    TestApp::start(
        Backend::Sqlite,
        vec![
            ("LEADGEN_WEB_DIR", dir.display().to_string()),
            ("LEADGEN_PUBLIC_URL", "https://leads.example.com".to_owned()),
        ],
    )
    .await
}

async fn get(app: &TestApp, path: &str, accept: Option<&str>) -> (poem::test::TestResponse, String) {
    let mut req = app.client.get(path);
    if let Some(a) = accept {
        req = req.header("accept-encoding", a);
    }
    let resp = req.send().await;
    let (status, headers) = (resp.0.status(), resp.0.headers().clone());
    let body = resp.0.into_body().into_string().await.unwrap_or_default();
    let mut rebuilt = poem::Response::builder().status(status).body(body.clone());
    *rebuilt.headers_mut() = headers;
    (poem::test::TestResponse(rebuilt), body)
}

#[tokio::test]
async fn hashed_assets_are_served_precompressed_and_cached_for_good() {
    let dir = fake_build();
    let app = app_serving(&dir).await;
    let path = format!("/{JS}");

    let (resp, body) = get(&app, &path, Some("gzip, deflate, br, zstd")).await;
    resp.assert_status_is_ok();
    assert_eq!(body, "js-br", "brotli preferred when accepted");
    resp.assert_header("content-encoding", "br");
    resp.assert_header("content-type", "text/javascript; charset=utf-8");
    resp.assert_header("cache-control", "public, max-age=31536000, immutable");
    resp.assert_header("vary", "accept-encoding");

    let (resp, body) = get(&app, &path, Some("gzip")).await;
    assert_eq!(body, "js-gz");
    resp.assert_header("content-encoding", "gzip");
    resp.assert_header("vary", "accept-encoding");

    let (resp, body) = get(&app, &path, None).await;
    assert_eq!(body, "console.log('app')", "identity without Accept-Encoding");
    resp.assert_header_is_not_exist("content-encoding");
    resp.assert_header("vary", "accept-encoding");
    resp.assert_header("cache-control", "public, max-age=31536000, immutable");

    // A file with only a gzip copy: gzip for a brotli browser, never a missing .br.
    let (resp, body) = get(&app, "/assets/only-gzip-Zz99.css", Some("br, gzip")).await;
    assert_eq!(body, "css-gz");
    resp.assert_header("content-encoding", "gzip");
    resp.assert_header("content-type", "text/css; charset=utf-8");

    // A chunk this build does not have is a 404, not the HTML under a script's name.
    let (resp, _) = get(&app, "/assets/index-Old00000.js", Some("br")).await;
    resp.assert_status(poem::http::StatusCode::NOT_FOUND);
    let (resp, _) = get(&app, "/../Cargo.toml", None).await;
    resp.assert_header("cache-control", "no-cache");

    let (resp, _) = get(&app, "/favicon.svg", Some("br")).await;
    resp.assert_status_is_ok();
    resp.assert_header("cache-control", "public, max-age=86400");
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn the_html_is_revalidated_and_app_pages_are_not_indexed() {
    let dir = fake_build();
    let app = app_serving(&dir).await;
    for page in ["/", "/privacy", "/terms"] {
        let (resp, body) = get(&app, page, Some("br")).await;
        resp.assert_status_is_ok();
        assert_eq!(body, "index-br", "{page}");
        resp.assert_header("cache-control", "no-cache");
        resp.assert_header("content-type", "text/html; charset=utf-8");
        resp.assert_header("vary", "accept-encoding");
        resp.assert_header_is_not_exist("x-robots-tag");
    }
    for page in [
        "/dashboard",
        "/settings",
        "/onboarding",
        "/billing/success",
        "/auth/error",
        "/no-such-page",
    ] {
        let (resp, body) = get(&app, page, Some("gzip")).await;
        resp.assert_status_is_ok();
        assert_eq!(body, "index-gz", "{page}");
        resp.assert_header("cache-control", "no-cache");
        resp.assert_header("x-robots-tag", "noindex");
    }
    let (resp, body) = get(&app, "/dashboard", None).await;
    assert!(body.starts_with("<!doctype html>"), "{body}");
    resp.assert_header_is_not_exist("content-encoding");
    std::fs::remove_dir_all(dir).ok();
}

/// An app page the build wrote its own HTML for (preloading its chunks) is served that
/// HTML, precompressed like the rest; other paths keep `index.html`.
#[tokio::test]
async fn app_pages_get_the_html_that_preloads_their_chunks() {
    let dir = fake_build();
    std::fs::create_dir_all(dir.join("pages")).expect("dir");
    std::fs::write(dir.join("pages/dashboard.html"), "<!doctype html><!-- dashboard -->").expect("write");
    std::fs::write(dir.join("pages/dashboard.html.br"), "dashboard-br").expect("write");
    let app = app_serving(&dir).await;

    for page in ["/dashboard", "/dashboard/", "/dashboard/anything"] {
        let (resp, body) = get(&app, page, Some("br")).await;
        resp.assert_status_is_ok();
        assert_eq!(body, "dashboard-br", "{page}");
        resp.assert_header("cache-control", "no-cache");
        resp.assert_header("x-robots-tag", "noindex");
    }
    let (_, body) = get(&app, "/dashboard", Some("gzip")).await;
    assert_eq!(
        body, "<!doctype html><!-- dashboard -->",
        "no gzip copy: the file as it is"
    );
    for page in ["/", "/settings", "/Dashboard", "/dash%62oard", "/pages"] {
        let (resp, body) = get(&app, page, Some("br")).await;
        resp.assert_status_is_ok();
        assert_eq!(body, "index-br", "{page}");
    }
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test]
async fn robots_txt_is_a_robots_file_with_the_sitemap() {
    let dir = fake_build();
    let app = app_serving(&dir).await;
    let (resp, body) = get(&app, "/robots.txt", None).await;
    resp.assert_status_is_ok();
    resp.assert_header("content-type", "text/plain; charset=utf-8");
    assert!(body.starts_with("User-agent: *\n"), "{body}");
    for rule in [
        "Disallow: /api/",
        "Disallow: /dashboard",
        "Disallow: /settings",
        "Disallow: /onboarding",
        "Allow: /",
        "Sitemap: https://leads.example.com/sitemap.xml",
    ] {
        assert!(body.lines().any(|l| l == rule), "{rule} in:\n{body}");
    }
    assert!(!body.contains('<'), "not the app's HTML: {body}");

    let (resp, body) = get(&app, "/sitemap.xml", None).await;
    resp.assert_status_is_ok();
    resp.assert_header("content-type", "application/xml; charset=utf-8");
    assert!(body.starts_with("<?xml"), "{body}");
    let locs: Vec<&str> = body
        .split("<loc>")
        .skip(1)
        .filter_map(|s| s.split("</loc>").next())
        .collect();
    assert_eq!(
        locs,
        [
            "https://leads.example.com/",
            "https://leads.example.com/privacy",
            "https://leads.example.com/terms"
        ]
    );
    std::fs::remove_dir_all(dir).ok();
}

/// Inflates a body with poem's own decoders (its `Compression` middleware decodes
/// requests by `Content-Encoding`).
async fn decode(encoding: &str, body: Vec<u8>) -> String {
    #[handler]
    fn echo(body: Vec<u8>) -> Vec<u8> {
        body
    }
    let client = TestClient::new(echo.with(Compression::new()));
    let resp = client
        .post("/")
        .header("content-encoding", encoding)
        .body(body)
        .send()
        .await;
    resp.0.into_body().into_string().await.expect("decoded")
}

#[tokio::test]
async fn large_json_answers_are_compressed_small_ones_are_not() {
    let app = TestApp::start(Backend::Sqlite, vec![]).await;
    let plain = app
        .client
        .get("/api/openapi.json")
        .send()
        .await
        .0
        .into_body()
        .into_string()
        .await
        .expect("spec");
    assert!(plain.len() > 10_000, "the spec is large");

    for encoding in ["gzip", "br"] {
        let resp = app
            .client
            .get("/api/openapi.json")
            .header("accept-encoding", format!("{encoding}, deflate"))
            .send()
            .await;
        resp.assert_status_is_ok();
        resp.assert_header("content-encoding", encoding);
        resp.assert_header("vary", "accept-encoding");
        let body = resp.0.into_body().into_vec().await.expect("body");
        assert!(
            body.len() * 4 < plain.len(),
            "{encoding}: {} of {} bytes",
            body.len(),
            plain.len()
        );
        assert_eq!(decode(encoding, body).await, plain, "{encoding} decodes to the spec");
    }

    let (_, token) = app.sign_in("compressed").await;
    let resp = app
        .client
        .get("/api/leads/business-types")
        .header("authorization", format!("Bearer {token}"))
        .header("accept-encoding", "br")
        .send()
        .await;
    resp.assert_status_is_ok();
    resp.assert_header("content-encoding", "br");

    // A small answer is sent as it is.
    let resp = app
        .client
        .get("/api/health")
        .header("accept-encoding", "gzip, br")
        .send()
        .await;
    resp.assert_status_is_ok();
    resp.assert_header_is_not_exist("content-encoding");
}

/// With Google answering each page after a second, a browser offering gzip and brotli gets
/// the first lead after the first page, not when the search completes, and uncompressed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_stream_is_never_compressed_or_held_back() {
    const PAGE: Duration = Duration::from_millis(1500);
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder().latency(PAGE), 0, vec![]).await;
    let city = env.dense_city("restaurant", 60);
    let started = Instant::now();
    let resp = env
        .app
        .client
        .post("/api/leads/search-stream")
        .header("authorization", format!("Bearer {}", env.token))
        .header("accept-encoding", "gzip, deflate, br")
        .body_json(&serde_json::json!({"businessType": "restaurant", "location": city}))
        .send()
        .await;
    resp.assert_status_is_ok();
    resp.assert_header_is_not_exist("content-encoding");
    let content_type = resp.0.headers()["content-type"].to_str().expect("type").to_owned();
    assert!(content_type.starts_with("text/event-stream"), "{content_type}");

    let mut body = resp.0.into_body().into_bytes_stream();
    let mut text = String::new();
    let mut first_lead = None;
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(30), body.next())
        .await
        .expect("the stream goes on")
    {
        text.push_str(std::str::from_utf8(&chunk.expect("chunk")).expect("plain UTF-8 text, not compressed bytes"));
        if first_lead.is_none() && parse_sse(&text).iter().any(|(_, e)| e["type"] == "business_found") {
            first_lead = Some(started.elapsed());
        }
    }
    let total = started.elapsed();
    let events = parse_sse(&text);
    assert_eq!(events.last().expect("events").1["type"], "complete", "{text}");
    let first_lead = first_lead.expect("a lead");
    assert!(total >= PAGE * 3, "three pages, each after {PAGE:?}: {total:?}");
    assert!(
        first_lead < PAGE * 2,
        "the first lead arrives with the first page ({first_lead:?}), not with the last ({total:?})"
    );
}
