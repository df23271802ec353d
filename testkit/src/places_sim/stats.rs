//! What the simulator has been asked and what Google would bill for it.

use std::{
    collections::BTreeMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use serde::Serialize;

use super::sku::{Sku, Usd};

/// Counters so far, as `GET /_sim/stats` returns them (camelCase JSON).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SimStats {
    /// Every `searchText` request received, whatever the answer.
    pub search_text_requests: u64,
    /// Every Places Aggregate `computeInsights` request received, whatever the answer
    /// (not in `searchTextRequests`, nor in `requestsByKey`: another API, another quota).
    pub compute_insights_requests: u64,
    /// Every Place Details request received, whatever the answer (not in
    /// `searchTextRequests`; in `requestsByKey`, as the key's rate limit covers both).
    pub place_details_requests: u64,
    /// Requests answered with 200: the ones Google would bill.
    pub billable_requests: u64,
    /// Billable requests per SKU (every SKU listed, zeros included).
    pub billable_by_sku: BTreeMap<Sku, u64>,
    /// What the billable requests of each SKU cost at Google's list price per 1,000
    /// ([`Sku::list_price_per_1000_usd`]), in dollars (every SKU listed).
    pub cost_usd_by_sku: BTreeMap<Sku, Usd>,
    /// The sum of `cost_usd_by_sku`.
    pub cost_usd: Usd,
    /// Requests per API key, whatever the answer (requests without a key are not listed).
    pub requests_by_key: BTreeMap<String, u64>,
    /// Billable requests identical (key, field mask and body, page token included) to one
    /// answered before: what a client pays twice for. A client that retries a page it
    /// already received shows up here.
    pub repeated_requests: u64,
    /// Requests received and not answered yet (within their simulated latency). A client
    /// that crashes now never sees these answers, yet they are billed, as Google bills
    /// work it did: a retry that asks again pays twice, which no client can avoid.
    pub in_flight_requests: u64,
}

impl SimStats {
    /// Billable requests at `sku`.
    pub fn billable(&self, sku: Sku) -> u64 {
        self.billable_by_sku.get(&sku).copied().unwrap_or(0)
    }

    /// What the billable requests at `sku` cost at list price.
    pub fn cost(&self, sku: Sku) -> Usd {
        self.cost_usd_by_sku.get(&sku).copied().unwrap_or_default()
    }

    /// Requests sent with `key`.
    pub fn requests_for(&self, key: &str) -> u64 {
        self.requests_by_key.get(key).copied().unwrap_or(0)
    }
}

#[derive(Debug, Default)]
struct Inner {
    search_text: u64,
    compute_insights: u64,
    place_details: u64,
    billable: BTreeMap<Sku, u64>,
    /// How often each billed request (by its identity hash) was answered.
    answered: std::collections::HashMap<u64, u64>,
    in_flight: u64,
    /// Arrival times per key, in arrival order.
    arrivals: BTreeMap<String, Vec<Duration>>,
}

/// The live counters.
#[derive(Debug)]
pub(crate) struct Recorder {
    start: Instant,
    inner: Mutex<Inner>,
}

impl Recorder {
    pub(crate) fn new() -> Self {
        Self {
            start: Instant::now(),
            inner: Mutex::new(Inner::default()),
        }
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a `searchText` request and, when it carries a key, its arrival time.
    /// Returns the arrival instant.
    pub(crate) fn arrival(&self, key: Option<&str>) -> Instant {
        self.keyed_arrival(key, |inner| inner.search_text += 1)
    }

    /// Counts a Place Details request and, when it carries a key, its arrival time.
    /// Returns the arrival instant.
    pub(crate) fn details_arrival(&self, key: Option<&str>) -> Instant {
        self.keyed_arrival(key, |inner| inner.place_details += 1)
    }

    /// Counts a request with `count` and records its arrival under its key (both kinds
    /// share a key's pace, as Google's per-key rate does).
    fn keyed_arrival(&self, key: Option<&str>, count: impl FnOnce(&mut Inner)) -> Instant {
        let mut inner = self.inner();
        // Taken under the lock, so each key's times are in order.
        let now = Instant::now();
        count(&mut inner);
        if let Some(key) = key {
            inner
                .arrivals
                .entry(key.to_owned())
                .or_default()
                .push(now.duration_since(self.start));
        }
        now
    }

    /// Counts a `computeInsights` request.
    pub(crate) fn insights_arrival(&self) {
        self.inner().compute_insights += 1;
    }

    pub(crate) fn billed(&self, sku: Sku, identity: u64) {
        let mut inner = self.inner();
        *inner.billable.entry(sku).or_default() += 1;
        *inner.answered.entry(identity).or_default() += 1;
    }

    /// A request waiting for its answer: in flight until the guard is dropped.
    pub(crate) fn pending(self: &std::sync::Arc<Self>) -> Pending {
        self.inner().in_flight += 1;
        Pending { recorder: self.clone() }
    }

    pub(crate) fn snapshot(&self) -> SimStats {
        let inner = self.inner();
        let mut by_sku: BTreeMap<Sku, u64> = Sku::ALL.iter().map(|s| (*s, 0)).collect();
        by_sku.extend(inner.billable.iter().map(|(s, n)| (*s, *n)));
        let cost_by_sku: BTreeMap<Sku, Usd> = by_sku.iter().map(|(sku, n)| (*sku, sku.cost(*n))).collect();
        SimStats {
            search_text_requests: inner.search_text,
            compute_insights_requests: inner.compute_insights,
            place_details_requests: inner.place_details,
            billable_requests: inner.billable.values().sum(),
            cost_usd: cost_by_sku.values().copied().sum(),
            cost_usd_by_sku: cost_by_sku,
            billable_by_sku: by_sku,
            requests_by_key: inner
                .arrivals
                .iter()
                .map(|(k, v)| (k.clone(), v.len() as u64))
                .collect(),
            repeated_requests: inner.answered.values().map(|n| n.saturating_sub(1)).sum(),
            in_flight_requests: inner.in_flight,
        }
    }

    /// Arrival times of `key`'s requests since the simulator started.
    pub(crate) fn arrivals(&self, key: &str) -> Vec<Duration> {
        self.inner().arrivals.get(key).cloned().unwrap_or_default()
    }

    pub(crate) fn reset(&self) {
        *self.inner() = Inner::default();
    }
}

/// A request between arrival and answer (see [`Recorder::pending`]).
pub(crate) struct Pending {
    recorder: std::sync::Arc<Recorder>,
}

impl Drop for Pending {
    fn drop(&mut self) {
        let mut inner = self.recorder.inner();
        inner.in_flight = inner.in_flight.saturating_sub(1);
    }
}

/// A request's identity for [`SimStats::repeated_requests`].
pub(crate) fn request_identity(key: &str, mask: &str, body: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (key, mask, body).hash(&mut hasher);
    hasher.finish()
}

/// The most requests that fall in any window of length `window` (half-open: requests
/// exactly `window` apart are in different windows).
pub fn max_in_window(arrivals: &[Duration], window: Duration) -> usize {
    let mut best = 0;
    let mut first = 0;
    for (last, t) in arrivals.iter().enumerate() {
        while *t - arrivals[first] >= window {
            first += 1;
        }
        best = best.max(last - first + 1);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliding_window_counts_the_densest_second() {
        let ms = |v: &[u64]| v.iter().map(|m| Duration::from_millis(*m)).collect::<Vec<_>>();
        let one_second = Duration::from_secs(1);
        assert_eq!(max_in_window(&[], one_second), 0);
        assert_eq!(
            max_in_window(&ms(&[0, 100, 200, 1500, 1600, 1700, 1800]), one_second),
            4
        );
        assert_eq!(max_in_window(&ms(&[0, 1000, 2000]), one_second), 1, "half-open windows");
        assert_eq!(max_in_window(&ms(&[0, 999]), one_second), 2);
    }

    #[test]
    fn records_per_key_and_resets() {
        let recorder = Recorder::new();
        recorder.arrival(Some("a"));
        recorder.arrival(Some("a"));
        recorder.arrival(None);
        recorder.billed(Sku::TextSearchPro, request_identity("a", "places.id", b"{}"));
        recorder.billed(Sku::TextSearchPro, request_identity("a", "places.id", b"{}"));
        recorder.billed(
            Sku::TextSearchPro,
            request_identity("a", "places.id", b"{\"pageToken\":\"t\"}"),
        );
        let recorder = std::sync::Arc::new(recorder);
        let waiting = recorder.pending();
        drop(recorder.pending());
        let stats = recorder.snapshot();
        assert_eq!(stats.repeated_requests, 1, "the same body twice is one repeat");
        assert_eq!(stats.in_flight_requests, 1, "one still waits for its answer");
        drop(waiting);
        assert_eq!(recorder.snapshot().in_flight_requests, 0);
        assert_eq!(stats.search_text_requests, 3);
        assert_eq!(stats.requests_for("a"), 2);
        assert_eq!(stats.billable(Sku::TextSearchPro), 3);
        assert_eq!(stats.billable(Sku::TextSearchEnterprise), 0);
        assert_eq!(stats.billable_by_sku.len(), 10);
        assert_eq!(stats.billable_requests, 3);
        assert_eq!(stats.cost(Sku::TextSearchPro).micros(), 96_000, "3 x $32 / 1000");
        assert_eq!(stats.cost_usd.micros(), 96_000);
        assert_eq!(stats.cost_usd_by_sku.len(), 10);
        recorder.reset();
        assert_eq!(recorder.snapshot().search_text_requests, 0);
        assert!(recorder.arrivals("a").is_empty());
    }
}
