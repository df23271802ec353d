//! What operators see: logs (text, or JSON in production), Sentry when `SENTRY_DSN` is
//! set, and Prometheus metrics ([`metrics`]). Both processes call [`init`] first.
//!
//! Read straight from the environment, before the rest of the configuration, so a
//! configuration error is itself logged and reported:
//! - `LEADGEN_LOG_FORMAT`: `json` for one JSON object per line; `text` (default).
//! - `RUST_LOG`: the filter (default `info,sqlx=warn`).
//! - `SENTRY_DSN`: report panics, errors and tracing spans to Sentry.
//! - `SENTRY_ENVIRONMENT` (default `production`), `SENTRY_TRACES_SAMPLE_RATE` (0.0 to 1.0,
//!   default 0.1), `LEADGEN_RELEASE` (the release name; default `leadgen@{version}`).

pub mod metrics;

use tracing_subscriber::{EnvFilter, Layer, layer::SubscriberExt, util::SubscriberInitExt};

/// Keeps Sentry flushing until the process ends; hold it in `main`.
#[must_use = "dropping the guard stops Sentry"]
pub struct TelemetryGuard {
    _sentry: Option<sentry::ClientInitGuard>,
}

/// The release name reported to Sentry and logged at start.
pub fn release() -> String {
    release_from(std::env::var("LEADGEN_RELEASE").ok())
}

fn release_from(value: Option<String>) -> String {
    value
        .filter(|r| !r.trim().is_empty())
        .unwrap_or_else(|| format!("leadgen@{}", env!("CARGO_PKG_VERSION")))
}

/// Sets up logging and, when configured, Sentry, for the process named `service`.
pub fn init(service: &'static str) -> TelemetryGuard {
    init_with(service, |name| std::env::var(name).ok())
}

/// [`init`] with the settings read through `lookup` (tests pass a map).
pub fn init_with(service: &'static str, lookup: impl Fn(&str) -> Option<String>) -> TelemetryGuard {
    let env = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
    let sentry = env("SENTRY_DSN").map(|dsn| {
        let sample_rate = env("SENTRY_TRACES_SAMPLE_RATE")
            .and_then(|r| r.parse::<f32>().ok())
            .filter(|r| (0.0..=1.0).contains(r))
            .unwrap_or(0.1);
        let options = sentry::ClientOptions::new()
            .dsn(&dsn)
            .release(release_from(env("LEADGEN_RELEASE")))
            .environment(env("SENTRY_ENVIRONMENT").unwrap_or_else(|| "production".into()))
            .traces_sample_rate(sample_rate)
            .send_default_pii(false);
        let guard = sentry::init(options);
        sentry::configure_scope(|scope| scope.set_tag("service", service));
        guard
    });
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let json = env("LEADGEN_LOG_FORMAT").is_some_and(|f| f.eq_ignore_ascii_case("json"));
    let fmt = if json {
        tracing_subscriber::fmt::layer()
            .json()
            .with_current_span(true)
            .with_span_list(false)
            .boxed()
    } else {
        tracing_subscriber::fmt::layer().boxed()
    };
    // Spans become Sentry transactions; error-level events become Sentry events; the
    // rest stay breadcrumbs.
    let sentry_layers = sentry.as_ref().map(|_| {
        use sentry::integrations::tracing::{BreadcrumbLayer, ErrorLayer, SpanLayer};
        SpanLayer::new()
            .and_then(ErrorLayer::new())
            .and_then(BreadcrumbLayer::new())
    });
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(fmt)
        .with(sentry_layers)
        .try_init();
    TelemetryGuard { _sentry: sentry }
}
