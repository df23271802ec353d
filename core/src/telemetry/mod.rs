//! What operators see: logs (text, or JSON in production), Sentry when `SENTRY_DSN` is
//! set, and Prometheus metrics ([`metrics`]). Both processes call [`init`] right after
//! reading their configuration (its `[telemetry]` section: `LEADGEN_LOG_FORMAT`,
//! `RUST_LOG`, `SENTRY_DSN`, `SENTRY_ENVIRONMENT`, `SENTRY_TRACES_SAMPLE_RATE`,
//! `LEADGEN_RELEASE`); a configuration error goes to standard error before that.

pub mod metrics;

use tracing_subscriber::{EnvFilter, Layer, layer::SubscriberExt, util::SubscriberInitExt};

/// Keeps Sentry flushing until the process ends; hold it in `main`.
#[must_use = "dropping the guard stops Sentry"]
pub struct TelemetryGuard {
    _sentry: Option<sentry::ClientInitGuard>,
}

/// Libraries that log the documents they handle at debug level: the HTML parser under
/// the crawler writes every text node and link of a business's website (emails, profile
/// URLs) into its debug lines. Whatever `RUST_LOG` says, they log warnings and worse only.
const DOCUMENT_LOGGERS: [&str; 4] = ["html5ever", "markup5ever", "selectors", "scraper"];

/// `RUST_LOG`'s filter (`info,sqlx=warn` when it does not parse), with
/// [`DOCUMENT_LOGGERS`] capped at `warn`.
pub fn log_filter(spec: &str) -> EnvFilter {
    let filter = EnvFilter::try_new(spec).unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    DOCUMENT_LOGGERS
        .iter()
        .fold(filter, |filter, target| match format!("{target}=warn").parse() {
            Ok(directive) => filter.add_directive(directive),
            Err(_) => filter,
        })
}

/// Sets up logging and, when configured, Sentry, for the process named `service`.
pub fn init(service: &'static str, config: &crate::config::TelemetryConfig) -> TelemetryGuard {
    use secrecy::ExposeSecret;
    let sentry = config.sentry_dsn.as_ref().map(|dsn| {
        let options = sentry::ClientOptions::new()
            .dsn(dsn.expose_secret().trim())
            .release(config.release.clone())
            .environment(config.sentry_environment.clone())
            .traces_sample_rate(config.sentry_traces_sample_rate)
            .send_default_pii(false);
        let guard = sentry::init(options);
        sentry::configure_scope(|scope| scope.set_tag("service", service));
        guard
    });
    let filter = log_filter(&config.log_filter);
    let json = config.json_logs;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_html_parser_never_logs_below_warn() {
        for spec in ["debug", "trace,html5ever=trace", "not a filter ["] {
            let filter = log_filter(spec).to_string();
            for target in DOCUMENT_LOGGERS {
                assert!(filter.contains(&format!("{target}=warn")), "{spec}: {filter}");
                assert!(!filter.contains(&format!("{target}=trace")), "{spec}: {filter}");
            }
        }
    }
}
