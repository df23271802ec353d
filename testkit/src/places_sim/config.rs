//! Simulator settings and the builder that starts a simulator with them.

use std::{net::SocketAddr, time::Duration};

use super::{
    metro::{self, MetroDensity},
    server::PlacesSim,
};

/// Seed of the world when none is given.
pub const DEFAULT_SEED: u64 = 42;
/// Requests per minute per key when no quota is given: generous, like a fresh project.
pub const DEFAULT_RPM_QUOTA: u32 = 600;
/// How long a `SLOW` key waits: longer than any sane client timeout.
pub const DEFAULT_SLOW_DELAY: Duration = Duration::from_secs(30);

/// How a simulator behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct SimConfig {
    /// Seed of the synthetic world (and of page tokens and fault draws). Default 42.
    pub seed: u64,
    /// Fixed delay before every `searchText` answer. Default 0.
    pub latency: Duration,
    /// Extra random delay, uniform in `0..jitter`. Default 0.
    pub jitter: Duration,
    /// Share (0.0..=1.0) of `searchText` requests answered 503 `UNAVAILABLE`. Default 0.
    pub fault_rate: f64,
    /// Requests per minute allowed per key (sliding 60 s window); 0 disables. Default 600.
    pub rpm_quota: u32,
    /// Delay of a key containing `SLOW`. Default 30 s.
    pub slow_delay: Duration,
    /// Businesses of each dense type in the metro (Houston), by catalogue value. Default
    /// [`DEFAULT_METRO_DENSITY`](super::DEFAULT_METRO_DENSITY): 1,500 dentists, 3,000
    /// restaurants.
    pub metro_density: MetroDensity,
    /// Base URL of a [fake web](crate::fake_web) (`http://127.0.0.1:8091`): when set,
    /// `websiteUri` points at the business's site there instead of the reserved
    /// `https://{slug}.example.com/`. Default none.
    pub fake_web_url: Option<String>,
    /// Place ids Text Search never lists, though they exist (the Places Aggregate API
    /// counts and lists them, Place Details answers them): a place Google ranks out of
    /// every query. Default none.
    pub unlisted: Vec<String>,
}

impl Default for SimConfig {
    fn default() -> Self {
        Self {
            seed: DEFAULT_SEED,
            latency: Duration::ZERO,
            jitter: Duration::ZERO,
            fault_rate: 0.0,
            rpm_quota: DEFAULT_RPM_QUOTA,
            slow_delay: DEFAULT_SLOW_DELAY,
            metro_density: metro::default_density(),
            fake_web_url: None,
            unlisted: Vec::new(),
        }
    }
}

/// Builds a simulator: `PlacesSim::builder().seed(7).rpm_quota(60).start(addr).await`.
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct PlacesSimBuilder {
    config: SimConfig,
}

impl PlacesSimBuilder {
    /// Seed of the world.
    pub fn seed(mut self, seed: u64) -> Self {
        self.config.seed = seed;
        self
    }

    /// Fixed delay before every answer.
    pub fn latency(mut self, latency: Duration) -> Self {
        self.config.latency = latency;
        self
    }

    /// Random extra delay, up to `jitter`.
    pub fn jitter(mut self, jitter: Duration) -> Self {
        self.config.jitter = jitter;
        self
    }

    /// Share of requests answered 503 (clamped to 0.0..=1.0).
    pub fn fault_rate(mut self, rate: f64) -> Self {
        self.config.fault_rate = rate.clamp(0.0, 1.0);
        self
    }

    /// Requests per minute per key; 0 disables the quota.
    pub fn rpm_quota(mut self, rpm: u32) -> Self {
        self.config.rpm_quota = rpm;
        self
    }

    /// How long a `SLOW` key waits.
    pub fn slow_delay(mut self, delay: Duration) -> Self {
        self.config.slow_delay = delay;
        self
    }

    /// Makes `place_type` (a catalogue value) hold exactly `count` businesses in the
    /// metro, laid out in its clusters; a type not set keeps its default (dense for
    /// `dentist` and `restaurant`, normal for the others).
    pub fn metro_density(mut self, place_type: &str, count: u32) -> Self {
        self.config.metro_density.insert(place_type.to_owned(), count);
        self
    }

    /// Points `websiteUri` at the sites of the fake web at `base_url`.
    pub fn fake_web(mut self, base_url: impl Into<String>) -> Self {
        self.config.fake_web_url = Some(base_url.into());
        self
    }

    /// Makes Text Search never list the place `place_id` (see [`SimConfig::unlisted`]).
    pub fn unlisted(mut self, place_id: impl Into<String>) -> Self {
        self.config.unlisted.push(place_id.into());
        self
    }

    /// All settings at once.
    pub fn config(mut self, config: SimConfig) -> Self {
        self.config = config;
        self
    }

    /// Starts the simulator on `addr` (port 0 picks a free one).
    pub async fn start(self, addr: SocketAddr) -> std::io::Result<PlacesSim> {
        PlacesSim::start_with(addr, self.config).await
    }
}
