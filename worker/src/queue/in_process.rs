//! Embedded mode's queue store: the same rules as the Redis one ([`super::store`]), in a
//! mutex. Its one consumer is told of pushes through a local [`Wakeup`].

use std::{
    collections::{BTreeMap, HashMap, VecDeque},
    sync::{Arc, Mutex, MutexGuard},
    time::{Duration, Instant},
};

use super::{
    gate::Wakeup,
    store::{Claimed, HandBack, RETRY_STEP, Retried, queued_at_ms, unix_ms},
};

/// One job kind's queue in this process.
#[derive(Clone)]
pub struct InProcessStore {
    name: Arc<str>,
    state: Arc<Mutex<State>>,
    wakeup: Wakeup,
}

#[derive(Default)]
struct State {
    /// Ids, the next to run at the front.
    ready: VecDeque<String>,
    /// Ids by when they are due again (Unix ms), in order of failure among equals.
    delayed: BTreeMap<(u64, u64), String>,
    /// Breaks ties among delayed jobs due in the same millisecond.
    delayed_seq: u64,
    /// Payload and claims so far, by id.
    jobs: HashMap<String, (Vec<u8>, u64)>,
    /// Held jobs by worker, in the order it claimed them.
    held: HashMap<String, Vec<String>>,
    /// Workers by last heartbeat.
    workers: HashMap<String, Instant>,
    /// Until when the lease is held.
    lease_until: Option<Instant>,
}

impl InProcessStore {
    /// An empty queue named `name`.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.into(),
            state: Arc::default(),
            wakeup: Wakeup::local(),
        }
    }

    pub(super) fn name(&self) -> &str {
        &self.name
    }

    /// What tells this queue's consumer of pushes.
    pub(super) fn wakeup(&self) -> Wakeup {
        self.wakeup.clone()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the state half-changed in a way that
        // matters more than stopping every job would: carry on with it.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub(super) fn push(&self, id: &str, payload: &[u8]) {
        {
            let mut state = self.state();
            state.jobs.insert(id.to_owned(), (payload.to_vec(), 0));
            state.ready.push_back(id.to_owned());
        }
        self.wakeup.signal();
    }

    pub(super) fn claim(&self, worker: &str) -> Option<Claimed> {
        let now = unix_ms();
        let mut state = self.state();
        let due: Vec<(u64, u64)> = state.delayed.range(..=(now, u64::MAX)).map(|(k, _)| *k).collect();
        for key in due {
            if let Some(id) = state.delayed.remove(&key) {
                state.ready.push_back(id);
            }
        }
        state.workers.insert(worker.to_owned(), Instant::now());
        while let Some(id) = state.ready.pop_front() {
            let Some((payload, attempts)) = state.jobs.get_mut(&id) else {
                // Finished while it waited (acknowledged after a hand-back): skip it.
                continue;
            };
            *attempts += 1;
            let claimed = Claimed {
                id: id.clone(),
                payload: payload.clone(),
                attempts: *attempts,
            };
            state.held.entry(worker.to_owned()).or_default().push(id);
            return Some(claimed);
        }
        None
    }

    /// Drops `id` from what `worker` holds; whether it held it.
    fn release(state: &mut State, worker: &str, id: &str) -> bool {
        let Some(held) = state.held.get_mut(worker) else {
            return false;
        };
        let before = held.len();
        held.retain(|held_id| held_id != id);
        let released = held.len() < before;
        if held.is_empty() {
            state.held.remove(worker);
        }
        released
    }

    pub(super) fn ack(&self, worker: &str, id: &str) {
        let mut state = self.state();
        Self::release(&mut state, worker, id);
        state.jobs.remove(id);
    }

    pub(super) fn retry(&self, worker: &str, id: &str, max_attempts: u64) -> Retried {
        let mut state = self.state();
        if !Self::release(&mut state, worker, id) {
            return Retried::NotHeld;
        }
        let attempts = state.jobs.get(id).map_or(max_attempts, |(_, attempts)| *attempts);
        if attempts >= max_attempts {
            state.jobs.remove(id);
            return Retried::GaveUp;
        }
        let step = u64::try_from(RETRY_STEP.as_millis()).unwrap_or(u64::MAX);
        let due = unix_ms().saturating_add(step.saturating_mul(attempts));
        state.delayed_seq += 1;
        let seq = state.delayed_seq;
        state.delayed.insert((due, seq), id.to_owned());
        Retried::Later
    }

    pub(super) fn hand_back(&self, who: HandBack<'_>) -> (u64, u64) {
        let (removed, jobs) = {
            let mut state = self.state();
            let workers: Vec<String> = match who {
                HandBack::Only(name) => vec![name.to_owned()],
                HandBack::SilentFor(silence) => state
                    .workers
                    .iter()
                    .filter(|(_, beat)| beat.elapsed() > silence)
                    .map(|(name, _)| name.clone())
                    .collect(),
            };
            let (mut removed, mut jobs) = (0, 0);
            for worker in workers {
                let held = state.held.remove(&worker).unwrap_or_default();
                jobs += held.len() as u64;
                // Latest claimed first, so the earliest claimed ends up at the very front.
                for id in held.into_iter().rev() {
                    state.ready.push_front(id);
                }
                removed += u64::from(state.workers.remove(&worker).is_some());
            }
            (removed, jobs)
        };
        if jobs > 0 {
            self.wakeup.signal();
        }
        (removed, jobs)
    }

    pub(super) fn beat(&self, worker: &str) {
        if let Some(beat) = self.state().workers.get_mut(worker) {
            *beat = Instant::now();
        }
    }

    pub(super) fn workers(&self) -> Vec<String> {
        let mut names: Vec<String> = self.state().workers.keys().cloned().collect();
        names.sort();
        names
    }

    pub(super) fn depth(&self) -> i64 {
        let state = self.state();
        i64::try_from(state.ready.len() + state.delayed.len()).unwrap_or(i64::MAX)
    }

    pub(super) fn oldest_age_secs(&self) -> f64 {
        let now = unix_ms();
        let state = self.state();
        let head = state.ready.front().and_then(|id| queued_at_ms(id));
        let due = state
            .delayed
            .keys()
            .next()
            .map(|(due, _)| *due)
            .filter(|due| *due <= now);
        [head, due]
            .into_iter()
            .flatten()
            .map(|since| now.saturating_sub(since) as f64 / 1_000.0)
            .fold(0.0, f64::max)
    }

    pub(super) fn take_lease(&self, period: Duration) -> bool {
        let mut state = self.state();
        let now = Instant::now();
        if state.lease_until.is_some_and(|until| until > now) {
            return false;
        }
        state.lease_until = Some(now + period);
        true
    }

    pub(super) fn release_lease(&self) {
        self.state().lease_until = None;
    }
}
