//! Sheets' "Write requests per minute per user" quota: a sliding 60-second window per
//! identity.

use std::{
    collections::{HashMap, VecDeque},
    sync::Mutex,
    time::{Duration, Instant},
};

const WINDOW: Duration = Duration::from_secs(60);

/// Admits or refuses write requests per identity.
#[derive(Debug)]
pub(crate) struct WriteQuota {
    /// Writes allowed per identity in any 60 s; 0 means no limit.
    limit: u32,
    admitted: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl WriteQuota {
    pub(crate) fn new(limit: u32) -> Self {
        Self {
            limit,
            admitted: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn limit(&self) -> u32 {
        self.limit
    }

    /// Admits a write by `identity` at `now`. Refused writes use no quota, so a client
    /// that backs off gets through once the window slides.
    pub(crate) fn admit(&self, identity: &str, now: Instant) -> bool {
        if self.limit == 0 {
            return true;
        }
        let mut admitted = self.admitted.lock().unwrap_or_else(|e| e.into_inner());
        let window = admitted.entry(identity.to_owned()).or_default();
        while window.front().is_some_and(|t| now.duration_since(*t) >= WINDOW) {
            window.pop_front();
        }
        if window.len() >= self.limit as usize {
            return false;
        }
        window.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_over_the_limit_per_identity_until_the_window_slides() {
        let quota = WriteQuota::new(2);
        let t0 = Instant::now();
        assert!(quota.admit("a", t0));
        assert!(quota.admit("a", t0 + Duration::from_secs(10)));
        assert!(!quota.admit("a", t0 + Duration::from_secs(20)));
        assert!(
            quota.admit("b", t0 + Duration::from_secs(20)),
            "identities are separate"
        );
        assert!(
            quota.admit("a", t0 + Duration::from_secs(60)),
            "the first left the window"
        );
        assert!(WriteQuota::new(0).admit("a", t0));
    }
}
