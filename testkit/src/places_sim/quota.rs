//! A per-key requests-per-minute quota, like the `SearchTextRequest per minute` limit of
//! a Google Cloud project: a sliding 60-second window per key.

use std::{
    collections::{HashMap, VecDeque},
    sync::Mutex,
    time::{Duration, Instant},
};

const WINDOW: Duration = Duration::from_secs(60);

/// Admits or refuses requests per key.
#[derive(Debug)]
pub(crate) struct RpmQuota {
    /// Requests allowed per key in any 60 s; 0 means no limit.
    limit: u32,
    admitted: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl RpmQuota {
    pub(crate) fn new(limit: u32) -> Self {
        Self {
            limit,
            admitted: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn limit(&self) -> u32 {
        self.limit
    }

    /// Admits a request at `now`, or says how long until one would be admitted. Refused
    /// requests do not use quota, so a client that waits as told gets through.
    pub(crate) fn admit(&self, key: &str, now: Instant) -> Result<(), Duration> {
        if self.limit == 0 {
            return Ok(());
        }
        let mut admitted = self.admitted.lock().unwrap_or_else(|e| e.into_inner());
        let window = admitted.entry(key.to_owned()).or_default();
        while window.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
            window.pop_front();
        }
        if window.len() >= self.limit as usize {
            let oldest = window.front().copied().unwrap_or(now);
            let wait = (oldest + WINDOW).saturating_duration_since(now);
            // Whole milliseconds, at least one, so the delay is never "0s".
            return Err(Duration::from_millis(wait.as_millis().max(1) as u64));
        }
        window.push_back(now);
        Ok(())
    }

    pub(crate) fn reset(&self) {
        self.admitted.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_over_the_limit_until_the_window_slides() {
        let quota = RpmQuota::new(2);
        let t0 = Instant::now();
        assert_eq!(quota.admit("a", t0), Ok(()));
        assert_eq!(quota.admit("a", t0 + Duration::from_secs(10)), Ok(()));
        let wait = quota
            .admit("a", t0 + Duration::from_secs(20))
            .expect_err("third in a minute");
        assert_eq!(wait, Duration::from_secs(40));
        assert_eq!(
            quota.admit("b", t0 + Duration::from_secs(20)),
            Ok(()),
            "keys are separate"
        );
        assert_eq!(
            quota.admit("a", t0 + Duration::from_secs(60)),
            Ok(()),
            "the first has left the window"
        );
        quota.reset();
        assert_eq!(quota.admit("a", t0 + Duration::from_secs(61)), Ok(()));
        assert!(RpmQuota::new(0).admit("a", t0).is_ok());
    }
}
