//! Webhooks (issue #15): endpoints a user registers to be told when a search completes or
//! fails, signed as the Standard Webhooks specification says
//! (<https://www.standardwebhooks.com>): headers `webhook-id`, `webhook-timestamp` and
//! `webhook-signature: v1,<base64 HMAC-SHA256>` over `{id}.{timestamp}.{body}`, keyed with
//! the base64-decoded part of a `whsec_<base64>` secret.
//!
//! Deliveries are jobs (`WebhookJobV1`, worker `jobs/webhook.rs`); they reach endpoints
//! only through the guarded client (`crate::outbound`).

use base64::{Engine, engine::general_purpose::STANDARD};
use hmac::{Hmac, Mac};
use rand::RngCore;
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use url::{Host, Url};

use crate::{
    CoreError, CoreResult,
    ids::UserId,
    outbound::{OutboundError, OutboundPolicy},
};

/// What every signing secret starts with (the specification's form).
pub const SECRET_PREFIX: &str = "whsec_";
/// Random bytes in a secret (the specification asks for 24 to 64).
const SECRET_BYTES: usize = 32;
/// A user's endpoints, at most.
pub const MAX_ENDPOINTS_PER_USER: i64 = 20;
/// An endpoint URL's length, at most.
pub const MAX_URL_LEN: usize = 2000;

/// The events an endpoint can subscribe to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Enum), oai(rename = "WebhookEventType"))]
pub enum EventType {
    /// A search finished; the payload carries its leads.
    #[serde(rename = "search.completed")]
    #[cfg_attr(feature = "openapi", oai(rename = "search.completed"))]
    SearchCompleted,
    /// A search failed; the payload says why.
    #[serde(rename = "search.failed")]
    #[cfg_attr(feature = "openapi", oai(rename = "search.failed"))]
    SearchFailed,
    /// A saved search's run found new places (issue #29 item 5); the payload carries the
    /// saved search's id and name, the run's search id and the new leads.
    #[serde(rename = "saved_search.new_places")]
    #[cfg_attr(feature = "openapi", oai(rename = "saved_search.new_places"))]
    SavedSearchNewPlaces,
    /// "Send test event": delivered to one endpoint whatever it subscribes to.
    #[serde(rename = "webhook.test")]
    #[cfg_attr(feature = "openapi", oai(rename = "webhook.test"))]
    Test,
}

impl EventType {
    /// The events an endpoint may subscribe to.
    pub const SUBSCRIBABLE: [EventType; 3] = [
        EventType::SearchCompleted,
        EventType::SearchFailed,
        EventType::SavedSearchNewPlaces,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::SearchCompleted => "search.completed",
            Self::SearchFailed => "search.failed",
            Self::SavedSearchNewPlaces => "saved_search.new_places",
            Self::Test => "webhook.test",
        }
    }
}

/// Parses an endpoint's event subscription: a non-empty set of [`EventType::SUBSCRIBABLE`].
pub fn parse_events<S: AsRef<str>>(names: &[S]) -> CoreResult<Vec<EventType>> {
    let mut events = names
        .iter()
        .map(|n| {
            let n = n.as_ref().trim();
            EventType::SUBSCRIBABLE
                .into_iter()
                .find(|e| e.as_str() == n)
                .ok_or_else(|| {
                    CoreError::Invalid(format!(
                        "Unknown event '{n}'. Events are: search.completed, search.failed, saved_search.new_places."
                    ))
                })
        })
        .collect::<CoreResult<Vec<_>>>()?;
    events.sort();
    events.dedup();
    if events.is_empty() {
        return Err(CoreError::Invalid("Choose at least one event to send.".into()));
    }
    Ok(events)
}

/// The stored form of a subscription (names separated by spaces).
pub fn events_to_stored(events: &[EventType]) -> String {
    events.iter().map(|e| e.as_str()).collect::<Vec<_>>().join(" ")
}

/// Reads a stored subscription.
pub fn events_from_stored(text: &str) -> Vec<EventType> {
    text.split_whitespace()
        .filter_map(|n| EventType::SUBSCRIBABLE.into_iter().find(|e| e.as_str() == n))
        .collect()
}

/// Checks an endpoint URL: https, or http to a host exempted by
/// `LEADGEN_OUTBOUND_ALLOWED_HOSTS` (tests and demos); no credentials in it; not an
/// address the guarded client refuses when written as one. Names are checked again at
/// every delivery, where they resolve.
pub fn check_url(raw: &str, policy: &OutboundPolicy) -> CoreResult<Url> {
    let raw = raw.trim();
    if raw.len() > MAX_URL_LEN {
        return Err(CoreError::Invalid(format!(
            "The endpoint URL is at most {MAX_URL_LEN} characters."
        )));
    }
    let url = Url::parse(raw).map_err(|_| CoreError::Invalid("The endpoint URL is not a valid URL.".into()))?;
    let exempt = policy.is_exempt(&url);
    match url.scheme() {
        "https" => {}
        "http" if exempt => {}
        _ => {
            return Err(CoreError::Invalid(
                "The endpoint URL must start with https:// (plain http only for hosts this server allows for tests)."
                    .into(),
            ));
        }
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(CoreError::Invalid(
            "The endpoint URL must not hold a user name or password.".into(),
        ));
    }
    let ip = match url.host() {
        Some(Host::Ipv4(ip)) => Some(ip.into()),
        Some(Host::Ipv6(ip)) => Some(ip.into()),
        Some(Host::Domain(d)) if d.eq_ignore_ascii_case("localhost") && !exempt => {
            return Err(CoreError::Invalid(
                "The endpoint URL must be a public address, not localhost.".into(),
            ));
        }
        Some(Host::Domain(_)) => None,
        None => return Err(CoreError::Invalid("The endpoint URL has no host.".into())),
    };
    if !exempt && let Some(reason) = ip.and_then(crate::outbound::refusal) {
        return Err(CoreError::Invalid(format!(
            "The endpoint URL must be a public address; this one is {reason}."
        )));
    }
    Ok(url)
}

/// A new signing secret, `whsec_` and base64 of 32 random bytes.
pub fn generate_secret() -> String {
    let mut bytes = [0u8; SECRET_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes))
}

/// The `webhook-signature` header value for one attempt: `v1,` and the base64 HMAC-SHA256,
/// keyed with the secret's decoded bytes, of `{id}.{timestamp}.{body}`.
pub fn sign(secret: &str, message_id: &str, timestamp: i64, body: &[u8]) -> CoreResult<String> {
    let key = STANDARD
        .decode(secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret))
        .map_err(|_| CoreError::Internal("a webhook secret is not base64".into()))?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(|e| CoreError::Internal(e.to_string()))?;
    mac.update(message_id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    Ok(format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes())))
}

/// The message id of a search's terminal event: the same for every endpoint and every
/// attempt, so a receiver can drop repeats (the specification's idempotency key).
pub fn search_message_id(search_id: &crate::ids::SearchId) -> String {
    format!("msg_{}", search_id.as_str().replace('-', ""))
}

/// The `webhook-id` of a saved search run's `saved_search.new_places` event: its own, so
/// the endpoint's delivery log (idempotent by message id) never mistakes it for the same
/// run's `search.completed`.
pub fn new_places_message_id(search_id: &crate::ids::SearchId) -> String {
    format!("msg_new_{}", search_id.as_str().replace('-', ""))
}

/// How deliveries are attempted and retried: settings (`[webhooks]`, `LEADGEN_WEBHOOK_*`),
/// declared with the configuration.
pub use crate::config::DeliverySchedule;

/// The longest wait between two attempts.
pub const MAX_RETRY_DELAY: std::time::Duration = std::time::Duration::from_secs(6 * 3600);

impl DeliverySchedule {
    /// How long the whole schedule waits between its attempts, at most (jitter aside).
    pub fn total_wait(&self) -> std::time::Duration {
        (1..self.max_attempts)
            .map(|n| {
                self.first_retry
                    .saturating_mul(1 << (n - 1).min(30))
                    .min(MAX_RETRY_DELAY)
            })
            .sum()
    }
}

/// The vault context a workspace's webhook secrets are sealed under (a personal
/// workspace's id is its user's id, so secrets sealed before workspaces open unchanged).
pub fn secret_context(workspace: &crate::ids::WorkspaceId) -> String {
    format!("{workspace}:webhook_secret")
}

/// Seals a new secret for an endpoint of `workspace`.
pub fn seal_secret(
    vault: &crate::vault::Vault,
    workspace: &crate::ids::WorkspaceId,
    secret: &str,
) -> CoreResult<crate::vault::Sealed> {
    vault.seal(secret.as_bytes(), &secret_context(workspace))
}

/// Opens an endpoint's secret.
pub fn open_secret(
    vault: &crate::vault::Vault,
    workspace: &crate::ids::WorkspaceId,
    sealed: &crate::vault::Sealed,
) -> CoreResult<secrecy::SecretString> {
    use secrecy::ExposeSecret;
    let bytes = vault.open(sealed, &secret_context(workspace))?;
    let text = String::from_utf8(bytes.expose_secret().clone())
        .map_err(|_| CoreError::Crypto("a webhook secret is not text".into()))?;
    Ok(secrecy::SecretString::from(text))
}

/// Why a delivery attempt failed, as the delivery log shows it to the endpoint's owner: one
/// of a few plain outcomes, never the resolver's or the network stack's own words (those
/// go to the server log only).
///
/// The log is an oracle otherwise: "resolves to a private address" against "failed to
/// lookup address" against "connection refused" would let a user probe which names exist
/// inside the cluster, and which ports answer there. So every way of not reaching an
/// address is one outcome, [`DeliveryFailure::Unreachable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryFailure {
    /// The address may not be reached (private, loopback, link-local, metadata...), its
    /// name does not resolve, or nothing accepts a connection there.
    Unreachable,
    /// No answer within the delivery time-out.
    TimedOut,
    /// The TLS handshake failed (certificate, or a server that does not speak TLS).
    Tls,
    /// The answer was larger than the client reads.
    TooLarge,
    /// The endpoint answered this status, not a 2xx (a redirect is not followed).
    Status(u16),
    /// The exchange failed after connecting (the connection dropped, a malformed answer).
    Failed,
}

impl DeliveryFailure {
    /// The outcome of a failed request.
    pub fn of(error: &OutboundError) -> Self {
        match error {
            OutboundError::Refused { .. } | OutboundError::Connect(_) => Self::Unreachable,
            OutboundError::TimedOut => Self::TimedOut,
            OutboundError::Tls(_) => Self::Tls,
            OutboundError::TooLarge => Self::TooLarge,
            OutboundError::Http(_) => Self::Failed,
        }
    }

    /// Reads back an outcome from the log. Rows logged before the outcomes were fixed
    /// hold the client's own words; they are read by their wording, and anything else is
    /// [`DeliveryFailure::Failed`], so nothing else ever reaches the owner.
    pub fn from_logged(text: &str) -> Self {
        const PLAIN: [DeliveryFailure; 5] = [
            DeliveryFailure::Unreachable,
            DeliveryFailure::TimedOut,
            DeliveryFailure::Tls,
            DeliveryFailure::TooLarge,
            DeliveryFailure::Failed,
        ];
        if let Some(plain) = PLAIN.into_iter().find(|p| p.to_string() == text) {
            return plain;
        }
        let status = text
            .strip_prefix("HTTP ")
            .or_else(|| text.strip_prefix("the endpoint answered "))
            .and_then(|code| code.parse().ok());
        if let Some(code) = status {
            return Self::Status(code);
        }
        if text.starts_with("refused") || text.starts_with("could not connect") {
            Self::Unreachable
        } else if text.contains("in time") {
            Self::TimedOut
        } else if text.contains("larger than the limit") {
            Self::TooLarge
        } else {
            Self::Failed
        }
    }
}

impl std::fmt::Display for DeliveryFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unreachable => f.write_str("address not allowed or unreachable"),
            Self::TimedOut => f.write_str("timed out"),
            Self::Tls => f.write_str("TLS error"),
            Self::TooLarge => f.write_str("response too large"),
            Self::Status(code) => write!(f, "HTTP {code}"),
            Self::Failed => f.write_str("request failed"),
        }
    }
}

/// Test events ("send a test event") one user may send per [`TEST_EVENT_WINDOW`].
///
/// Per user, not per endpoint: a user may hold 20 endpoints (and replace them at will),
/// so a per-endpoint budget multiplies; the user is who probes. Five a minute is more
/// than anyone checking an endpoint by hand needs.
pub const TEST_EVENTS_PER_WINDOW: u32 = 5;
/// The window [`TEST_EVENTS_PER_WINDOW`] counts in.
pub const TEST_EVENT_WINDOW: std::time::Duration = std::time::Duration::from_secs(60);

/// Counts users' test events in fixed windows: in Redis in distributed mode (one count
/// for every API replica), in this process in embedded mode. Cheap to clone.
#[derive(Clone)]
pub enum TestEventLimit {
    /// Embedded mode: this process's counts.
    Local(std::sync::Arc<std::sync::Mutex<std::collections::HashMap<UserId, (std::time::Instant, u32)>>>),
    /// Distributed mode: counts in Redis under the prefix.
    Redis {
        /// The connection (reconnects by itself).
        conn: redis::aio::ConnectionManager,
        /// `LEADGEN_REDIS_PREFIX`.
        prefix: String,
    },
}

impl std::fmt::Debug for TestEventLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Local(_) => "TestEventLimit::Local",
            Self::Redis { .. } => "TestEventLimit::Redis",
        })
    }
}

/// Counts one event in KEYS[1] (a window that starts with its first event and lasts
/// ARGV[1] ms); returns 0 when it is within ARGV[2] events, else the ms left.
const COUNT_TEST_EVENT: &str = r#"
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if n <= tonumber(ARGV[2]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return left
"#;

impl TestEventLimit {
    /// Counts in this process.
    pub fn local() -> Self {
        Self::Local(std::sync::Arc::default())
    }

    /// Counts in Redis, under `prefix`.
    pub fn redis(conn: redis::aio::ConnectionManager, prefix: &str) -> Self {
        Self::Redis {
            conn,
            prefix: prefix.to_owned(),
        }
    }

    /// Counts one test event of `user_id`: `None` when it may be sent, or how long until
    /// the user's window ends.
    pub async fn take(&self, user_id: &UserId) -> CoreResult<Option<std::time::Duration>> {
        match self {
            Self::Local(counts) => {
                let now = std::time::Instant::now();
                let mut counts = counts.lock().unwrap_or_else(|e| e.into_inner());
                if counts.len() >= 10_000 {
                    counts.retain(|_, (start, _)| now.duration_since(*start) < TEST_EVENT_WINDOW);
                }
                let (start, n) = counts.entry(user_id.clone()).or_insert((now, 0));
                if now.duration_since(*start) >= TEST_EVENT_WINDOW {
                    (*start, *n) = (now, 0);
                }
                *n += 1;
                Ok((*n > TEST_EVENTS_PER_WINDOW).then(|| TEST_EVENT_WINDOW.saturating_sub(now.duration_since(*start))))
            }
            Self::Redis { conn, prefix } => {
                let mut conn = conn.clone();
                let window = u64::try_from(TEST_EVENT_WINDOW.as_millis()).unwrap_or(u64::MAX);
                let left: u64 = redis::Script::new(COUNT_TEST_EVENT)
                    .key(format!("{prefix}.webhook-test:{user_id}"))
                    .arg(window)
                    .arg(TEST_EVENTS_PER_WINDOW)
                    .invoke_async(&mut conn)
                    .await?;
                Ok((left > 0).then(|| std::time::Duration::from_millis(left)))
            }
        }
    }
}

/// The body of a message, in the specification's recommended shape.
pub fn body(event: EventType, timestamp: i64, data: serde_json::Value) -> String {
    let at = chrono::DateTime::<chrono::Utc>::from_timestamp(timestamp, 0)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default();
    serde_json::json!({"type": event.as_str(), "timestamp": at, "data": data}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_schedule_retries_for_about_a_day() {
        let schedule = DeliverySchedule {
            timeout: std::time::Duration::from_secs(10),
            first_retry: std::time::Duration::from_secs(5),
            max_attempts: 16,
        };
        let hours = schedule.total_wait().as_secs_f64() / 3600.0;
        assert!((20.0..=30.0).contains(&hours), "{hours} h");
    }

    #[test]
    fn secrets_have_the_specification_form() {
        let s = generate_secret();
        assert!(s.starts_with("whsec_"));
        assert_eq!(STANDARD.decode(&s[6..]).expect("base64").len(), 32);
        assert_ne!(s, generate_secret());
    }

    #[test]
    fn signing_matches_the_specification_example() {
        // The example in the Standard Webhooks specification and its libraries' tests.
        let signature = sign(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            br#"{"test": 2432232314}"#,
        )
        .expect("sign");
        assert_eq!(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn endpoint_urls_are_public_https() {
        let strict = OutboundPolicy::strict();
        assert!(check_url("https://hooks.example.com/leadgen", &strict).is_ok());
        for (bad, needle) in [
            ("http://hooks.example.com/x", "https://"),
            ("ftp://hooks.example.com/x", "https://"),
            ("https://user:pw@hooks.example.com/x", "user name"),
            ("https://127.0.0.1/x", "loopback"),
            ("https://169.254.169.254/latest", "metadata"),
            ("https://10.0.0.8/x", "private"),
            ("https://[::1]/x", "loopback"),
            ("https://localhost/x", "localhost"),
            ("not a url", "valid URL"),
        ] {
            let err = check_url(bad, &strict).expect_err(bad).to_string();
            assert!(err.contains(needle), "{bad}: {err}");
        }
        let demo = OutboundPolicy::new(vec!["127.0.0.1:9999".into()]);
        assert!(check_url("http://127.0.0.1:9999/hook", &demo).is_ok());
        assert!(check_url("http://127.0.0.1:9998/hook", &demo).is_err());
    }

    #[test]
    fn every_way_of_not_reaching_an_address_reads_the_same() {
        let unreachable = [
            OutboundError::Refused {
                reason: "the host resolves to a private address".into(),
            },
            OutboundError::Refused {
                reason: "the host is the cloud metadata address".into(),
            },
            OutboundError::Connect("dns error: failed to lookup address information".into()),
            OutboundError::Connect("tcp connect error: Connection refused (os error 111)".into()),
        ];
        for error in &unreachable {
            assert_eq!(
                DeliveryFailure::of(error).to_string(),
                "address not allowed or unreachable",
                "{error}"
            );
        }
        assert_eq!(DeliveryFailure::of(&OutboundError::TimedOut).to_string(), "timed out");
        assert_eq!(
            DeliveryFailure::of(&OutboundError::TooLarge).to_string(),
            "response too large"
        );
        assert_eq!(
            DeliveryFailure::of(&OutboundError::Tls("invalid peer certificate: Expired".into())).to_string(),
            "TLS error"
        );
        assert_eq!(DeliveryFailure::Status(503).to_string(), "HTTP 503");
    }

    #[test]
    fn the_log_shows_only_plain_outcomes_even_for_old_rows() {
        for plain in [
            DeliveryFailure::Unreachable,
            DeliveryFailure::TimedOut,
            DeliveryFailure::Tls,
            DeliveryFailure::TooLarge,
            DeliveryFailure::Status(500),
            DeliveryFailure::Failed,
        ] {
            assert_eq!(DeliveryFailure::from_logged(&plain.to_string()), plain);
        }
        // What the log held before: the client's own words.
        for (old, now) in [
            (
                "refused: the host resolves to a private address",
                "address not allowed or unreachable",
            ),
            (
                "could not connect: dns error: failed to lookup address",
                "address not allowed or unreachable",
            ),
            ("the site did not answer in time", "timed out"),
            ("the endpoint answered 502", "HTTP 502"),
            ("the request failed: connection reset by 10.0.0.7", "request failed"),
        ] {
            assert_eq!(DeliveryFailure::from_logged(old).to_string(), now, "{old}");
        }
    }

    #[tokio::test]
    async fn test_events_are_limited_per_user_per_window() {
        let limit = TestEventLimit::local();
        let (ada, bob) = (UserId::from("ada".to_owned()), UserId::from("bob".to_owned()));
        for _ in 0..TEST_EVENTS_PER_WINDOW {
            assert_eq!(limit.take(&ada).await.expect("count"), None);
        }
        let wait = limit.take(&ada).await.expect("count").expect("over the limit");
        assert!(
            wait > std::time::Duration::from_secs(55) && wait <= TEST_EVENT_WINDOW,
            "{wait:?}"
        );
        assert_eq!(
            limit.take(&bob).await.expect("count"),
            None,
            "another user's own budget"
        );
    }

    #[test]
    fn events_parse_to_a_non_empty_set() {
        assert_eq!(
            parse_events(&["search.failed", "search.completed", "search.failed"]).expect("ok"),
            vec![EventType::SearchCompleted, EventType::SearchFailed]
        );
        assert!(
            parse_events(&["webhook.test"]).is_err(),
            "test events are not subscribed to"
        );
        assert!(parse_events::<&str>(&[]).is_err());
        let stored = events_to_stored(&[EventType::SearchFailed]);
        assert_eq!(events_from_stored(&stored), vec![EventType::SearchFailed]);
    }
}
