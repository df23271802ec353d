//! The worker fleet's bookkeeping in Redis, on top of apalis-redis.
//!
//! apalis-redis registers each worker in `{queue}:workers` (a sorted set scored by its last
//! heartbeat), keeps the jobs it claimed in `{queue}:inflight:{worker}`, and lets any
//! worker re-queue a silent worker's jobs. Four of its habits do not fit a fleet that
//! Kubernetes starts and stops all day, so this module takes over those parts:
//!
//! - **Takeover.** apalis re-queues a dead worker's jobs at the *back* of the queue, and
//!   only after `missed_heartbeats` beats. Here every worker, once a second, hands the
//!   jobs of workers silent for [`DEAD_AFTER`] back at the *front* of the queue, so a
//!   crashed worker's searches resume within seconds however long the queue is (apalis'
//!   own re-queue is set later, so it finds nothing left to do).
//! - **Clean stop.** apalis' close removes the wrong member from the workers set, and its
//!   worker metadata hash has no expiry: a stopped worker stayed registered for ever.
//!   [`Fleet::leave`] hands back what the worker still holds and deregisters it.
//! - **One name per pod.** A restarted container keeps its pod's name; its predecessor's
//!   registration (recent heartbeat, claimed jobs) would make apalis refuse the name.
//!   [`Fleet::reclaim_own_name`] hands the predecessor's jobs back first.
//! - **Keys.** apalis records each queue in the global `core:apalis:queues:list`, outside
//!   `LEADGEN_REDIS_PREFIX`; each tick removes this queue's entry again (the key vanishes
//!   with its last member). Finished jobs' payload and metadata are deleted each tick, and
//!   each worker's own keys carry an expiry it keeps renewing.
//!
//! Key formats are apalis-redis 1.0's (`apalis_redis::Config`); the tests in
//! `api/tests/it/ops/pods.rs` run real worker processes against real Redis.

use std::{sync::Arc, time::Duration};

use apalis_redis::Config;
use redis::{Script, aio::ConnectionManager};

use crate::queue;

/// A worker whose last heartbeat is older than this is dead: its jobs are handed back.
/// Heartbeats come every [`queue::HEARTBEAT`], so this allows four missed beats and a
/// second of clock rounding (apalis scores heartbeats in whole seconds).
pub const DEAD_AFTER: Duration = Duration::from_secs(5);
/// How often each worker does the fleet's housekeeping.
pub const TICK: Duration = Duration::from_secs(1);
/// Expiry of a worker's metadata hash, renewed every tick by its owner.
const METADATA_TTL: Duration = Duration::from_secs(60);
/// Expiry of a worker's claimed-jobs set, renewed every tick by its owner. Long, because
/// it is what another worker needs to take over; it only lapses when no worker at all ran
/// for this long, and then no client is waiting for those searches any more.
const INFLIGHT_TTL: Duration = Duration::from_secs(24 * 3600);
/// Finished jobs whose stored payload and metadata one tick deletes, at most.
const VACUUM_BATCH: usize = 500;
/// apalis-redis' global list of queues (not under any prefix).
const APALIS_QUEUES_LIST: &str = "core:apalis:queues:list";

/// Hands the claimed jobs of some workers back to the front of the queue and removes
/// their registrations. KEYS[1]: workers set; KEYS[2]: active list; KEYS[3]: signal list.
/// ARGV[1]: claimed-set prefix; ARGV[2]: metadata prefix; ARGV[3]: job metadata prefix;
/// ARGV[4]: `only` (ARGV[5] is a worker name) or `silent-since` (ARGV[5] is a Unix time:
/// workers whose last heartbeat is older); ARGV[6]: the queue's push notice channel (idle
/// workers fetch the handed-back jobs at once). Returns {workers removed, jobs handed back}.
const HAND_BACK: &str = r#"
local workers
if ARGV[4] == 'only' then
  workers = {ARGV[5]}
else
  workers = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[5])
end
local removed, jobs_total = 0, 0
for _, worker in ipairs(workers) do
  local claimed = ARGV[1] .. ':' .. worker
  local jobs = redis.call('SMEMBERS', claimed)
  for i = #jobs, 1, -1 do
    redis.call('LPUSH', KEYS[2], jobs[i])
    local meta = ARGV[3] .. ':' .. jobs[i]
    redis.call('HSET', meta, 'status', 'Pending')
    redis.call('HDEL', meta, 'locked_at', 'locked_by')
  end
  jobs_total = jobs_total + #jobs
  redis.call('DEL', claimed)
  removed = removed + redis.call('ZREM', KEYS[1], worker)
  redis.call('DEL', ARGV[2] .. ':' .. worker)
end
if jobs_total > 0 then
  redis.call('DEL', KEYS[3])
  redis.call('LPUSH', KEYS[3], 1)
  redis.call('PUBLISH', ARGV[6], 1)
end
return {removed, jobs_total}
"#;

/// Deletes the stored payload and metadata of finished jobs. KEYS[1]: a set of finished
/// job ids (done or dead); KEYS[2]: the payload hash. ARGV[1]: job metadata prefix;
/// ARGV[2]: most to delete. Returns how many.
const VACUUM: &str = r#"
local ids = redis.call('SPOP', KEYS[1], ARGV[2])
for _, id in ipairs(ids) do
  redis.call('HDEL', KEYS[2], id)
  redis.call('DEL', ARGV[1] .. ':' .. id)
end
return #ids
"#;

/// This worker's name in the fleet: the configured one (the chart passes the pod name),
/// or `{hostname}-{pid}-{random}`. The random part matters: in containers every worker is
/// PID 1, and two with one name would fight over one registration.
pub fn worker_name(configured: Option<&str>) -> String {
    if let Some(name) = configured.map(str::trim).filter(|n| !n.is_empty()) {
        return name.to_owned();
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "worker".to_owned());
    let suffix: String = uuid::Uuid::new_v4().simple().to_string().chars().take(6).collect();
    format!("{host}-{}-{suffix}", std::process::id())
}

/// What one housekeeping tick did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tick {
    /// Dead workers removed.
    pub dead_workers: u64,
    /// Their jobs, handed back to the front of the queue.
    pub jobs_handed_back: u64,
    /// Finished jobs whose payload and metadata were deleted.
    pub vacuumed: u64,
}

/// One worker's view of the fleet.
#[derive(Clone)]
pub struct Fleet {
    conn: ConnectionManager,
    config: Config,
    name: String,
    hand_back: Arc<Script>,
    vacuum: Arc<Script>,
}

impl Fleet {
    /// The fleet of job queue `queue` (a `JobPayload::QUEUE`) under `prefix`, seen by
    /// worker `name`.
    pub fn new(conn: ConnectionManager, prefix: &str, queue: &str, name: &str) -> Self {
        Self {
            conn,
            config: queue::config(prefix, queue),
            name: name.to_owned(),
            hand_back: Arc::new(Script::new(HAND_BACK)),
            vacuum: Arc::new(Script::new(VACUUM)),
        }
    }

    /// This worker's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The queue's Redis name.
    pub fn queue(&self) -> &str {
        self.config.queue.as_ref()
    }

    fn metadata_key(&self, worker: &str) -> String {
        format!("{}:workers:metadata:{worker}", self.queue())
    }

    fn claimed_key(&self, worker: &str) -> String {
        format!("{}:{worker}", self.config.inflight_jobs_set())
    }

    /// Runs [`HAND_BACK`] for `selector` (`only` a name, or `silent-since` a time).
    async fn hand_back(&self, mode: &str, selector: &str) -> redis::RedisResult<(u64, u64)> {
        let mut conn = self.conn.clone();
        self.hand_back
            .key(self.config.workers_set())
            .key(self.config.active_jobs_list())
            .key(self.config.signal_list())
            .arg(self.config.inflight_jobs_set())
            .arg(format!("{}:workers:metadata", self.queue()))
            .arg(self.config.job_meta_hash())
            .arg(mode)
            .arg(selector)
            .arg(queue::pushed_channel(self.queue()))
            .invoke_async(&mut conn)
            .await
    }

    /// Before registering: an earlier process with this name (the pod's previous
    /// container, which Kubernetes restarts under the same name) may still be registered
    /// and hold jobs. A pod's containers never overlap, so it is gone: its jobs go back to
    /// the front of the queue now. Returns how many.
    pub async fn reclaim_own_name(&self) -> redis::RedisResult<u64> {
        let (_, jobs) = self.hand_back("only", &self.name).await?;
        metrics().handed_back("restart", jobs);
        Ok(jobs)
    }

    /// One round of housekeeping: beat this worker's heart and renew its expiries, take
    /// over dead workers' jobs, drop the queue's entry in apalis' global list, delete
    /// finished jobs' data.
    ///
    /// The heartbeat here matters: apalis beats only while its worker polls for jobs, and
    /// a draining worker (after SIGTERM) stops polling while its searches finish. Without
    /// this beat, other workers would take those searches over and run them twice.
    pub async fn tick(&self) -> redis::RedisResult<Tick> {
        let mut conn = self.conn.clone();
        let _: () = redis::pipe()
            // XX: only while registered (apalis registers; `leave` deregisters).
            .cmd("ZADD")
            .arg(self.config.workers_set())
            .arg("XX")
            .arg(unix_now())
            .arg(&self.name)
            .ignore()
            .cmd("EXPIRE")
            .arg(self.metadata_key(&self.name))
            .arg(METADATA_TTL.as_secs())
            .ignore()
            .cmd("EXPIRE")
            .arg(self.claimed_key(&self.name))
            .arg(INFLIGHT_TTL.as_secs())
            .ignore()
            .cmd("ZREM")
            .arg(APALIS_QUEUES_LIST)
            .arg(self.config.workers_set())
            .ignore()
            .query_async(&mut conn)
            .await?;
        let silent_since = unix_now().saturating_sub(DEAD_AFTER.as_secs());
        let (dead_workers, jobs_handed_back) = self.hand_back("silent-since", &silent_since.to_string()).await?;
        if dead_workers > 0 {
            tracing::warn!(
                dead_workers,
                jobs_handed_back,
                "took over the jobs of workers that stopped answering"
            );
            metrics().handed_back("dead_worker", jobs_handed_back);
        }
        let mut vacuumed = 0;
        for finished in [self.config.done_jobs_set(), self.config.dead_jobs_set()] {
            let n: u64 = self
                .vacuum
                .key(finished)
                .key(self.config.job_data_hash())
                .arg(self.config.job_meta_hash())
                .arg(VACUUM_BATCH)
                .invoke_async(&mut conn)
                .await?;
            vacuumed += n;
        }
        Ok(Tick {
            dead_workers,
            jobs_handed_back,
            vacuumed,
        })
    }

    /// Runs [`Fleet::tick`] every [`TICK`], for as long as it is polled.
    pub async fn housekeeping(&self) {
        let mut every = tokio::time::interval(TICK);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if let Err(e) = self.tick().await {
                tracing::warn!(error = %e, "fleet housekeeping failed; retrying next tick");
            }
        }
    }

    /// Leaves the fleet: the jobs this worker still holds (searches that did not finish
    /// before the drain deadline) go back to the front of the queue, and its registration
    /// is removed. Returns how many jobs were handed back.
    pub async fn leave(&self) -> redis::RedisResult<u64> {
        let (_, jobs) = self.hand_back("only", &self.name).await?;
        metrics().handed_back("shutdown", jobs);
        let mut conn = self.conn.clone();
        let _: () = redis::cmd("ZREM")
            .arg(APALIS_QUEUES_LIST)
            .arg(self.config.workers_set())
            .query_async(&mut conn)
            .await?;
        Ok(jobs)
    }
}

fn metrics() -> &'static leadgen_core::telemetry::metrics::Metrics {
    leadgen_core::telemetry::metrics::metrics()
}

pub(crate) fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configured_name_wins_and_the_default_is_unique_per_process_start() {
        assert_eq!(worker_name(Some(" leadgen-worker-7d9f-x2 ")), "leadgen-worker-7d9f-x2");
        let (a, b) = (worker_name(None), worker_name(Some("  ")));
        assert_ne!(a, b, "two starts of one process get two names");
        let pid = format!("-{}-", std::process::id());
        assert!(a.contains(&pid), "{a} holds the pid");
        let suffix = a.rsplit('-').next().expect("suffix");
        assert_eq!(suffix.len(), 6);
        assert!(!a.contains(':'), "a name must not break Redis key formats");
    }
}
