//! Builds the HTTP application: the OpenAPI service under `/api`, its spec and docs, and
//! the web app with SPA fallback, and the files search engines read.

use poem::{Endpoint, EndpointExt, Route};
use poem_openapi::{OpenApiService, ServerObject};

use crate::{
    auth, body_limit::BodyLimit, compression::CompressLarge, error, payload_errors::PlainPayloadErrors, routes,
    security_headers::SecurityHeaders, state::AppState, telemetry, web,
};

/// The OpenAPI service (no state needed: `leadgen-api openapi` prints its spec).
pub fn openapi_service() -> OpenApiService<routes::Apis, ()> {
    OpenApiService::new(routes::api(), "Leadgen API", env!("CARGO_PKG_VERSION"))
        .description(
            "Find local businesses through Google Places API (New) with your own key, and export them. \
             Every operation except sign-in, the public plan list, health and these docs needs \
             `Authorization: Bearer <token>`. Errors share one envelope: `{\"error\": code, \"message\": text}`. \
             Any operation but health and these docs may answer 429 `rate_limited` with `Retry-After` (seconds) \
             when a user, an address or a personal API token sends too many requests (600, 1200 and 120 a \
             minute by default). A body above its operation's limit (256 KiB; the export 16 MiB) answers 413 \
             `payload_too_large`. In local mode (no identity provider) a request naming a `Host` other than \
             this machine's loopback address and port answers 403 `foreign_host`. Personal API tokens (`lgp_...`) are bearer tokens too, limited to their scopes: \
             each operation's description names the scope it needs. In these interactive docs, choose Authorize \
             and paste a token to try operations. Quickstart: docs/api-quickstart.md.",
        )
        .url_prefix("/api")
        // OpenAPI readers want a server named (redocly's `no-empty-servers`): the one
        // serving the document, whatever its address.
        .server(ServerObject::new("/").description("The server serving this document"))
}

/// The spec as JSON, as committed in `openapi.json`: poem-openapi's, with the statuses
/// whole classes of operations answer (`openapi_contract`), the rules core's parsers
/// hold request fields to (`openapi_rules`), an example on every operation
/// (`openapi_examples`) and what OpenAPI readers require (`openapi_readers`), applied
/// on the typed document (`openapi_document`), after each workspace-scoped operation's
/// header and role (`openapi_workspaces`).
pub fn openapi_json() -> String {
    crate::openapi_document::finish(&openapi_service().spec())
}

/// The interactive docs (Swagger UI) showing [`openapi_json`]. Its Authorize button takes
/// a session token or a personal API token (`lgp_...`).
fn docs_html(api: &OpenApiService<routes::Apis, ()>) -> String {
    // poem-openapi's page embeds its own spec; put the one with examples in its place.
    api.swagger_ui_html().replacen(&api.spec(), &openapi_json(), 1)
}

/// The whole application.
pub fn build(state: AppState) -> impl Endpoint {
    let api = openapi_service();
    let spec_json = openapi_json();
    let allow_on_405 = crate::method_not_allowed::AllowOn405::new(&spec_json);
    let spec = poem::endpoint::make_sync(move |_| {
        poem::Response::builder()
            .content_type("application/json; charset=utf-8")
            .body(spec_json.clone())
    });
    let docs_page = docs_html(&api);
    let docs = poem::endpoint::make_sync(move |_| poem::web::Html(docs_page.clone()));
    let web_dir = state.config.server.web_dir.clone();
    let rate_limits = state.rate_limits.clone();
    let security_headers = SecurityHeaders::new(
        state.config.server.public_url.scheme() == "https",
        state.config.site.map_origin().as_deref(),
    );
    let local_mode = state.oidc.is_none();
    let listen_port = state.config.server.listen.port();
    Route::new()
        // Served on `LEADGEN_METRICS_LISTEN` only (`telemetry::metrics_app`), never here.
        .at(
            "/metrics",
            poem::endpoint::make_sync(|_| poem::http::StatusCode::NOT_FOUND),
        )
        .at("/api/openapi.json", spec.with(CompressLarge))
        // Outside the OpenAPI service: the signature covers the raw body, which a typed
        // payload would not keep byte for byte.
        .at("/api/billing/webhook", poem::post(routes::billing::stripe_webhook))
        .nest("/api/docs", docs.with(CompressLarge))
        // Whole JSON answers are compressed; the live search stream never is.
        .nest("/api", api.with(CompressLarge))
        .at("/robots.txt", poem::get(web::robots))
        .at("/sitemap.xml", poem::get(web::sitemap))
        .nest("/", web::spa(&web_dir))
        .data(state)
        .catch_all_error(error::render)
        .with(allow_on_405)
        .with(PlainPayloadErrors)
        .with(BodyLimit)
        .with(rate_limits)
        .with_if(local_mode, auth::local::LocalHostOnly::new(listen_port))
        .with(security_headers)
        .with(telemetry::RequestContext)
}
