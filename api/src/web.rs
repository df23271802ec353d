//! The built front end (`frontend/dist`), served from the API's origin. Unknown paths get
//! `index.html`, whose router sends unknown routes to `/`.

use std::path::Path;

use poem::{EndpointExt, IntoEndpoint, endpoint::StaticFilesEndpoint, handler, web::Html};

/// Static files with SPA fallback, or a short page explaining how to build the UI.
pub fn spa(dir: &Path) -> poem::endpoint::BoxEndpoint<'static> {
    if dir.join("index.html").is_file() {
        StaticFilesEndpoint::new(dir)
            .index_file("index.html")
            .fallback_to_index()
            .no_cache_index()
            .into_endpoint()
            .map_to_response()
            .boxed()
    } else {
        not_built.map_to_response().boxed()
    }
}

#[handler]
fn not_built() -> Html<&'static str> {
    Html(
        "<!doctype html><title>Leadgen</title><h1>Leadgen API is running</h1>\
         <p>The web app is not built. Start Leadgen with <code>./leadgen run</code>, which builds it, \
         or read the API docs at <a href=\"/api/docs\">/api/docs</a>.</p>",
    )
}
