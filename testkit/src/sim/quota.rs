//! A sliding 60-second window per caller, as Google's per-minute quotas work (Places'
//! `SearchTextRequest per minute` per project, Sheets' write requests per minute per user).

use std::{
    collections::{HashMap, VecDeque},
    sync::Mutex,
    time::{Duration, Instant},
};

const WINDOW: Duration = Duration::from_secs(60);

/// Admits or refuses requests per caller.
#[derive(Debug)]
pub struct PerMinuteQuota {
    /// Requests allowed per caller in any 60 s; 0 means no limit.
    limit: u32,
    admitted: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl PerMinuteQuota {
    /// A quota of `limit` a minute per caller (0: none).
    pub fn new(limit: u32) -> Self {
        Self {
            limit,
            admitted: Mutex::new(HashMap::new()),
        }
    }

    /// The limit per minute (0: none).
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Admits a request by `caller` at `now`, or says how long until one would be
    /// admitted. Refused requests use no quota, so a client that waits as told gets
    /// through.
    pub fn admit(&self, caller: &str, now: Instant) -> Result<(), Duration> {
        if self.limit == 0 {
            return Ok(());
        }
        let mut admitted = self.admitted.lock().unwrap_or_else(|e| e.into_inner());
        let window = admitted.entry(caller.to_owned()).or_default();
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

    /// Forgets every caller's window.
    pub fn reset(&self) {
        self.admitted.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_over_the_limit_until_the_window_slides() {
        let quota = PerMinuteQuota::new(2);
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
            "callers are separate"
        );
        assert_eq!(
            quota.admit("a", t0 + Duration::from_secs(60)),
            Ok(()),
            "the first has left the window"
        );
        quota.reset();
        assert_eq!(quota.admit("a", t0 + Duration::from_secs(61)), Ok(()));
        assert_eq!(PerMinuteQuota::new(0).admit("a", t0), Ok(()), "0 means no limit");
    }
}
