//! Prometheus metrics of one process, served at `/metrics` by the API and the worker.
//!
//! One registry per process ([`metrics()`]): instrumented code anywhere records into it
//! without threading a handle through every layer. Label values are bounded: routes are
//! operation ids, outcomes come from fixed lists.

use std::sync::{LazyLock, atomic::AtomicU64};

use prometheus_client::{
    encoding::{EncodeLabelSet, text::encode},
    metrics::{counter::Counter, family::Family, gauge::Gauge, histogram::Histogram},
    registry::Registry,
};

/// Labels of an HTTP request.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct HttpLabels {
    /// Method.
    pub method: String,
    /// The operation id, `web` for the app's files, `unmatched` otherwise.
    pub route: String,
    /// Status code.
    pub status: u16,
}

/// Labels of an HTTP request's duration.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    /// Method.
    pub method: String,
    /// As in [`HttpLabels::route`].
    pub route: String,
}

/// A label naming how something ended.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct OutcomeLabels {
    /// E.g. `succeeded`, `failed`, `retried`; `ok`, `quota`, `invalid_key`.
    pub outcome: String,
}

/// Labels naming a worker process.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct WorkerLabels {
    /// Its name in the fleet (the pod name under Kubernetes).
    pub worker: String,
}

/// Labels naming a job kind's queue.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct QueueLabels {
    /// The kind's queue name (`search.v1`, `webhook.v1`...), one per `registry!` line.
    pub queue: String,
}

/// Labels naming a dependency a readiness check reaches.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct DependencyLabels {
    /// `store` (Postgres, or SQLite when embedded) or `redis` (queue and event bus).
    pub dependency: String,
}

/// Labels naming a Google Places SKU.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct SkuLabels {
    /// `ids_only`, `pro` or `enterprise`.
    pub sku: String,
}

/// A gauge holding a fraction (seconds), where the default gauge holds whole numbers.
pub type FloatGauge = Gauge<f64, AtomicU64>;

/// A counter of a fraction (dollars).
pub type FloatCounter = Counter<f64, AtomicU64>;

/// Every series Leadgen exports.
pub struct Metrics {
    registry: Registry,
    /// `leadgen_http_requests_total{method,route,status}`.
    pub http_requests: Family<HttpLabels, Counter>,
    /// `leadgen_http_request_duration_seconds{method,route}`.
    pub http_duration: Family<RouteLabels, Histogram>,
    /// `leadgen_sse_streams_open`.
    pub sse_streams_open: Gauge,
    /// `leadgen_queue_depth{queue}`: jobs of each kind waiting, ready or delayed for a
    /// retry (set when scraped).
    pub queue_depth: Family<QueueLabels, Gauge>,
    /// `leadgen_jobs_running`.
    pub jobs_running: Gauge,
    /// `leadgen_jobs_total{outcome=succeeded|failed|retried}`.
    pub jobs: Family<OutcomeLabels, Counter>,
    /// `leadgen_job_duration_seconds`.
    pub job_duration: Histogram,
    /// `leadgen_places_requests_total{outcome}`: upstream Places calls.
    pub places_requests: Family<OutcomeLabels, Counter>,
    /// `leadgen_places_aggregate_requests_total{outcome}`: Places Aggregate API calls
    /// (the completeness meter).
    pub places_aggregate_requests: Family<OutcomeLabels, Counter>,
    /// `leadgen_outbound_requests_total{outcome}`: fetches of third-party URLs (websites,
    /// webhooks) by the guarded client, `refused` among them.
    pub outbound_requests: Family<OutcomeLabels, Counter>,
    /// `leadgen_rate_limit_waits_total`: times a search waited for its key's rate limit.
    pub rate_limit_waits: Counter,
    /// `leadgen_rate_limit_wait_seconds`: how long those waits were.
    pub rate_limit_wait_seconds: Histogram,
    /// `leadgen_worker_info{worker}`: 1, naming this worker process in the fleet.
    pub worker_info: Family<WorkerLabels, Gauge>,
    /// `leadgen_jobs_handed_back_total{outcome=dead_worker|shutdown|restart}`: unfinished
    /// jobs this process put back at the front of the queue.
    pub jobs_handed_back: Family<OutcomeLabels, Counter>,
    /// `leadgen_queue_oldest_age_seconds{queue}`: how long the longest-waiting job of each
    /// kind has waited for a worker (the head of the ready line since it was queued: new
    /// jobs join the tail, handed-back ones the head; or a retry since it became due); 0
    /// when none waits (set when scraped).
    pub queue_oldest_age: Family<QueueLabels, FloatGauge>,
    /// `leadgen_worker_slots`: searches this worker process may run at once (its
    /// `LEADGEN_WORKER_CONCURRENCY`); with `leadgen_jobs_running`, how full the fleet is.
    pub worker_slots: Gauge,
    /// `leadgen_search_first_lead_seconds`: from a search's creation (its id's time) to its
    /// first lead on the stream, for searches that find one.
    pub search_first_lead: Histogram,
    /// `leadgen_dependency_up{dependency=store|redis}`: 1 when the last readiness check
    /// reached it, 0 when it did not.
    pub dependency_up: Family<DependencyLabels, Gauge>,
    /// `leadgen_webhook_deliveries_total{outcome=delivered|failed|refused}`: attempts to
    /// deliver a webhook message.
    pub webhook_deliveries: Family<OutcomeLabels, Counter>,
    /// `leadgen_saved_search_runs_total{outcome=on_time|late|refused|deferred}`: scheduled
    /// runs of saved searches started within two minutes of when they were due, started
    /// later (a window missed while no worker was up, or pacing), refused (no key, the
    /// allowance or the spend cap), and due runs a tick left to the next one (pacing).
    pub saved_search_runs: Family<OutcomeLabels, Counter>,
    /// `leadgen_saved_search_overdue_seconds`: how long ago the longest-overdue scheduled
    /// run of a saved search was due (0: none is due), read from the store at each scrape
    /// of the API; it grows while no scheduler ticks (no worker alive) and stays low when
    /// pacing holds runs back for a tick or two.
    pub saved_search_overdue: FloatGauge,
    /// `leadgen_places_sku_requests_total{sku}`: Text Search requests of finished searches,
    /// by the SKU Google bills them under.
    pub places_sku_requests: Family<SkuLabels, Counter>,
    /// `leadgen_places_cost_usd_total{sku}`: what those requests cost at the configured
    /// list prices, in US dollars.
    pub places_cost_usd: Family<SkuLabels, FloatCounter>,
    /// `leadgen_enrichment_leads_total{outcome=found|none|not_read|no_website}`: how
    /// reading each lead's website went, counted when an enriched search completes.
    pub enrichment_leads: Family<OutcomeLabels, Counter>,
}

/// Buckets of [`Metrics::search_first_lead`], seconds: the SLO's threshold (10 s,
/// docs/operations.md) is one of them, so its ratio is exact.
pub const FIRST_LEAD_BUCKETS: [f64; 11] = [0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0];

fn latency_buckets() -> Histogram {
    Histogram::new([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0])
}

impl Metrics {
    fn new() -> Self {
        let mut registry = Registry::with_prefix("leadgen");
        let http_requests = Family::<HttpLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests by route and status",
            http_requests.clone(),
        );
        let http_duration =
            Family::<RouteLabels, Histogram>::new_with_constructor(latency_buckets as fn() -> Histogram);
        registry.register(
            "http_request_duration_seconds",
            "HTTP request latency by route (until the response starts; streams count their set-up only)",
            http_duration.clone(),
        );
        let sse_streams_open = Gauge::default();
        registry.register(
            "sse_streams_open",
            "Search event streams open now",
            sse_streams_open.clone(),
        );
        let queue_depth = Family::<QueueLabels, Gauge>::default();
        registry.register(
            "queue_depth",
            "Jobs waiting in each kind's queue (ready, or delayed for a retry)",
            queue_depth.clone(),
        );
        let jobs_running = Gauge::default();
        registry.register(
            "jobs_running",
            "Search jobs running in this process",
            jobs_running.clone(),
        );
        let jobs = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "jobs",
            "Search jobs finished, by outcome (succeeded, failed, retried)",
            jobs.clone(),
        );
        let job_duration = Histogram::new([0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0]);
        registry.register("job_duration_seconds", "Search job duration", job_duration.clone());
        let places_requests = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "places_requests",
            "Calls to Google Places, by outcome",
            places_requests.clone(),
        );
        let places_aggregate_requests = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "places_aggregate_requests",
            "Calls to Google's Places Aggregate API (the completeness meter), by outcome",
            places_aggregate_requests.clone(),
        );
        let outbound_requests = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "outbound_requests",
            "Fetches of third-party URLs (websites, webhooks), by outcome (ok, refused, timed_out, too_large, connect, http)",
            outbound_requests.clone(),
        );
        let rate_limit_waits = Counter::default();
        registry.register(
            "rate_limit_waits",
            "Times a search waited for its API key's rate limit",
            rate_limit_waits.clone(),
        );
        let rate_limit_wait_seconds = Histogram::new([0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0]);
        registry.register(
            "rate_limit_wait_seconds",
            "Time spent waiting for an API key's rate limit",
            rate_limit_wait_seconds.clone(),
        );
        let worker_info = Family::<WorkerLabels, Gauge>::default();
        registry.register(
            "worker_info",
            "This worker process's name in the fleet (value 1)",
            worker_info.clone(),
        );
        let jobs_handed_back = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "jobs_handed_back",
            "Unfinished jobs put back at the front of the queue, by why (dead_worker, shutdown, restart)",
            jobs_handed_back.clone(),
        );
        let queue_oldest_age = Family::<QueueLabels, FloatGauge>::default();
        registry.register(
            "queue_oldest_age_seconds",
            "Seconds the longest-waiting job of each kind's queue has waited (0: none waits)",
            queue_oldest_age.clone(),
        );
        let worker_slots = Gauge::default();
        registry.register(
            "worker_slots",
            "Searches this worker process may run at once",
            worker_slots.clone(),
        );
        let search_first_lead = Histogram::new(FIRST_LEAD_BUCKETS);
        registry.register(
            "search_first_lead_seconds",
            "Seconds from a search's creation to its first lead on the stream",
            search_first_lead.clone(),
        );
        let dependency_up = Family::<DependencyLabels, Gauge>::default();
        registry.register(
            "dependency_up",
            "Whether the last readiness check reached the dependency (1) or not (0)",
            dependency_up.clone(),
        );
        let webhook_deliveries = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "webhook_deliveries",
            "Webhook delivery attempts, by outcome (delivered, failed, refused)",
            webhook_deliveries.clone(),
        );
        let saved_search_runs = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "saved_search_runs",
            "Scheduled runs of saved searches, by outcome (on_time, late, refused; deferred: left to the next tick by pacing)",
            saved_search_runs.clone(),
        );
        let saved_search_overdue = FloatGauge::default();
        registry.register(
            "saved_search_overdue_seconds",
            "Seconds since the longest-overdue scheduled run of a saved search was due (0: none is due)",
            saved_search_overdue.clone(),
        );
        let places_sku_requests = Family::<SkuLabels, Counter>::default();
        registry.register(
            "places_sku_requests",
            "Text Search requests of finished searches, by SKU",
            places_sku_requests.clone(),
        );
        let places_cost_usd = Family::<SkuLabels, FloatCounter>::default();
        registry.register(
            "places_cost_usd",
            "US dollars the Text Search requests of finished searches cost at the configured prices, by SKU",
            places_cost_usd.clone(),
        );
        let enrichment_leads = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "enrichment_leads",
            "Leads of completed enriched searches, by how reading their website went (found, none, not_read, no_website)",
            enrichment_leads.clone(),
        );
        Self {
            registry,
            enrichment_leads,
            queue_oldest_age,
            worker_slots,
            search_first_lead,
            dependency_up,
            webhook_deliveries,
            saved_search_overdue,
            saved_search_runs,
            places_sku_requests,
            places_cost_usd,
            worker_info,
            jobs_handed_back,
            http_requests,
            http_duration,
            sse_streams_open,
            queue_depth,
            jobs_running,
            jobs,
            job_duration,
            places_requests,
            places_aggregate_requests,
            outbound_requests,
            rate_limit_waits,
            rate_limit_wait_seconds,
        }
    }

    /// The exposition text (OpenMetrics, which Prometheus reads).
    pub fn encode(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }

    /// Counts a job's end.
    pub fn job_finished(&self, outcome: &str) {
        self.jobs
            .get_or_create(&OutcomeLabels {
                outcome: outcome.to_owned(),
            })
            .inc();
    }

    /// Sets what waits in the queue `queue` (a kind's queue name).
    pub fn queue_waiting(&self, queue: &str, depth: i64, oldest_age_secs: f64) {
        let labels = QueueLabels {
            queue: queue.to_owned(),
        };
        self.queue_depth.get_or_create(&labels).set(depth);
        self.queue_oldest_age.get_or_create(&labels).set(oldest_age_secs);
    }

    /// Counts jobs handed back to the queue.
    pub fn handed_back(&self, why: &str, jobs: u64) {
        self.jobs_handed_back
            .get_or_create(&OutcomeLabels {
                outcome: why.to_owned(),
            })
            .inc_by(jobs);
    }

    /// Counts a fetch of a third-party URL by its outcome.
    pub fn outbound_request(&self, outcome: &str) {
        self.outbound_requests
            .get_or_create(&OutcomeLabels {
                outcome: outcome.to_owned(),
            })
            .inc();
    }

    /// Records whether a readiness check reached `dependency`.
    pub fn dependency(&self, dependency: &str, up: bool) {
        self.dependency_up
            .get_or_create(&DependencyLabels {
                dependency: dependency.to_owned(),
            })
            .set(i64::from(up));
    }

    /// Counts a webhook delivery attempt by its outcome.
    pub fn webhook_delivery(&self, outcome: &str) {
        self.webhook_deliveries
            .get_or_create(&OutcomeLabels {
                outcome: outcome.to_owned(),
            })
            .inc();
    }

    /// Counts a scheduled run of a saved search by its outcome (`on_time`, `late`,
    /// `refused`, `deferred`).
    pub fn saved_search_run(&self, outcome: &str) {
        self.saved_search_runs
            .get_or_create(&OutcomeLabels {
                outcome: outcome.to_owned(),
            })
            .inc();
    }

    /// Counts a lead's enrichment outcome.
    pub fn enrichment_lead(&self, outcome: &str) {
        self.enrichment_leads
            .get_or_create(&OutcomeLabels {
                outcome: outcome.to_owned(),
            })
            .inc();
    }

    /// Counts a finished search's requests of one SKU and what they cost.
    pub fn places_spend(&self, sku: &str, requests: u32, cost_usd: f64) {
        let labels = SkuLabels { sku: sku.to_owned() };
        self.places_sku_requests
            .get_or_create(&labels)
            .inc_by(u64::from(requests));
        self.places_cost_usd.get_or_create(&labels).inc_by(cost_usd);
    }

    /// Counts an upstream Places call.
    pub fn places_call(&self, outcome: &str) {
        self.places_requests
            .get_or_create(&OutcomeLabels {
                outcome: outcome.to_owned(),
            })
            .inc();
    }

    /// Counts a Places Aggregate API call.
    pub fn aggregate_call(&self, outcome: &str) {
        self.places_aggregate_requests
            .get_or_create(&OutcomeLabels {
                outcome: outcome.to_owned(),
            })
            .inc();
    }
}

/// The content type of [`Metrics::encode`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

/// This process's metrics.
pub fn metrics() -> &'static Metrics {
    &METRICS
}

/// Decrements a gauge when dropped: an open stream or running job that ends in any way
/// (including a panic or a dropped future) stops being counted.
pub struct GaugeGuard(&'static Gauge);

impl GaugeGuard {
    /// Increments `gauge` until the guard is dropped.
    pub fn new(gauge: &'static Gauge) -> Self {
        gauge.inc();
        Self(gauge)
    }
}

impl Drop for GaugeGuard {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exposes_every_series_with_the_prefix() {
        let m = metrics();
        m.job_finished("succeeded");
        m.places_call("ok");
        m.aggregate_call("ok");
        m.dependency("store", true);
        m.webhook_delivery("delivered");
        m.places_spend("enterprise", 2, 0.07);
        m.search_first_lead.observe(0.4);
        m.queue_waiting("search.v1", 2, 1.5);
        // Families appear once they have a sample.
        m.http_requests
            .get_or_create(&HttpLabels {
                method: "GET".into(),
                route: "get_health".into(),
                status: 200,
            })
            .inc();
        m.http_duration
            .get_or_create(&RouteLabels {
                method: "GET".into(),
                route: "get_health".into(),
            })
            .observe(0.001);
        let text = m.encode();
        for series in [
            "leadgen_http_requests_total",
            "leadgen_http_request_duration_seconds",
            "leadgen_sse_streams_open",
            "leadgen_queue_depth{queue=\"search.v1\"} 2",
            "leadgen_jobs_running",
            "leadgen_jobs_total{outcome=\"succeeded\"}",
            "leadgen_job_duration_seconds",
            "leadgen_places_requests_total{outcome=\"ok\"}",
            "leadgen_places_aggregate_requests_total{outcome=\"ok\"}",
            "leadgen_rate_limit_waits_total",
            "leadgen_rate_limit_wait_seconds",
            "leadgen_queue_oldest_age_seconds{queue=\"search.v1\"} 1.5",
            "leadgen_worker_slots",
            "leadgen_search_first_lead_seconds_bucket{le=\"10.0\"}",
            "leadgen_dependency_up{dependency=\"store\"} 1",
            "leadgen_webhook_deliveries_total{outcome=\"delivered\"}",
            "leadgen_places_sku_requests_total{sku=\"enterprise\"}",
            "leadgen_places_cost_usd_total{sku=\"enterprise\"}",
        ] {
            assert!(text.contains(series), "{series} missing from\n{text}");
        }
    }

    #[test]
    fn gauge_guard_counts_while_alive() {
        static GAUGE: LazyLock<Gauge> = LazyLock::new(Gauge::default);
        let before = GAUGE.get();
        {
            let _a = GaugeGuard::new(&GAUGE);
            let _b = GaugeGuard::new(&GAUGE);
            assert_eq!(GAUGE.get(), before + 2);
        }
        assert_eq!(GAUGE.get(), before);
    }
}
