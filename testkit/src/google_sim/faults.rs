//! Failures a test asks for: the next n Sheets or Drive requests answer a given status.

use std::{collections::VecDeque, sync::Mutex};

/// Statuses still to inject, one per request, in order.
#[derive(Debug, Default)]
pub(crate) struct Faults {
    pending: Mutex<VecDeque<u16>>,
}

impl Faults {
    /// Queues `n` failures with `status` after any already queued.
    pub(crate) fn fail_next(&self, n: usize, status: u16) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.extend(std::iter::repeat_n(status, n));
    }

    /// The status the current request must fail with, if any.
    pub(crate) fn take(&self) -> Option<u16> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner()).pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_are_used_up_in_order() {
        let faults = Faults::default();
        faults.fail_next(2, 503);
        faults.fail_next(1, 500);
        assert_eq!(faults.take(), Some(503));
        assert_eq!(faults.take(), Some(503));
        assert_eq!(faults.take(), Some(500));
        assert_eq!(faults.take(), None);
    }
}
