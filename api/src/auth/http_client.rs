//! openidconnect's HTTP client trait over reqwest 0.13 (openidconnect's own reqwest
//! feature drags in reqwest 0.12). Redirects are off, as OAuth requires.

use std::{future::Future, pin::Pin, time::Duration};

use openidconnect::{AsyncHttpClient, HttpRequest, HttpResponse};

/// A failed HTTP exchange with the identity provider.
#[derive(Debug, thiserror::Error)]
pub enum HttpClientError {
    /// Transport failure.
    #[error("request to the identity provider failed: {0}")]
    Transport(#[from] reqwest::Error),
    /// The response could not be rebuilt.
    #[error("bad response from the identity provider: {0}")]
    Http(#[from] openidconnect::http::Error),
}

/// reqwest client that never follows redirects.
#[derive(Debug, Clone)]
pub struct OidcHttpClient(reqwest::Client);

impl OidcHttpClient {
    /// A client with a 10 s time-out.
    pub fn new() -> reqwest::Result<Self> {
        reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(10))
            .build()
            .map(Self)
    }
}

impl<'c> AsyncHttpClient<'c> for OidcHttpClient {
    type Error = HttpClientError;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, Self::Error>> + Send + 'c>>;

    fn call(&'c self, request: HttpRequest) -> Self::Future {
        Box::pin(async move {
            let response = self.0.execute(reqwest::Request::try_from(request)?).await?;
            let mut builder = openidconnect::http::Response::builder()
                .status(response.status())
                .version(response.version());
            for (name, value) in response.headers() {
                builder = builder.header(name, value);
            }
            Ok(builder.body(response.bytes().await?.to_vec())?)
        })
    }
}
