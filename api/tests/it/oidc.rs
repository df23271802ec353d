//! Sign-in end to end against a real OpenID Connect provider (panva/oidc-provider, run
//! from `testkit/oidc`): the happy path, and each attack the flow must stop.

use std::{collections::HashMap, process::Stdio};

use tokio::{
    io::{AsyncBufReadExt, BufReader},
    process::{Child, Command},
};
use url::Url;

use crate::{
    both_backends,
    support::{Backend, TestApp},
};

const CALLBACK: &str = "http://127.0.0.1:8080/api/auth/callback";

/// The provider process; killed when dropped.
struct Provider {
    issuer: String,
    _child: Child,
}

impl Provider {
    async fn start() -> Self {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../testkit/oidc");
        assert!(
            std::path::Path::new(dir).join("node_modules/oidc-provider").is_dir(),
            "the OIDC provider is not installed: run `npm ci --prefix testkit/oidc` (the test command does)"
        );
        let mut child = Command::new("node")
            .arg("provider.mjs")
            .current_dir(dir)
            .env("REDIRECT_URI", CALLBACK)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("node must be installed to run the OIDC provider");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        let line = tokio::time::timeout(std::time::Duration::from_secs(20), lines.next_line())
            .await
            .expect("provider started in time")
            .expect("read")
            .expect("a READY line");
        let issuer = line.strip_prefix("READY ").expect("READY <issuer>").to_owned();
        Self { issuer, _child: child }
    }
}

/// Just enough of a browser: follows redirects by hand and keeps cookies.
struct Browser {
    http: reqwest::Client,
    cookies: HashMap<String, String>,
}

impl Browser {
    fn new() -> Self {
        Self {
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client"),
            cookies: HashMap::new(),
        }
    }

    /// Follows redirects from `url` until one points at our callback; returns that URL.
    async fn until_callback(&mut self, mut url: Url) -> Url {
        for _ in 0..10 {
            let cookie = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; ");
            let resp = self
                .http
                .get(url.clone())
                .header("cookie", cookie)
                .send()
                .await
                .expect("provider request");
            for set in resp.headers().get_all("set-cookie") {
                let pair = set.to_str().expect("cookie").split(';').next().unwrap_or_default();
                if let Some((k, v)) = pair.split_once('=') {
                    self.cookies.insert(k.trim().to_owned(), v.trim().to_owned());
                }
            }
            let status = resp.status();
            let Some(location) = resp
                .headers()
                .get("location")
                .map(|l| l.to_str().expect("loc").to_owned())
            else {
                panic!(
                    "provider answered {status} without a redirect: {}",
                    resp.text().await.unwrap_or_default()
                );
            };
            let next = url.join(&location).expect("location");
            if next.as_str().starts_with(CALLBACK) {
                return next;
            }
            url = next;
        }
        panic!("too many redirects at the provider");
    }
}

async fn app_for(backend: Backend, issuer: &str) -> TestApp {
    TestApp::start(
        backend,
        vec![
            ("LEADGEN_OIDC_ISSUER", issuer.to_owned()),
            ("LEADGEN_OIDC_CLIENT_ID", "leadgen-test".to_owned()),
            ("LEADGEN_OIDC_CLIENT_SECRET", "leadgen-test-secret".to_owned()),
        ],
    )
    .await
}

/// `GET /api/auth/google`: the provider URL we are sent to.
async fn begin(app: &TestApp) -> Url {
    let resp = app.client.get("/api/auth/google").send().await;
    assert_eq!(resp.0.status().as_u16(), 302);
    Url::parse(resp.0.headers()["location"].to_str().expect("location")).expect("url")
}

/// Calls our callback (in process) and returns where it redirects the browser.
async fn callback(app: &TestApp, url: &Url) -> String {
    let path = format!("{}?{}", url.path(), url.query().unwrap_or_default());
    let resp = app.client.get(path).send().await;
    assert_eq!(resp.0.status().as_u16(), 302);
    resp.0.headers()["location"].to_str().expect("location").to_owned()
}

fn with_param(url: &Url, name: &str, value: &str) -> Url {
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(k, _)| k != name)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let mut out = url.clone();
    out.query_pairs_mut()
        .clear()
        .extend_pairs(pairs)
        .append_pair(name, value);
    out
}

fn param(url: &Url, name: &str) -> String {
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
}

both_backends!(sign_in_end_to_end, |backend: Backend| async move {
    let provider = Provider::start().await;
    let app = app_for(backend, &provider.issuer).await;
    let authorize = begin(&app).await;
    assert!(authorize.as_str().starts_with(&provider.issuer));
    assert_eq!(param(&authorize, "code_challenge_method"), "S256");
    assert!(!param(&authorize, "state").is_empty() && !param(&authorize, "nonce").is_empty());
    assert_eq!(param(&authorize, "redirect_uri"), CALLBACK);

    let cb = Browser::new()
        .until_callback(with_param(&authorize, "login_hint", "carol"))
        .await;
    let landing = callback(&app, &cb).await;
    let token = landing
        .strip_prefix("http://127.0.0.1:8080/auth/success?token=")
        .expect("success redirect");
    let (status, me) = app.get("/api/auth/me", Some(token)).await;
    assert_eq!(status, 200);
    assert_eq!(me["email"], "carol@example.com");
    assert_eq!(me["name"], "Carol Example");
    assert_eq!(me["picture"], "https://pictures.example/carol.png");
    assert_eq!(me["isFirstLogin"], true);

    let again = Browser::new()
        .until_callback(with_param(&begin(&app).await, "login_hint", "carol"))
        .await;
    let landing = callback(&app, &again).await;
    let token2 = landing
        .strip_prefix("http://127.0.0.1:8080/auth/success?token=")
        .expect("success");
    let (_, me2) = app.get("/api/auth/me", Some(token2)).await;
    assert_eq!(me2["id"], me["id"], "same issuer and subject: same account");
    assert_eq!(me2["isFirstLogin"], false);
    let (_, config) = app.get("/api/auth/config", None).await;
    assert_eq!(config["localMode"], false);
});

both_backends!(a_wrong_state_is_rejected, |backend: Backend| async move {
    let provider = Provider::start().await;
    let app = app_for(backend, &provider.issuer).await;
    let authorize = begin(&app).await;
    let cb = Browser::new().until_callback(authorize).await;
    let forged = with_param(&cb, "state", "not-the-state-we-sent");
    assert_eq!(
        callback(&app, &forged).await,
        "http://127.0.0.1:8080/auth/error?reason=invalid_state"
    );
});

both_backends!(a_wrong_nonce_is_rejected, |backend: Backend| async move {
    let provider = Provider::start().await;
    let app = app_for(backend, &provider.issuer).await;
    // An attacker's authorization request: our state and PKCE challenge, another nonce.
    let authorize = with_param(&begin(&app).await, "nonce", "attacker-nonce");
    let cb = Browser::new().until_callback(authorize).await;
    assert_eq!(
        callback(&app, &cb).await,
        "http://127.0.0.1:8080/auth/error?reason=invalid_id_token"
    );
});

both_backends!(a_reused_code_is_rejected, |backend: Backend| async move {
    let provider = Provider::start().await;
    let app = app_for(backend, &provider.issuer).await;
    let cb = Browser::new().until_callback(begin(&app).await).await;
    assert!(callback(&app, &cb).await.contains("/auth/success?token="));
    assert_eq!(
        callback(&app, &cb).await,
        "http://127.0.0.1:8080/auth/error?reason=invalid_state",
        "the same callback twice: its state is spent"
    );
    // The spent code under a fresh, genuine state: the provider refuses the code.
    let second = begin(&app).await;
    let replay = with_param(&cb, "state", &param(&second, "state"));
    assert_eq!(
        callback(&app, &replay).await,
        "http://127.0.0.1:8080/auth/error?reason=exchange_failed"
    );
});

both_backends!(
    an_id_token_from_another_issuer_is_rejected,
    |backend: Backend| async move {
        let provider = Provider::start().await;
        // We trust ".../mixup", whose discovery points at the real provider: its ID tokens
        // carry the real provider's issuer, not the one we trust.
        let app = app_for(backend, &format!("{}/mixup", provider.issuer)).await;
        let cb = Browser::new().until_callback(begin(&app).await).await;
        assert_eq!(
            callback(&app, &cb).await,
            "http://127.0.0.1:8080/auth/error?reason=invalid_id_token"
        );
    }
);

both_backends!(
    a_provider_refusal_lands_on_the_error_page,
    |backend: Backend| async move {
        let provider = Provider::start().await;
        let app = app_for(backend, &provider.issuer).await;
        let authorize = begin(&app).await;
        let refusal = Url::parse(&format!(
            "{CALLBACK}?error=access_denied&state={}",
            param(&authorize, "state")
        ))
        .expect("url");
        assert_eq!(
            callback(&app, &refusal).await,
            "http://127.0.0.1:8080/auth/error?reason=access_denied"
        );
    }
);
