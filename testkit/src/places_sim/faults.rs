//! Latency and injected failures: a fixed delay plus jitter on every answer, a random
//! share of 503 `UNAVAILABLE` answers, and two key markers for deterministic tests:
//! a key containing `FLAKY` gets a 503 the first time it sends a given body (the retry
//! succeeds), and a key containing `SLOW` waits longer than any sane client timeout.

use std::{
    collections::HashSet,
    sync::{
        Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use super::rng::{Rng, hash_parts};

/// Key marker: the first request for each distinct body answers 503, the retry succeeds.
pub const FLAKY_MARKER: &str = "FLAKY";
/// Key marker: the answer comes only after the configured slow delay (default 30 s).
pub const SLOW_MARKER: &str = "SLOW";

/// Fault and latency settings with their per-run memory.
#[derive(Debug)]
pub(crate) struct Faults {
    latency: Duration,
    jitter: Duration,
    fault_rate: f64,
    slow_delay: Duration,
    seed: u64,
    draws: AtomicU64,
    flaky_seen: Mutex<HashSet<[u8; 32]>>,
}

impl Faults {
    pub(crate) fn new(seed: u64, latency: Duration, jitter: Duration, fault_rate: f64, slow_delay: Duration) -> Self {
        Self {
            latency,
            jitter,
            fault_rate: fault_rate.clamp(0.0, 1.0),
            slow_delay,
            seed,
            draws: AtomicU64::new(0),
            flaky_seen: Mutex::new(HashSet::new()),
        }
    }

    /// How long to hold this answer back.
    pub(crate) fn delay(&self, key: &str) -> Duration {
        let jitter = if self.jitter.is_zero() {
            Duration::ZERO
        } else {
            self.jitter.mul_f64(self.draw())
        };
        let slow = if key.contains(SLOW_MARKER) {
            self.slow_delay
        } else {
            Duration::ZERO
        };
        self.latency + jitter + slow
    }

    /// Whether this request fails with 503: a `FLAKY` key's first try of a body, or the
    /// random fault rate.
    pub(crate) fn should_fail(&self, key: &str, body: &[u8]) -> bool {
        if key.contains(FLAKY_MARKER) {
            let digest = hash_parts(&[key.as_bytes(), body]);
            let first_time = self.flaky_seen.lock().unwrap_or_else(|e| e.into_inner()).insert(digest);
            if first_time {
                return true;
            }
        }
        self.fault_rate > 0.0 && self.draw() < self.fault_rate
    }

    /// Forgets which bodies `FLAKY` keys have sent.
    pub(crate) fn reset(&self) {
        self.flaky_seen.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// A uniform draw in `[0, 1)`, reproducible for a seed and request order.
    fn draw(&self) -> f64 {
        let n = self.draws.fetch_add(1, Ordering::Relaxed);
        Rng::new(self.seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15)).unit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flaky_fails_once_per_body() {
        let faults = Faults::new(1, Duration::ZERO, Duration::ZERO, 0.0, Duration::from_secs(30));
        let key = "AIza_FLAKY_key";
        assert!(faults.should_fail(key, b"a"));
        assert!(!faults.should_fail(key, b"a"));
        assert!(faults.should_fail(key, b"b"));
        assert!(!faults.should_fail("AIza_plain", b"c"));
        faults.reset();
        assert!(faults.should_fail(key, b"a"));
    }

    #[test]
    fn fault_rate_and_delays() {
        let always = Faults::new(1, Duration::ZERO, Duration::ZERO, 1.0, Duration::ZERO);
        assert!((0..20).all(|_| always.should_fail("k", b"x")));
        let some = Faults::new(1, Duration::ZERO, Duration::ZERO, 0.3, Duration::ZERO);
        let failures = (0..1000).filter(|_| some.should_fail("k", b"x")).count();
        assert!((200..400).contains(&failures), "{failures}");

        let timed = Faults::new(
            1,
            Duration::from_millis(50),
            Duration::from_millis(20),
            0.0,
            Duration::from_secs(30),
        );
        for _ in 0..50 {
            let d = timed.delay("AIza_plain");
            assert!(d >= Duration::from_millis(50) && d < Duration::from_millis(70), "{d:?}");
        }
        assert!(timed.delay("AIza_SLOW_key") >= Duration::from_secs(30));
    }
}
