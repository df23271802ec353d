//! Job queues, one per job kind: apalis on Redis in distributed mode, apalis' in-memory
//! storage in embedded mode. The producer half ([`JobQueue`]) is cheap to clone; each
//! worker gets a consumer half ([`JobSource`]). Both are generic over the payload
//! ([`JobPayload`]); which kinds exist is `jobs::registry`'s business.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    task::{Context, Poll, Waker},
    time::Duration,
};

use apalis::prelude::*;
use apalis_core::{
    backend::{BackendConfig, WireFormatBackend},
    task::task_id::{RandomId, TaskId},
    worker::context::WorkerContext,
};
use apalis_redis::{Config, RedisStorage};
use futures_util::{SinkExt, StreamExt, task::AtomicWaker};
use leadgen_core::{
    CoreError, CoreResult,
    jobs::{JobPayload, SEARCH_QUEUE},
};

/// Pushes jobs of one kind.
pub enum JobQueue<P: JobPayload> {
    /// Embedded mode: the raw channel, not apalis' `MemorySink`, whose `start_send` does
    /// `try_lock().unwrap()` on a mutex that concurrent pushes and the worker's
    /// `poll_ready` also take, and so fails under a multi-threaded runtime.
    Memory(
        futures_channel::mpsc::UnboundedSender<Task<P>>,
        /// Jobs pushed and not yet taken by the worker.
        std::sync::Arc<std::sync::atomic::AtomicI64>,
    ),
    /// Distributed mode (boxed: the storage is large and the enum is cloned per push).
    Redis(Box<RedisStorage<P>>),
}

impl<P: JobPayload> Clone for JobQueue<P> {
    fn clone(&self) -> Self {
        match self {
            Self::Memory(sender, pending) => Self::Memory(sender.clone(), pending.clone()),
            Self::Redis(storage) => Self::Redis(storage.clone()),
        }
    }
}

/// A Redis queue consumer that asks Redis for a job only when one may be there (see
/// [`Gated`]).
pub type RedisSource<P> = Gated<RedisStorage<P>>;

/// Tries to queue a job before the API answers 503, and the pause between them.
const PUSH_ATTEMPTS: u32 = 3;
const PUSH_RETRY_PAUSE: Duration = Duration::from_millis(200);

/// How often an idle worker asks Redis for a job without being told of one: the safety
/// net for a missed notice (its subscription was reconnecting) and for jobs that become
/// due later (apalis' retries are scheduled whole seconds ahead).
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
/// apalis' poll strategies only wake a worker: its Redis backend fetches on every poll of
/// the worker, whatever woke it. A worker process runs each job kind's consumer in one
/// task, so one kind's fetch answer polled the other kinds, whose fetches then polled it:
/// an idle worker asked Redis for jobs thousands of times a second, busying both on the
/// shared cores (docs/benchmarks.md, 2026-11-26). Behind this gate an idle worker makes
/// one fetch a second per kind, and a push reaches it within a Redis round trip.
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

impl<B: WireFormatBackend> WireFormatBackend for Gated<B> {
    type Codec = B::Codec;
    type Compact = B::Compact;

    fn codec(&self) -> &Self::Codec {
        self.inner.codec()
    }
}

/// Where a worker takes jobs of one kind from.
pub enum JobSource<P: JobPayload> {
    /// Embedded mode.
    Memory(MemoryStorage<P>),
    /// Distributed mode.
    Redis(RedisJobSource<P>),
}

/// A worker's side of a Redis queue, with what the fleet's bookkeeping needs.
pub struct RedisJobSource<P: JobPayload> {
    /// The consumer (boxed: large).
    pub source: Box<RedisSource<P>>,
    /// What tells it of pushed jobs (kept when the consumer starts again).
    pub wakeup: Wakeup,
    /// A connection for the fleet's bookkeeping.
    pub conn: redis::aio::ConnectionManager,
    /// `LEADGEN_REDIS_PREFIX`.
    pub prefix: String,
}

/// An in-process queue: the producer and its one consumer.
pub fn memory<P: JobPayload>() -> (JobQueue<P>, JobSource<P>) {
    let (sender, receiver) = futures_channel::mpsc::unbounded::<Task<P>>();
    let pending = std::sync::Arc::new(std::sync::atomic::AtomicI64::new(0));
    let taken = pending.clone();
    let receiver = futures_util::StreamExt::inspect(receiver, move |_| {
        taken.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    });
    // The worker's storage gets a sink of its own (it only polls it for readiness), so
    // nothing it locks is shared with the producer.
    let sink: Box<dyn futures_util::Sink<Task<P>, Error = MemoryStorageError> + Send + Sync + Unpin> =
        Box::new(sender.clone().sink_map_err(MemoryStorageError::SendError));
    let worker_sink = MemorySink::new(std::sync::Arc::new(futures_util::lock::Mutex::new(sink)));
    let storage = MemoryStorage::new_with(worker_sink, Box::pin(receiver));
    (JobQueue::Memory(sender, pending), JobSource::Memory(storage))
}

/// The Redis name of job queue `queue` (a [`JobPayload::QUEUE`]) under `prefix`.
pub fn queue_name(prefix: &str, queue: &str) -> String {
    format!("{prefix}.{queue}")
}

/// Where apalis-redis keeps waiting jobs: a push lands in the sorted set
/// `{queue}:scheduled` (due now), and a worker's fetch moves due jobs to the list
/// `{queue}:active` before claiming them. Their sizes together are the queue depth that
/// metrics report and the worker autoscaler (KEDA, one trigger per key) reads.
pub fn waiting_keys(prefix: &str) -> (String, String) {
    let queue = queue_name(prefix, SEARCH_QUEUE);
    (format!("{queue}:scheduled"), format!("{queue}:active"))
}

/// Search jobs waiting in Redis (see [`waiting_keys`]).
pub async fn redis_depth(conn: &mut redis::aio::ConnectionManager, prefix: &str) -> redis::RedisResult<i64> {
    let (scheduled, active) = waiting_keys(prefix);
    let (due, ready): (i64, i64) = redis::pipe()
        .cmd("ZCARD")
        .arg(&scheduled)
        .cmd("LLEN")
        .arg(&active)
        .query_async(conn)
        .await?;
    Ok(due + ready)
}

/// Seconds the longest-waiting search job has waited; 0 when none waits. Waiting jobs sit
/// in two places (see [`waiting_keys`]): due in the scheduled set until a worker polls (its
/// score is the second it became due, the push's for a fresh job), then in the active
/// list, whose head is the next to run. apalis-redis names each job by a ULID, whose first
/// 48 bits are the milliseconds it was made at; new jobs join the list's tail and
/// handed-back ones its head, so the head is the oldest there. Jobs scheduled for a later
/// retry are not waiting on the fleet and do not count.
pub async fn redis_oldest_age_secs(conn: &mut redis::aio::ConnectionManager, prefix: &str) -> redis::RedisResult<f64> {
    let (scheduled, active) = waiting_keys(prefix);
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let (head, due): (Option<String>, Vec<(String, f64)>) = redis::pipe()
        .cmd("LINDEX")
        .arg(&active)
        .arg(0)
        .cmd("ZRANGEBYSCORE")
        .arg(&scheduled)
        .arg("-inf")
        .arg(now_ms / 1_000)
        .arg("WITHSCORES")
        .arg("LIMIT")
        .arg(0)
        .arg(1)
        .query_async(conn)
        .await?;
    let since_ms = [
        head.as_deref().and_then(ulid_ms),
        due.first().map(|(_, secs)| (secs * 1_000.0) as u64),
    ];
    Ok(since_ms
        .into_iter()
        .flatten()
        .map(|since| now_ms.saturating_sub(since) as f64 / 1_000.0)
        .fold(0.0, f64::max))
}

/// The time part of a ULID (its first 10 Crockford base-32 characters), milliseconds.
fn ulid_ms(id: &str) -> Option<u64> {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    if id.len() != 26 {
        return None;
    }
    id.bytes().take(10).try_fold(0u64, |ms, c| {
        let digit = ALPHABET.iter().position(|&a| a == c.to_ascii_uppercase())?;
        Some(ms << 5 | digit as u64)
    })
}

/// How often apalis beats a worker's heart (the fleet's housekeeping beats too, see
/// `fleet::Fleet::tick`).
pub const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(1);

/// The apalis settings of queue `queue` under `prefix`.
pub fn config(prefix: &str, queue: &str) -> Config {
    Config::default()
        .queue(queue_name(prefix, queue))
        // One job per fetch: a worker claims only what it is about to run, so idle
        // workers (and new ones the autoscaler adds) share the queue, and a stopping worker
        // holds no claimed-but-unstarted jobs.
        .batch_size(1)
        .heartbeat_interval(HEARTBEAT)
        // apalis' own re-queue of silent workers' jobs (to the back of the queue) comes
        // after the fleet's (to the front, after `fleet::DEAD_AFTER`), so it finds none.
        .missed_heartbeats(10)
        // Its pub/sub notices go to channels outside our prefix, and nobody reads them.
        .emit_events(false)
}

/// The producer side of the Redis queue of `P`, named `{prefix}.{P::QUEUE}`.
pub async fn redis<P: JobPayload>(url: &str, prefix: &str) -> CoreResult<RedisStorage<P>> {
    let conn = apalis_redis::connect(url)
        .await
        .map_err(|e| CoreError::Internal(format!("connecting the job queue to Redis: {e}")))?;
    Ok(RedisStorage::new(conn).with_config(config(prefix, P::QUEUE)))
}

/// A worker's side of the Redis queue of `P`. Workers that die mid-job have their jobs
/// handed back by the rest of the fleet once their heartbeats stop (see `fleet`).
pub async fn redis_source<P: JobPayload>(url: &str, prefix: &str) -> CoreResult<JobSource<P>> {
    let mut storage = redis::<P>(url, prefix).await?;
    let conn = storage.get_connection().clone();
    let wakeup = Wakeup::subscribe(url, pushed_channel(&queue_name(prefix, P::QUEUE)))?;
    Ok(JobSource::Redis(redis_source_on(conn, prefix, wakeup)))
}

/// A consumer of the Redis queue of `P` on an existing connection (it reconnects by
/// itself), told of pushes by `wakeup`: what a worker starts again with after its
/// consumer died of a Redis failure.
pub fn redis_source_on<P: JobPayload>(
    conn: redis::aio::ConnectionManager,
    prefix: &str,
    wakeup: Wakeup,
) -> RedisJobSource<P> {
    let storage = RedisStorage::new(conn.clone()).with_config(config(prefix, P::QUEUE));
    RedisJobSource {
        source: Box::new(Gated::new(storage, wakeup.clone())),
        wakeup,
        conn,
        prefix: prefix.to_owned(),
    }
}

impl<P: JobPayload> JobQueue<P> {
    /// Jobs waiting in the in-process queue; `None` for Redis (read its list instead).
    pub fn pending_in_process(&self) -> Option<i64> {
        match self {
            Self::Memory(_, pending) => Some(pending.load(std::sync::atomic::Ordering::Relaxed).max(0)),
            Self::Redis(_) => None,
        }
    }

    /// Queues one job.
    pub async fn push(&self, job: P) -> CoreResult<()> {
        match self {
            Self::Memory(sender, pending) => {
                pending.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                // The id MemorySink would have given it.
                let task = TaskBuilder::new(job)
                    .task_id(TaskId::from_string(RandomId::default()))
                    .build();
                sender
                    .unbounded_send(task)
                    .map_err(|e| CoreError::Internal(format!("in-process queue closed: {e}")))
            }
            Self::Redis(storage) => {
                // The connection reconnects by itself, but the first command after Redis
                // restarted fails (broken pipe): try again, briefly, before giving up.
                let mut attempt = 1;
                loop {
                    match RedisStorage::clone(storage).push(job.clone()).await {
                        Ok(_) => {
                            announce(storage).await;
                            return Ok(());
                        }
                        Err(e) if attempt < PUSH_ATTEMPTS => {
                            tracing::debug!(error = %e, attempt, "queueing failed; trying again");
                            attempt += 1;
                            tokio::time::sleep(PUSH_RETRY_PAUSE).await;
                        }
                        Err(e) => return Err(CoreError::Internal(format!("could not queue the job: {e}"))),
                    }
                }
            }
        }
    }

    /// Queues `job` unless this queue got one through here within `period`, whichever
    /// process pushed it; returns whether it queued. With Redis, a lease (`SET NX PX` on
    /// `{queue}:once`) decides, so a fleet of workers running the same schedule queues one
    /// job a period. In process there is one worker, hence one schedule: it always queues.
    pub async fn push_once_per(&self, job: P, period: std::time::Duration) -> CoreResult<bool> {
        if let Self::Redis(storage) = self {
            let key = format!("{}:once", storage.get_config().queue.as_ref());
            let mut conn = RedisStorage::clone(storage).get_connection().clone();
            let millis = u64::try_from(period.as_millis()).unwrap_or(u64::MAX).max(1);
            let taken: Option<String> = redis::cmd("SET")
                .arg(&key)
                .arg(crate::fleet::unix_now())
                .arg("NX")
                .arg("PX")
                .arg(millis)
                .query_async(&mut conn)
                .await
                .map_err(|e| CoreError::Internal(format!("could not take the queue's lease: {e}")))?;
            if taken.is_none() {
                return Ok(false);
            }
            if let Err(error) = self.push(job).await {
                // Let the next tick (of any worker) try again rather than wait a period.
                let _: redis::RedisResult<i64> = redis::cmd("DEL").arg(&key).query_async(&mut conn).await;
                return Err(error);
            }
            return Ok(true);
        }
        self.push(job).await?;
        Ok(true)
    }
}

/// Announces a push on the queue's [`pushed_channel`], so idle workers fetch it now. If
/// the notice is lost, workers still find the job within [`IDLE_POLL`].
async fn announce<P>(storage: &RedisStorage<P>) {
    let channel = pushed_channel(storage.get_config().queue.as_ref());
    let mut conn = RedisStorage::clone(storage).get_connection().clone();
    if let Err(error) = redis::cmd("PUBLISH")
        .arg(channel)
        .arg(1)
        .query_async::<i64>(&mut conn)
        .await
    {
        tracing::debug!(%error, "could not announce a pushed job; workers find it on their next poll");
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use super::*;

    #[test]
    fn a_ulid_tells_when_it_was_made() {
        // The ULID specification's example: 1469922850259 ms is 2016-07-30T23:54:10.259Z.
        assert_eq!(ulid_ms("01ARZ3NDEKTSV4RRFFQ69G5FAV"), Some(1_469_922_850_259));
        assert_eq!(ulid_ms("01arz3ndektsv4rrffq69g5fav"), Some(1_469_922_850_259));
        assert_eq!(ulid_ms("not-a-ulid"), None);
        assert_eq!(
            ulid_ms("01ARZ3NDEUTSV4RRFFQ69G5FAV"),
            None,
            "U is not Crockford base 32"
        );
    }

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

    fn redis_url() -> String {
        std::env::var("LEADGEN_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
    }

    /// Resolves once `wakeup` is signalled.
    async fn signalled(wakeup: &Wakeup) {
        std::future::poll_fn(|cx| {
            if wakeup.take(cx) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
    }

    #[derive(Clone, serde::Serialize, serde::Deserialize)]
    struct Ping;

    impl JobPayload for Ping {
        const QUEUE: &'static str = "ping.v1";
    }

    #[tokio::test]
    async fn a_push_notifies_the_queues_consumers() {
        let prefix = format!("leadgen-test-{}", uuid::Uuid::new_v4().simple());
        let wakeup =
            Wakeup::subscribe(&redis_url(), pushed_channel(&queue_name(&prefix, Ping::QUEUE))).expect("subscribe");
        // Subscribing signals once (for pushes made before it).
        tokio::time::timeout(Duration::from_secs(10), signalled(&wakeup))
            .await
            .expect("subscribed");
        let producer = JobQueue::Redis(Box::new(redis::<Ping>(&redis_url(), &prefix).await.expect("queue")));
        producer.push(Ping).await.expect("push");
        // Generous: the notice is one Redis round trip; the point is that it comes at all
        // (without it the worker would wait for its next poll, IDLE_POLL).
        tokio::time::timeout(Duration::from_secs(10), signalled(&wakeup))
            .await
            .expect("the push was announced to the consumer");
    }

    /// Jobs waiting in the Redis queue of `P` (pushed, not yet taken).
    async fn waiting<P: JobPayload>(prefix: &str) -> i64 {
        let queue = queue_name(prefix, P::QUEUE);
        let client = ::redis::Client::open(redis_url()).expect("client");
        let mut conn = client.get_multiplexed_async_connection().await.expect("redis");
        let (due, ready): (i64, i64) = ::redis::pipe()
            .cmd("ZCARD")
            .arg(format!("{queue}:scheduled"))
            .cmd("LLEN")
            .arg(format!("{queue}:active"))
            .query_async(&mut conn)
            .await
            .expect("depth");
        due + ready
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_fleet_pushing_once_per_period_queues_one_job_a_period() {
        let prefix = format!("leadgen-test-{}", uuid::Uuid::new_v4().simple());
        // Several workers' producers, each on its own connection, tick at the same moment.
        let mut producers = Vec::new();
        for _ in 0..6 {
            producers.push(JobQueue::Redis(Box::new(
                redis::<Ping>(&redis_url(), &prefix).await.expect("queue"),
            )));
        }
        let period = Duration::from_millis(600);
        let tick = || futures_util::future::join_all(producers.iter().map(|p| p.push_once_per(Ping, period)));
        let queued: Vec<bool> = tick().await.into_iter().map(|r| r.expect("push")).collect();
        assert_eq!(
            queued.iter().filter(|q| **q).count(),
            1,
            "one of them queued: {queued:?}"
        );
        assert_eq!(waiting::<Ping>(&prefix).await, 1);
        let again: Vec<bool> = tick().await.into_iter().map(|r| r.expect("push")).collect();
        assert!(again.iter().all(|q| !q), "none within the period: {again:?}");
        assert_eq!(waiting::<Ping>(&prefix).await, 1);

        // The next period, one more.
        tokio::time::sleep(period + Duration::from_millis(100)).await;
        let next: Vec<bool> = tick().await.into_iter().map(|r| r.expect("push")).collect();
        assert_eq!(next.iter().filter(|q| **q).count(), 1, "{next:?}");
        assert_eq!(waiting::<Ping>(&prefix).await, 2);

        // In process (embedded mode: one worker), every tick queues.
        let (memory, _source) = memory::<Ping>();
        assert!(memory.push_once_per(Ping, period).await.expect("push"));
        assert!(memory.push_once_per(Ping, period).await.expect("push"));
        assert_eq!(memory.pending_in_process(), Some(2));
    }
}
