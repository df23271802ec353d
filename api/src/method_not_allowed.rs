//! `Allow` on every 405 (RFC 9110, section 15.5.6: a 405 "MUST generate an Allow header
//! field"): the methods the published spec lists for the path that was asked. poem's
//! router answers 405 without one.

use poem::{Endpoint, IntoResponse, Middleware, Request, Response, http::HeaderValue, http::StatusCode};
use serde_json::Value;

/// The spec's paths, each as its segments (`{id}` matches any one segment), with their
/// methods in upper case.
#[derive(Clone)]
struct Paths(Vec<(Vec<String>, String)>);

impl Paths {
    fn from_spec(spec: &str) -> Self {
        let doc: Value = serde_json::from_str(spec).unwrap_or(Value::Null);
        let mut paths = Vec::new();
        for (path, item) in doc["paths"].as_object().into_iter().flatten() {
            let mut methods: Vec<String> = item
                .as_object()
                .into_iter()
                .flat_map(|ops| ops.keys())
                .map(|m| m.to_uppercase())
                .collect();
            if methods.iter().any(|m| m == "GET") {
                methods.push("HEAD".into());
            }
            let segments = path.split('/').map(str::to_owned).collect();
            paths.push((segments, methods.join(", ")));
        }
        Self(paths)
    }

    fn allowed(&self, path: &str) -> Option<&str> {
        let asked: Vec<&str> = path.split('/').collect();
        self.0
            .iter()
            .find(|(segments, _)| {
                segments.len() == asked.len()
                    && segments
                        .iter()
                        .zip(&asked)
                        .all(|(s, a)| s == a || (s.starts_with('{') && !a.is_empty()))
            })
            .map(|(_, methods)| methods.as_str())
    }
}

/// Adds `Allow` to 405 answers.
pub struct AllowOn405(Paths);

impl AllowOn405 {
    /// From the published spec (`app::openapi_json`).
    pub fn new(spec: &str) -> Self {
        Self(Paths::from_spec(spec))
    }
}

impl<E: Endpoint> Middleware<E> for AllowOn405 {
    type Output = AllowOn405Endpoint<E>;

    fn transform(&self, inner: E) -> Self::Output {
        AllowOn405Endpoint {
            inner,
            paths: self.0.clone(),
        }
    }
}

/// [`AllowOn405`] around an endpoint.
pub struct AllowOn405Endpoint<E> {
    inner: E,
    paths: Paths,
}

impl<E: Endpoint> Endpoint for AllowOn405Endpoint<E> {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        let path = req.uri().path().to_owned();
        let mut response = match self.inner.call(req).await {
            Ok(r) => r.into_response(),
            Err(e) => e.into_response(),
        };
        if response.status() == StatusCode::METHOD_NOT_ALLOWED
            && let Some(methods) = self.paths.allowed(&path)
            && let Ok(value) = HeaderValue::from_str(methods)
        {
            response.headers_mut().insert("allow", value);
        }
        Ok(response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_templated_path_and_lists_its_methods() {
        let spec = r#"{"paths": {"/api/leads/searches/{id}/cancel": {"post": {}},
                                 "/api/user/webhooks/{id}": {"delete": {}, "get": {}}}}"#;
        let paths = Paths::from_spec(spec);
        assert_eq!(paths.allowed("/api/leads/searches/abc/cancel"), Some("POST"));
        assert_eq!(paths.allowed("/api/user/webhooks/w1"), Some("DELETE, GET, HEAD"));
        assert_eq!(paths.allowed("/api/user/webhooks/"), None, "an empty id is no match");
        assert_eq!(paths.allowed("/api/nowhere"), None);
    }
}
