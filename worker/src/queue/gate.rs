//! When a consumer asks its queue for a job: [`Wakeup`] (a push was announced) and
//! [`Gated`], which fetches only when a job may be waiting. Both backends use them: the
//! in-process queue signals its wake-up on push, the Redis queue over pub/sub.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll, Waker},
    time::Duration,
};

use apalis_core::{
    backend::{Backend, BackendConfig},
    worker::context::WorkerContext,
};
use futures_util::{StreamExt, task::AtomicWaker};
use leadgen_core::CoreResult;

/// How often an idle worker asks its queue for a job without being told of one: the
/// safety net for a missed notice (its subscription was reconnecting) and for failed jobs
/// that become due later (retries wait whole seconds, see `store::RETRY_STEP`).
pub const IDLE_POLL: Duration = Duration::from_secs(1);

/// Pause before a worker's notice subscription connects again after losing Redis.
const RESUBSCRIBE_PAUSE: Duration = Duration::from_millis(500);

/// The pub/sub channel on which a push to queue `queue` (its full Redis name) is announced.
pub fn pushed_channel(queue: &str) -> String {
    format!("{queue}:pushed")
}

/// Tells a consumer that a job was pushed to its queue (set from its subscription, read
/// by [`Gated`]).
#[derive(Clone)]
pub struct Wakeup(Arc<WakeupInner>);

struct WakeupInner {
    pending: AtomicBool,
    waker: AtomicWaker,
    /// Dropped with the last handle: ends the subscription task.
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl Wakeup {
    /// A wake-up nobody signals but its holder (and the stop receiver for its source).
    fn new() -> (Self, tokio::sync::oneshot::Receiver<()>) {
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let inner = WakeupInner {
            pending: AtomicBool::new(false),
            waker: AtomicWaker::new(),
            _stop: stop,
        };
        (Self(Arc::new(inner)), stopped)
    }

    /// A wake-up signalled by every message on the pub/sub `channel` of the Redis at
    /// `url`, for as long as a handle to it lives. The subscription reconnects by itself
    /// and signals once each time it (re)subscribes, for what it may have missed.
    pub fn subscribe(url: &str, channel: String) -> CoreResult<Self> {
        let client = redis::Client::open(url)?;
        let (wakeup, mut stopped) = Self::new();
        let weak = Arc::downgrade(&wakeup.0);
        let signal = move || weak.upgrade().map(|inner| Wakeup(inner).signal()).is_some();
        tokio::spawn(async move {
            let listen = async {
                loop {
                    match client.get_async_pubsub().await {
                        Ok(mut pubsub) => match pubsub.subscribe(&channel).await {
                            Ok(()) => {
                                if !signal() {
                                    return;
                                }
                                let mut messages = pubsub.on_message();
                                while messages.next().await.is_some() {
                                    if !signal() {
                                        return;
                                    }
                                }
                                tracing::debug!(%channel, "job notices: subscription lost; polling until it is back");
                            }
                            Err(error) => tracing::debug!(%error, "job notices: could not subscribe"),
                        },
                        Err(error) => tracing::debug!(%error, "job notices: Redis away"),
                    }
                    tokio::time::sleep(RESUBSCRIBE_PAUSE).await;
                }
            };
            tokio::select! {
                () = listen => {}
                _ = &mut stopped => {}
            }
        });
        Ok(wakeup)
    }

    /// A wake-up signalled only by its holders: the in-process queue's (its pushes and
    /// hand-backs signal it).
    pub fn local() -> Self {
        Self::new().0
    }

    /// Marks a job as possibly waiting and wakes the consumer.
    pub fn signal(&self) {
        self.0.pending.store(true, Ordering::SeqCst);
        self.0.waker.wake();
    }

    /// Whether a signal came since the last call; if not, `cx` is woken by the next.
    fn take(&self, cx: &Context<'_>) -> bool {
        if self.0.pending.swap(false, Ordering::SeqCst) {
            return true;
        }
        self.0.waker.register(cx.waker());
        self.0.pending.swap(false, Ordering::SeqCst)
    }
}

/// Records that the wrapped backend asked to be polled again (its fetch answered, or a
/// job finished), then wakes the worker's task.
#[derive(Default)]
struct InnerWake {
    woke: AtomicBool,
    task: AtomicWaker,
}

impl std::task::Wake for InnerWake {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woke.store(true, Ordering::SeqCst);
        self.task.wake();
    }
}

/// A consumer that asks its backend for a job only when one may be waiting: after a
/// [`Wakeup`] (a push was announced), after a fetch that found one (there may be more),
/// when the backend itself asks (its fetch answered, a job finished), and every
/// [`IDLE_POLL`].
///
/// apalis polls a worker's backend whatever woke the worker, and a worker process runs
/// each job kind's consumer in one task, so one kind's fetch answer polled the other
/// kinds, whose fetches then polled it: with a backend that fetched on every poll (as
/// apalis-redis' did) an idle worker asked Redis for jobs thousands of times a second,
/// busying both on the shared cores (docs/benchmarks.md, 2026-11-26). Behind this gate an
/// idle worker makes one fetch a second per kind, and a push reaches it within a Redis
/// round trip.
pub struct Gated<B> {
    inner: B,
    wakeup: Wakeup,
    fallback: Option<tokio::time::Interval>,
    /// A fetch is wanted, or in flight.
    armed: bool,
    /// A push was announced and no fetch is known to have begun after it: a fetch already
    /// in flight when the notice came may have missed the job.
    owed: bool,
    inner_wake: Arc<InnerWake>,
}

impl<B> Gated<B> {
    /// `inner`, fetching when `wakeup` says so (and as said on [`Gated`]).
    pub fn new(inner: B, wakeup: Wakeup) -> Self {
        Self {
            inner,
            wakeup,
            fallback: None,
            // The first poll looks for jobs pushed before the worker started.
            armed: true,
            owed: false,
            inner_wake: Arc::default(),
        }
    }
}

impl<B: Backend> Backend for Gated<B> {
    type Task = B::Task;
    type Error = B::Error;

    fn poll_ready(&mut self, cx: &mut Context<'_>, worker: &WorkerContext) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx, worker)
    }

    fn poll_next(
        &mut self,
        cx: &mut Context<'_>,
        worker: &WorkerContext,
    ) -> Poll<Option<Result<Self::Task, Self::Error>>> {
        self.inner_wake.task.register(cx.waker());
        if self.wakeup.take(cx) {
            self.armed = true;
            self.owed = true;
        }
        let fallback = self.fallback.get_or_insert_with(|| {
            let mut every = tokio::time::interval_at(tokio::time::Instant::now() + IDLE_POLL, IDLE_POLL);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            every
        });
        while fallback.poll_tick(cx).is_ready() {
            self.armed = true;
        }
        let answered = self.inner_wake.woke.swap(false, Ordering::SeqCst);
        if answered {
            self.armed = true;
        }
        if !self.armed {
            return Poll::Pending;
        }
        let waker = Waker::from(self.inner_wake.clone());
        let mut inner_cx = Context::from_waker(&waker);
        match self.inner.poll_next(&mut inner_cx, worker) {
            // A fetch in flight wakes `inner_wake` when it answers; an empty one does not.
            Poll::Pending if answered && std::mem::take(&mut self.owed) => {
                // An answer came back empty, and it may be from a fetch that began before
                // the announced push (the notice arrived while it was in flight): ask once
                // more, so a fetch that began after the push looks for the job. Without
                // this, the job waited for the next unrelated wake-up (about 100 ms in the
                // pipeline bench's first searches) or the idle poll.
                match self.inner.poll_next(&mut inner_cx, worker) {
                    Poll::Pending => {
                        self.armed = false;
                        Poll::Pending
                    }
                    ready => ready,
                }
            }
            Poll::Pending => {
                self.armed = false;
                Poll::Pending
            }
            ready => ready,
        }
    }

    fn poll_close(&mut self, cx: &mut Context<'_>, worker: &WorkerContext) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_close(cx, worker)
    }
}

impl<B: BackendConfig> BackendConfig for Gated<B> {
    type Args = B::Args;
    type Id = B::Id;
    type Kind = B::Kind;
    type Config = B::Config;
    type Layer = B::Layer;

    fn config(&self) -> &Self::Config {
        self.inner.config()
    }

    fn middleware(&mut self, worker: &mut WorkerContext) -> Self::Layer {
        self.inner.middleware(worker)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use apalis::prelude::Task;

    use super::*;

    /// A backend whose every fetch finds nothing, counting the fetches; `answer` makes
    /// the next one wake its caller, as a fetch in flight does when Redis answers.
    #[derive(Default)]
    struct EmptyQueue {
        fetches: usize,
        answer: bool,
    }

    impl Backend for EmptyQueue {
        type Task = Task<Vec<u8>>;
        type Error = std::io::Error;

        fn poll_ready(&mut self, _: &mut Context<'_>, _: &WorkerContext) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }

        fn poll_next(
            &mut self,
            cx: &mut Context<'_>,
            _: &WorkerContext,
        ) -> Poll<Option<Result<Self::Task, Self::Error>>> {
            self.fetches += 1;
            if std::mem::take(&mut self.answer) {
                cx.waker().wake_by_ref();
            }
            Poll::Pending
        }

        fn poll_close(&mut self, _: &mut Context<'_>, _: &WorkerContext) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    /// Counts the wake-ups of the worker's task.
    #[derive(Default)]
    struct Wakes(AtomicUsize);

    impl std::task::Wake for Wakes {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn poll(gated: &mut Gated<EmptyQueue>, waker: &Waker, worker: &WorkerContext) {
        let mut cx = Context::from_waker(waker);
        assert!(gated.poll_next(&mut cx, worker).is_pending());
    }

    #[tokio::test]
    async fn an_idle_consumer_fetches_only_when_told_a_job_may_be_there() {
        let (wakeup, _stopped) = Wakeup::new();
        let mut gated = Gated::new(EmptyQueue::default(), wakeup.clone());
        let wakes = Arc::new(Wakes::default());
        let waker = Waker::from(wakes.clone());
        let worker = WorkerContext::new("gate-test");

        poll(&mut gated, &waker, &worker);
        assert_eq!(gated.inner.fetches, 1, "the first poll looks for jobs already queued");

        // Woken for other reasons (another job kind's fetch, a running job): no fetch.
        for _ in 0..100 {
            poll(&mut gated, &waker, &worker);
        }
        assert_eq!(gated.inner.fetches, 1, "an idle consumer does not fetch on every poll");

        // A push notice wakes the task, and the next poll fetches, once.
        let before = wakes.0.load(Ordering::SeqCst);
        wakeup.signal();
        assert!(wakes.0.load(Ordering::SeqCst) > before, "the notice wakes the worker");
        gated.inner.answer = true;
        poll(&mut gated, &waker, &worker);
        assert_eq!(gated.inner.fetches, 2);

        // The fetch's answer (it woke its caller) is read by the next poll. It came back
        // empty, and the fetch may have begun before the push: one more fetch, begun now,
        // looks for the announced job. After that, nothing more is fetched.
        poll(&mut gated, &waker, &worker);
        assert_eq!(
            gated.inner.fetches, 4,
            "the answer is read, then one fetch begun after the notice"
        );
        for _ in 0..100 {
            poll(&mut gated, &waker, &worker);
        }
        assert_eq!(gated.inner.fetches, 4);
    }

    #[tokio::test]
    async fn a_notice_during_a_fetch_is_followed_by_a_fetch_that_begins_after_it() {
        let (wakeup, _stopped) = Wakeup::new();
        let mut gated = Gated::new(EmptyQueue::default(), wakeup.clone());
        let waker = Waker::from(Arc::new(Wakes::default()));
        let worker = WorkerContext::new("gate-test");

        // The idle poll's fetch is in flight (it will answer) when a push is announced.
        gated.inner.answer = true;
        poll(&mut gated, &waker, &worker);
        assert_eq!(gated.inner.fetches, 1);
        wakeup.signal();
        // The notice's poll finds the answer of the fetch that began before the push:
        // empty. Another fetch must follow, or the job waits.
        poll(&mut gated, &waker, &worker);
        assert!(
            gated.inner.fetches >= 3,
            "only {} fetches: none began after the notice",
            gated.inner.fetches
        );
    }
}
