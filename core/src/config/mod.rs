//! Configuration: one typed tree ([`Config`]), one section a TOML table, each field read
//! straight into its final type by a deserializer that refuses a bad value, with its
//! default written once (the section's `Default`). Layered by figment: defaults, an
//! optional TOML file named by `LEADGEN_CONFIG_FILE`, then the environment; checked
//! across sections at start ([`Config::validate`]). Every message names the variable at
//! fault; every variable is documented in `.env.example` and the README (a test fails
//! when either drifts from [`VARIABLES`]).
//!
//! A leaf of the crate: it imports nothing of the domain. The domain's settings types
//! ([`UsageLimits`], [`PriceTable`], [`DeliverySchedule`], [`MailConfig`]) live here and
//! are re-exported where they are used.

mod access;
mod billing;
mod de;
mod delivery;
mod google;
mod server;
pub mod site;
mod stores;
mod telemetry;
mod usage;
mod variables;
mod worker;

use figment::{
    Figment,
    providers::{Format, Serialized, Toml},
};
use serde::Deserialize;
use url::Url;

pub use access::{OidcConfig, SecretsConfig};
pub use billing::{BillingConfig, STRIPE_API_BASE_URL};
pub use delivery::{DeliverySchedule, MailConfig, OutboundConfig, parse_host_port};
pub use google::{
    DEFAULT_PLAN_MEMORY_DAYS, DEFAULT_PROBE_AFTER_ESTIMATE_SECS, GOOGLE_AGGREGATE_BASE_URL, GOOGLE_DRIVE_BASE_URL,
    GOOGLE_ISSUER, GOOGLE_PLACES_BASE_URL, GOOGLE_SHEETS_BASE_URL, GOOGLE_TOKEN_URL, GoogleApis, PlacesConfig,
    PriceTable,
};
pub use server::{HttpLimits, ServerConfig, parse_trusted_proxies};
pub use site::SiteInfo;
pub use stores::{DatabaseConfig, RedisConfig};
pub use telemetry::TelemetryConfig;
pub use usage::{TierLimits, UsageLimits};
pub use variables::{CONFIG_FILE, ConfigError, VARIABLES, Variable, variable_of};
pub use worker::WorkerConfig;

/// Everything the API and the workers need to start, by section (`[server]`, ...).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `[server]`: where the API listens, what it serves, what a client may hold of it.
    pub server: ServerConfig,
    /// `[database]`: the store.
    pub database: DatabaseConfig,
    /// `[redis]`: queue, events and the fleet.
    pub redis: RedisConfig,
    /// `[places]`: Google Places, its rate and its prices.
    pub places: PlacesConfig,
    /// `[worker]`: how a worker process runs.
    pub worker: WorkerConfig,
    /// `[oidc]`: OIDC sign-in; `None` means local single-operator sign-in (loopback only).
    #[serde(deserialize_with = "access::oidc")]
    pub oidc: Option<OidcConfig>,
    /// `[secrets]`: the master keys.
    pub secrets: SecretsConfig,
    /// `[usage]`: allowances per tier.
    #[serde(rename = "usage")]
    pub usage_limits: UsageLimits,
    /// `[google]`: Google's endpoints for the Sheets export; tests point them at the fake.
    #[serde(rename = "google")]
    pub google_apis: GoogleApis,
    /// `[stripe]`: billing; `None` when Stripe is not configured (plans shown, no checkout).
    #[serde(rename = "stripe", deserialize_with = "billing::billing")]
    pub billing: Option<BillingConfig>,
    /// `[telemetry]`: logs and error reporting.
    pub telemetry: TelemetryConfig,
    /// `[outbound]`: fetches of third-party URLs.
    pub outbound: OutboundConfig,
    /// `[webhooks]`: how webhook deliveries are attempted and retried.
    pub webhooks: DeliverySchedule,
    /// `[mail]`: outgoing mail; `None`: no mail.
    #[serde(deserialize_with = "delivery::mail")]
    pub mail: Option<MailConfig>,
    /// `[site]`: what the public pages say of the operator.
    pub site: SiteInfo,
}

impl Config {
    /// Reads the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads configuration through `lookup` (tests pass a map): defaults, the TOML file
    /// named by `LEADGEN_CONFIG_FILE` if set, then the variables. Empty values count as
    /// unset.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let mut figment = Figment::new();
        if let Some(path) = lookup(CONFIG_FILE)
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
        {
            if !std::path::Path::new(&path).is_file() {
                return Err(ConfigError::new(
                    CONFIG_FILE,
                    format!("'{path}' is not a readable file"),
                ));
            }
            figment = figment.merge(Toml::file(&path));
        }
        let figment = with_derived_defaults(figment.merge(variables::Environment { lookup: &lookup }));
        // Lossy: "16" from the environment reads as a number where one is expected.
        let config: Self = figment.extract_lossy().map_err(|e| variables::config_error(&e))?;
        config.validate()?;
        Ok(config)
    }

    /// What one section cannot check alone: what requires what across sections.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let listen = self.server.listen;
        if self.oidc.is_none() && !listen.ip().is_loopback() {
            return Err(ConfigError::new(
                "LEADGEN_LISTEN",
                format!(
                    "local sign-in (no LEADGEN_OIDC_CLIENT_ID) is only allowed on a loopback address, not {listen}; configure an identity provider or listen on 127.0.0.1"
                ),
            ));
        }
        if self.database.url.is_some() {
            if self.secrets.encryption_key.is_none() {
                return Err(ConfigError::new(
                    "LEADGEN_ENCRYPTION_KEY",
                    "is required with DATABASE_URL (base64 of 32 random bytes: openssl rand -base64 32)",
                ));
            }
            if self.secrets.jwt_secret.is_none() {
                return Err(ConfigError::new(
                    "LEADGEN_JWT_SECRET",
                    "is required with DATABASE_URL (at least 32 random bytes)",
                ));
            }
        }
        Ok(())
    }

    /// The store's URL: `DATABASE_URL`, or the embedded SQLite file.
    pub fn store_url(&self) -> String {
        match &self.database.url {
            Some(url) => url.clone(),
            None => format!(
                "sqlite://{}?mode=rwc",
                self.server.data_dir.join("leadgen.db").display()
            ),
        }
    }

    /// True when neither `DATABASE_URL` nor `REDIS_URL` is set: one process does it all.
    pub fn is_embedded(&self) -> bool {
        self.database.url.is_none() && self.redis.url.is_none()
    }

    /// Where the browser lands after sign-in, with `/auth/success` or `/auth/error` added.
    pub fn public_path(&self, path: &str) -> Url {
        let mut url = self.server.public_url.clone();
        url.set_path(path);
        url.set_query(None);
        url
    }
}

/// Defaults that follow another setting, layered under everything set: the public URL
/// follows the listen address, the sender follows the public URL's host. A value that
/// does not read adds nothing here; extraction then refuses it by name.
fn with_derived_defaults(figment: Figment) -> Figment {
    let text = |key: &str| {
        figment
            .find_value(key)
            .ok()
            .and_then(|v| v.as_str().map(|s| s.trim().to_owned()))
            .filter(|s| !s.is_empty())
    };
    let listen = match text("server.listen") {
        Some(listen) => listen.parse().ok(),
        None => Some(ServerConfig::default().listen),
    };
    let public_url = match text("server.public_url") {
        Some(url) => de::parse_http_url(&url).ok(),
        None => listen.map(server::default_public_url),
    };
    let sender = public_url
        .as_ref()
        .map(|url| delivery::default_sender(url.host_str().unwrap_or("localhost")));
    let mut figment = figment;
    if let Some(url) = public_url {
        figment = figment.join(Serialized::default("server.public_url", url.as_str()));
    }
    if let Some(sender) = sender {
        figment = figment.join(Serialized::default("mail.from", sender));
    }
    figment
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use std::time::Duration;

    use secrecy::ExposeSecret;

    use super::*;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn defaults_are_embedded_local_on_loopback() {
        let c = config(&[]).expect("defaults");
        assert_eq!(c.server.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(c.server.public_url.as_str(), "http://127.0.0.1:8080/");
        assert!(c.is_embedded());
        assert!(c.oidc.is_none());
        assert!(c.store_url().starts_with("sqlite://"));
        assert_eq!(c.server.session_ttl, Duration::from_secs(3600));
        assert_eq!(c.server.reconnect_grace, Duration::from_secs(30));
        assert_eq!((c.worker.name, c.worker.drain), (None, Duration::from_secs(25)));
        let pod = config(&[
            ("LEADGEN_WORKER_NAME", "leadgen-worker-6c9f7-x2kq"),
            ("LEADGEN_WORKER_DRAIN_SECS", "45"),
        ])
        .expect("pod settings");
        assert_eq!(pod.worker.name.as_deref(), Some("leadgen-worker-6c9f7-x2kq"));
        assert_eq!(pod.worker.drain, Duration::from_secs(45));
        assert_eq!(c.redis.replay_ttl, Duration::from_secs(600));
        let short = config(&[("LEADGEN_RESULTS_REPLAY_MINUTES", "2")]).expect("two minutes");
        assert_eq!(short.redis.replay_ttl, Duration::from_secs(120));
    }

    #[test]
    fn bad_values_name_their_variable() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (&[("LEADGEN_LISTEN", "nonsense")], "LEADGEN_LISTEN"),
            (&[("LEADGEN_PUBLIC_URL", "ftp://x")], "LEADGEN_PUBLIC_URL"),
            (&[("DATABASE_URL", "mysql://x")], "DATABASE_URL"),
            (&[("REDIS_URL", "http://x")], "REDIS_URL"),
            (
                &[("LEADGEN_OIDC_ISSUER", "https://id.example")],
                "LEADGEN_OIDC_CLIENT_ID",
            ),
            (&[("DATABASE_URL", "postgres://x/db")], "LEADGEN_ENCRYPTION_KEY"),
            (&[("LEADGEN_JWT_SECRET", "short")], "LEADGEN_JWT_SECRET"),
            (&[("LEADGEN_SESSION_TTL_SECS", "5")], "LEADGEN_SESSION_TTL_SECS"),
            (
                &[("LEADGEN_RECONNECT_GRACE_SECS", "-1")],
                "LEADGEN_RECONNECT_GRACE_SECS",
            ),
            (&[("LEADGEN_FREE_DAILY_LEADS", "-3")], "LEADGEN_FREE_DAILY_LEADS"),
            (&[("LEADGEN_PLACES_RPS", "fast")], "LEADGEN_PLACES_RPS"),
            (&[("LEADGEN_WORKER_NAME", "pod:a")], "LEADGEN_WORKER_NAME"),
            (&[("LEADGEN_WORKER_DRAIN_SECS", "0")], "LEADGEN_WORKER_DRAIN_SECS"),
            (
                &[("LEADGEN_RESULTS_REPLAY_MINUTES", "0")],
                "LEADGEN_RESULTS_REPLAY_MINUTES",
            ),
            (
                &[("LEADGEN_RESULTS_REPLAY_MINUTES", "61")],
                "LEADGEN_RESULTS_REPLAY_MINUTES",
            ),
            (&[("LEADGEN_WORKER_CONCURRENCY", "many")], "LEADGEN_WORKER_CONCURRENCY"),
            (
                &[("LEADGEN_WORKER_METRICS_LISTEN", "nonsense")],
                "LEADGEN_WORKER_METRICS_LISTEN",
            ),
            (&[("LEADGEN_METRICS_LISTEN", "9090")], "LEADGEN_METRICS_LISTEN"),
            (
                &[("LEADGEN_TRUSTED_PROXIES", "10.0.0.0/8, ingress")],
                "LEADGEN_TRUSTED_PROXIES",
            ),
            (&[("LEADGEN_TRUSTED_PROXIES", "10.0.0.0/33")], "LEADGEN_TRUSTED_PROXIES"),
            (
                &[("LEADGEN_HTTP_HEADER_TIMEOUT_SECS", "0")],
                "LEADGEN_HTTP_HEADER_TIMEOUT_SECS",
            ),
            (
                &[("LEADGEN_HTTP_MAX_CONNECTIONS", "-1")],
                "LEADGEN_HTTP_MAX_CONNECTIONS",
            ),
            (&[("LEADGEN_MAX_STREAMS_PER_USER", "0")], "LEADGEN_MAX_STREAMS_PER_USER"),
            (&[("LEADGEN_LOG_FORMAT", "xml")], "LEADGEN_LOG_FORMAT"),
            (&[("SENTRY_TRACES_SAMPLE_RATE", "2")], "SENTRY_TRACES_SAMPLE_RATE"),
            (&[("LEADGEN_RATE_LIMIT_PER_USER", "-1")], "LEADGEN_RATE_LIMIT_PER_USER"),
            (&[("LEADGEN_RATE_LIMIT_PER_IP", "2000000")], "LEADGEN_RATE_LIMIT_PER_IP"),
            (
                &[("LEADGEN_RATE_LIMIT_PER_TOKEN", "-5")],
                "LEADGEN_RATE_LIMIT_PER_TOKEN",
            ),
            (
                &[("LEADGEN_PRICE_TEXT_SEARCH_PRO", "-5")],
                "LEADGEN_PRICE_TEXT_SEARCH_PRO",
            ),
            (
                &[("LEADGEN_CONFIG_FILE", "/nonexistent/leadgen.toml")],
                "LEADGEN_CONFIG_FILE",
            ),
        ];
        for (vars, variable) in cases {
            let err = config(vars).expect_err(variable);
            assert_eq!(err.variable, *variable, "{err}");
            assert!(err.to_string().starts_with(variable));
        }
    }

    #[test]
    fn numbers_keep_their_friendly_messages() {
        let err = config(&[("LEADGEN_PLACES_RPS", "fast")]).expect_err("not a number");
        assert_eq!(err.to_string(), "LEADGEN_PLACES_RPS: 'fast' must be a whole number");
        let err = config(&[("LEADGEN_FREE_DAILY_LEADS", "-3")]).expect_err("negative");
        assert_eq!(
            err.to_string(),
            "LEADGEN_FREE_DAILY_LEADS: '-3' must be a whole number, 0 or more"
        );
        let c = config(&[
            ("LEADGEN_WORKER_CONCURRENCY", " 4 "),
            ("LEADGEN_WORKER_METRICS_LISTEN", "off"),
        ])
        .expect("ok");
        assert_eq!((c.worker.concurrency, c.worker.metrics_listen), (4, None));
        let limits = config(&[("LEADGEN_RATE_LIMIT_PER_USER", "0")]).expect("ok");
        assert_eq!(
            (limits.server.rate_limit_per_user, limits.server.rate_limit_per_ip),
            (None, Some(1200))
        );
        assert_eq!(
            config(&[]).expect("defaults").worker.metrics_listen.map(|a| a.port()),
            Some(9091)
        );
    }

    #[test]
    fn a_file_layers_between_the_defaults_and_the_environment() {
        let dir = std::env::temp_dir().join(format!("leadgen-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("leadgen.toml");
        std::fs::write(
            &file,
            "[places]\nrps = 9\n[worker]\nconcurrency = 3\n[redis]\nprefix = \"from-file\"\n",
        )
        .expect("write");
        let path = file.display().to_string();
        let c = config(&[("LEADGEN_CONFIG_FILE", &path), ("LEADGEN_WORKER_CONCURRENCY", "7")]).expect("layered");
        assert_eq!(c.places.rps, 9, "the file over the default");
        assert_eq!(c.worker.concurrency, 7, "the environment over the file");
        assert_eq!(c.redis.prefix, "from-file");
        std::fs::write(&file, "[places]\nrsp = 9\n").expect("write");
        let err = config(&[("LEADGEN_CONFIG_FILE", &path)]).expect_err("a typo in the file");
        assert_eq!(err.variable, "LEADGEN_CONFIG_FILE");
        assert_eq!(
            err.problem, "unknown setting 'places.rsp' in the configuration file",
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn outbound_exemptions_are_checked_and_empty_by_default() {
        let c = config(&[]).expect("defaults");
        assert!(c.outbound.allowed_hosts.is_empty(), "production checks every address");
        let c = config(&[("LEADGEN_OUTBOUND_ALLOWED_HOSTS", "127.0.0.1:8090, fake-web:80")]).expect("two hosts");
        assert_eq!(c.outbound.allowed_hosts, ["127.0.0.1:8090", "fake-web:80"]);
        let url = url::Url::parse("http://127.0.0.1:8090/").expect("url");
        assert!(c.outbound_policy().is_exempt(&url));
        let err = config(&[("LEADGEN_OUTBOUND_ALLOWED_HOSTS", "127.0.0.1")]).expect_err("no port");
        assert_eq!(err.variable, "LEADGEN_OUTBOUND_ALLOWED_HOSTS");
        assert!(err.problem.contains("host:port"), "{err}");
    }

    /// The variables `.env.example` and the README's table document: each exactly those
    /// the code declares.
    #[test]
    fn env_example_and_readme_list_every_variable_and_no_other() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let declared: std::collections::BTreeSet<&str> = VARIABLES
            .iter()
            .map(|v| v.env)
            .chain([CONFIG_FILE])
            .filter(|v| *v != "RUST_LOG")
            .collect();
        let example = std::fs::read_to_string(root.join(".env.example")).expect(".env.example");
        let in_example: std::collections::BTreeSet<String> = example
            .lines()
            .filter_map(|l| {
                l.trim_start_matches('#')
                    .trim()
                    .split_once('=')
                    .map(|(k, _)| k.trim().to_owned())
            })
            .filter(|k| {
                !k.is_empty()
                    && k.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            })
            .collect();
        let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
        let table: String = readme
            .split("## Configuration")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("README has a Configuration section")
            .lines()
            .filter(|l| l.starts_with("| `"))
            .map(|l| l.split(" | ").next().unwrap_or_default().to_owned() + "\n")
            .collect();
        let in_readme = backquoted_names(&table);
        let declared: std::collections::BTreeSet<String> = declared.into_iter().map(str::to_owned).collect();
        assert_eq!(in_example, declared, ".env.example against config::VARIABLES");
        assert_eq!(in_readme, declared, "the README's table against config::VARIABLES");
    }

    /// Backquoted upper-case names in `text`.
    fn backquoted_names(text: &str) -> std::collections::BTreeSet<String> {
        text.split('`')
            .skip(1)
            .step_by(2)
            .filter(|t| {
                t.len() > 3
                    && t.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            })
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn edge_settings_default_to_a_closed_metrics_port_and_no_trusted_proxy() {
        let c = config(&[]).expect("defaults");
        assert_eq!(
            c.server.metrics_listen.map(|a| a.to_string()),
            Some("127.0.0.1:9090".to_owned())
        );
        assert!(
            c.server.trusted_proxies.is_empty(),
            "no proxy is trusted unless configured"
        );
        assert_eq!(
            (
                c.server.http_limits.header_timeout.as_secs(),
                c.server.http_limits.max_connections,
                c.server.http_limits.max_streams_per_user
            ),
            (30, 16384, 20)
        );
        let c = config(&[
            ("LEADGEN_METRICS_LISTEN", "off"),
            ("LEADGEN_TRUSTED_PROXIES", " 10.1.2.3/8 , 192.0.2.7, fd00::/8 "),
        ])
        .expect("config");
        assert_eq!(c.server.metrics_listen, None);
        let proxies: Vec<String> = c.server.trusted_proxies.iter().map(ToString::to_string).collect();
        assert_eq!(
            proxies,
            ["10.0.0.0/8", "192.0.2.7/32", "fd00::/8"],
            "ranges are truncated to their network"
        );
    }

    #[test]
    fn local_sign_in_refuses_a_public_address() {
        let err = config(&[("LEADGEN_LISTEN", "0.0.0.0:8080")]).expect_err("must refuse");
        assert_eq!(err.variable, "LEADGEN_LISTEN");
        let ok = config(&[("LEADGEN_LISTEN", "0.0.0.0:8080"), ("LEADGEN_OIDC_CLIENT_ID", "abc")]).expect("oidc");
        assert_eq!(ok.oidc.expect("oidc").issuer, "https://accounts.google.com");
    }
    /// Each variable's key reaches a field of the tree: a key the table misspells would be
    /// refused as an unknown setting of the file.
    #[test]
    fn every_variable_reaches_its_field() {
        for variable in VARIABLES {
            if let Err(err) = config(&[(variable.env, "x")]) {
                assert_ne!(err.variable, CONFIG_FILE, "{}: {err}", variable.env);
            }
        }
    }

    /// The defaults are written once, in the sections: reading nothing gives them.
    #[test]
    fn reading_nothing_gives_the_sections_defaults() {
        assert_eq!(
            format!("{:?}", config(&[]).expect("defaults")),
            format!("{:?}", Config::default())
        );
    }

    #[test]
    fn the_public_url_and_the_sender_follow_the_address_they_default_from() {
        let c = config(&[("LEADGEN_LISTEN", "127.0.0.1:9000")]).expect("config");
        assert_eq!(c.server.public_url.as_str(), "http://127.0.0.1:9000/");
        let c = config(&[
            ("LEADGEN_PUBLIC_URL", "https://leads.example"),
            ("LEADGEN_SMTP_URL", "smtps://user:hunter2@mail.test:465"),
        ])
        .expect("config");
        let mail = c.mail.expect("mail on");
        assert_eq!(mail.from.to_string(), "Leadgen <noreply@leads.example>");
        assert!(
            !format!("{mail:?}").contains("hunter2"),
            "the SMTP URL is never printed"
        );
        let c = config(&[
            ("LEADGEN_SMTP_URL", "smtp://127.0.0.1:25"),
            ("LEADGEN_MAIL_FROM", "Agency <hello@agency.example>"),
        ])
        .expect("config");
        assert_eq!(
            c.mail.expect("mail on").from.to_string(),
            "Agency <hello@agency.example>"
        );
    }

    #[test]
    fn mail_is_off_without_a_url_and_a_bad_one_is_not_repeated() {
        assert!(config(&[("LEADGEN_SMTP_URL", "  ")]).expect("blank").mail.is_none());
        let bad = config(&[("LEADGEN_SMTP_URL", "http://mail.test")]).expect_err("refused");
        assert_eq!(bad.variable, "LEADGEN_SMTP_URL");
        assert!(!bad.to_string().contains("mail.test"), "the URL is not repeated: {bad}");
        let from = config(&[
            ("LEADGEN_SMTP_URL", "smtp://127.0.0.1:25"),
            ("LEADGEN_MAIL_FROM", "not an address"),
        ])
        .expect_err("refused");
        assert_eq!(from.variable, "LEADGEN_MAIL_FROM");
    }

    #[test]
    fn stripe_needs_its_other_settings_once_the_secret_key_is_set() {
        let stripe = [
            ("STRIPE_SECRET_KEY", "sk_test_1"),
            ("STRIPE_WEBHOOK_SECRET", "whsec_1"),
            ("STRIPE_PRICE_MONTHLY", "price_m"),
            ("STRIPE_PRICE_YEARLY", "price_y"),
        ];
        let billing = config(&stripe).expect("billing").billing.expect("on");
        assert_eq!(billing.secret_key.expose_secret(), "sk_test_1");
        assert_eq!(billing.api_base_url.as_str(), STRIPE_API_BASE_URL);
        assert!(
            config(&stripe[1..]).expect("off").billing.is_none(),
            "no secret key: off"
        );
        for missing in 1..stripe.len() {
            let vars: Vec<(&str, &str)> = stripe
                .iter()
                .copied()
                .filter(|(k, _)| *k != stripe[missing].0)
                .collect();
            let err = config(&vars).expect_err("required");
            assert_eq!(
                err.to_string(),
                format!("{}: is required when STRIPE_SECRET_KEY is set", stripe[missing].0)
            );
        }
        let mut wrong = stripe;
        wrong[1].1 = "sk_live_oops";
        assert_eq!(config(&wrong).expect_err("not whsec").variable, "STRIPE_WEBHOOK_SECRET");
    }

    #[test]
    fn sections_nest_in_the_file_and_the_numbers_read_into_their_units() {
        let c = config(&[
            ("LEADGEN_PRICE_TEXT_SEARCH_PRO", "40.5"),
            ("LEADGEN_HTTP_MAX_CONNECTIONS", "100"),
            ("LEADGEN_WEBHOOK_FIRST_RETRY_MS", "250"),
            ("LEADGEN_PRO_DAILY_LEADS", "500"),
            ("LEADGEN_FREE_DAILY_LEADS", "0"),
            ("LEADGEN_PREVIOUS_ENCRYPTION_KEYS", " a, ,b "),
            ("LEADGEN_LOG_FORMAT", "JSON"),
        ])
        .expect("config");
        assert_eq!(c.places.prices.pro, 40.5);
        assert_eq!(c.places.prices.enterprise, 35.0, "the others keep their defaults");
        assert_eq!(c.server.http_limits.max_connections, 100);
        assert_eq!(c.webhooks.first_retry, Duration::from_millis(250));
        assert_eq!(c.usage_limits.pro.daily_leads, Some(500));
        assert_eq!(c.usage_limits.free.daily_leads, None, "0: no cap");
        assert_eq!(c.secrets.previous_encryption_keys.len(), 2);
        assert!(c.telemetry.json_logs);
        assert!(c.places.completeness, "the completeness meter is on by default");
        assert_eq!(c.places.prices.aggregate, 10.0, "a cent a Places Aggregate call");
        assert_eq!(
            c.places.aggregate_base_url.as_str(),
            "https://areainsights.googleapis.com/"
        );
        let off = config(&[
            ("LEADGEN_COMPLETENESS", "OFF"),
            ("LEADGEN_AGGREGATE_BASE_URL", "http://127.0.0.1:8090"),
        ])
        .expect("config");
        assert!(!off.places.completeness);
        assert_eq!(off.places.aggregate_base_url.as_str(), "http://127.0.0.1:8090/");
        assert!(
            c.places.completeness_fetch_missing,
            "missed places are fetched by default"
        );
        assert_eq!(c.places.prices.details, 20.0, "Place Details Enterprise's list price");
        let no_fetch = config(&[
            ("LEADGEN_COMPLETENESS_FETCH_MISSING", "off"),
            ("LEADGEN_PRICE_PLACE_DETAILS_ENTERPRISE", "17"),
        ])
        .expect("config");
        assert!(!no_fetch.places.completeness_fetch_missing);
        assert_eq!(no_fetch.places.prices.details, 17.0);
        assert_eq!(
            c.places.plan_memory_days, 30,
            "plans are remembered for 30 days by default"
        );
        let off = config(&[("LEADGEN_PLAN_MEMORY_DAYS", "0")]).expect("config");
        assert_eq!(off.places.plan_memory_days, 0);
        let err = config(&[("LEADGEN_PLAN_MEMORY_DAYS", "31")]).expect_err("past Google's 30 days");
        assert_eq!(
            err.to_string(),
            "LEADGEN_PLAN_MEMORY_DAYS: '31' must be days from 0 to 30"
        );
        assert_eq!(c.database.api_connections, 16, "an API keeps 16 connections by default");
        let small = config(&[("LEADGEN_DATABASE_CONNECTIONS", "4")]).expect("config");
        assert_eq!(small.database.api_connections, 4);
        let err = config(&[("LEADGEN_DATABASE_CONNECTIONS", "1")]).expect_err("one is not a pool");
        assert_eq!(
            err.to_string(),
            "LEADGEN_DATABASE_CONNECTIONS: '1' must be connections from 2 to 200"
        );
        let err = config(&[("LEADGEN_COMPLETENESS", "maybe")]).expect_err("not a switch");
        assert_eq!(err.variable, "LEADGEN_COMPLETENESS");
        assert!(err.problem.contains("on or off"), "{err}");
        let err = config(&[("LEADGEN_WEBHOOK_MAX_ATTEMPTS", "31")]).expect_err("too many");
        assert_eq!(
            err.to_string(),
            "LEADGEN_WEBHOOK_MAX_ATTEMPTS: '31' must be attempts from 1 to 30"
        );
    }
}
