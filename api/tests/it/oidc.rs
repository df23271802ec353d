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

/// `GET /api/auth/google` in one browser: the provider URL we are sent to, and the
/// browser's binding cookie (`name=value`).
async fn start(app: &TestApp) -> (Url, String) {
    let resp = app.client.get("/api/auth/google").send().await;
    assert_eq!(resp.0.status().as_u16(), 302);
    let set = resp.0.headers()["set-cookie"].to_str().expect("cookie").to_owned();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Lax") && set.contains("Path=/api/auth/callback"),
        "{set}"
    );
    assert!(
        !set.contains("Secure"),
        "plain http here: a Secure cookie would never come back"
    );
    let pair = set.split(';').next().expect("pair").to_owned();
    let url = Url::parse(resp.0.headers()["location"].to_str().expect("location")).expect("url");
    (url, pair)
}

thread_local! {
    /// The binding cookie of the last sign-in started on this thread: the tests' browser.
    static BROWSER_COOKIE: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Starts a sign-in in the tests' browser (which keeps its cookie for [`callback`]).
async fn begin(app: &TestApp) -> Url {
    let (url, cookie) = start(app).await;
    BROWSER_COOKIE.with(|c| *c.borrow_mut() = cookie);
    url
}

/// Calls our callback (in process) from the tests' browser and returns where it
/// redirects.
async fn callback(app: &TestApp, url: &Url) -> String {
    let cookie = BROWSER_COOKIE.with(|c| c.borrow().clone());
    callback_with(app, url, Some(&cookie)).await
}

/// Calls our callback with `cookie` (or none: another browser) and returns where it
/// redirects; the answer always clears the binding cookie.
async fn callback_with(app: &TestApp, url: &Url, cookie: Option<&str>) -> String {
    let path = format!("{}?{}", url.path(), url.query().unwrap_or_default());
    let mut request = app.client.get(path);
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let resp = request.send().await;
    assert_eq!(resp.0.status().as_u16(), 302);
    let cleared = resp.0.headers()["set-cookie"].to_str().expect("cookie");
    assert!(
        cleared.starts_with("leadgen_signin=;") && cleared.contains("Max-Age=0"),
        "{cleared}"
    );
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
    // The provider vouched for the address (`email_verified`): it may accept invitations.
    let carol = leadgen_core::ids::UserId::from(me["id"].as_str().expect("id"));
    assert_eq!(
        app.state.store.verified_email(&carol).await.expect("read").as_deref(),
        Some("carol@example.com")
    );

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
    // A browser whose binding matches the forged state: the state itself is unknown.
    assert_eq!(
        callback_with(&app, &forged, Some("leadgen_signin=not-the-state-we-sent")).await,
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

both_backends!(
    a_callback_opened_in_another_browser_is_refused,
    |backend: Backend| async move {
        let provider = Provider::start().await;
        let app = app_for(backend, &provider.issuer).await;
        // The attacker signs in at the provider in their own browser and sends the
        // callback URL (their code and state) to a victim.
        let (attacker_authorize, attacker_cookie) = start(&app).await;
        let attackers = Browser::new().until_callback(attacker_authorize).await;
        // The victim's browser has no binding cookie: refused.
        assert_eq!(
            callback_with(&app, &attackers, None).await,
            "http://127.0.0.1:8080/auth/error?reason=browser_mismatch"
        );
        // The state is spent: not even the attacker's own browser can use it now.
        assert_eq!(
            callback_with(&app, &attackers, Some(&attacker_cookie)).await,
            "http://127.0.0.1:8080/auth/error?reason=invalid_state"
        );
        // A victim who started a sign-in of their own holds another sign-in's cookie:
        // refused too.
        let (attacker_authorize, _) = start(&app).await;
        let attackers = Browser::new().until_callback(attacker_authorize).await;
        let (_, victim_cookie) = start(&app).await;
        assert_eq!(
            callback_with(&app, &attackers, Some(&victim_cookie)).await,
            "http://127.0.0.1:8080/auth/error?reason=browser_mismatch"
        );
        // The same for the Sheets re-consent.
        let resp = app.client.get("/api/auth/google?feature=sheets").send().await;
        assert!(
            resp.0.headers().get("set-cookie").is_some(),
            "Sheets consent is bound too"
        );
        let url = Url::parse(resp.0.headers()["location"].to_str().expect("location")).expect("url");
        let sheets = Browser::new().until_callback(url).await;
        assert_eq!(
            callback_with(&app, &sheets, None).await,
            "http://127.0.0.1:8080/auth/error?reason=browser_mismatch"
        );
        // And a replayed callback from the right browser: refused (its state is spent).
        let authorize = begin(&app).await;
        let cb = Browser::new().until_callback(authorize).await;
        assert!(callback(&app, &cb).await.contains("/auth/success?token="));
        assert_eq!(
            callback(&app, &cb).await,
            "http://127.0.0.1:8080/auth/error?reason=invalid_state"
        );
    }
);
