//! Distributed mode's queue store: our keys, all under the queue's name
//! (`{LEADGEN_REDIS_PREFIX}.{kind}`), and our Lua scripts, each one atomic step of the
//! rules in [`super::store`]. Times are Redis' own clock (`TIME`), so workers' clocks
//! need not agree.
//!
//! | key | type | holds |
//! |---|---|---|
//! | `{queue}:ready` | list | ids waiting, the next to run at the head |
//! | `{queue}:delayed` | sorted set | ids of failed jobs, scored by when they are due again (ms) |
//! | `{queue}:jobs` | hash | id -> payload JSON, until the job is settled |
//! | `{queue}:attempts` | hash | id -> claims so far |
//! | `{queue}:workers` | sorted set | worker names, scored by their last heartbeat (ms) |
//! | `{queue}:held:{worker}` | list | ids the worker holds, in the order it claimed them; expires unless renewed |
//! | `{queue}:once` | string | the lease of `push_once_per` |
//! | `{queue}:pushed` | pub/sub channel | a notice per push and hand-back |
//!
//! Every key vanishes once empty, and a worker's hold expires if nobody renews it, so a
//! fleet that stopped leaves nothing that grows.

use std::time::Duration;

use redis::{Script, aio::ConnectionManager};

use super::{
    gate::pushed_channel,
    store::{Claimed, HandBack, QueueError, RETRY_STEP, Retried, queued_at_ms, unix_ms},
};

/// Expiry of a worker's hold, renewed every heartbeat. Long, because it is what another
/// worker needs to take over; it only lapses when no worker at all ran for this long, and
/// then no client is waiting for those searches any more.
const HELD_TTL: Duration = Duration::from_secs(24 * 3600);

fn held_ttl_ms() -> u64 {
    u64::try_from(HELD_TTL.as_millis()).unwrap_or(u64::MAX)
}

/// Delayed jobs one claim moves to the ready line, at most (the rest, the next claim).
const PROMOTE_BATCH: usize = 100;

/// The current time in ms on Redis' clock, as a Lua prelude.
const NOW: &str =
    "local t = redis.call('TIME')\nlocal now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n";

/// KEYS: jobs, ready. ARGV: id, payload, notice channel.
const PUSH: &str = r"
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('PUBLISH', ARGV[3], 1)
return 1
";

/// KEYS: ready, delayed, jobs, attempts, workers, the worker's hold. ARGV: worker, most
/// delayed jobs to promote, the hold's expiry (ms). Returns {id, payload, attempts}, or
/// nil when none waits.
const CLAIM: &str = r"
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
for _, id in ipairs(due) do
  redis.call('RPUSH', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
end
redis.call('ZADD', KEYS[5], now, ARGV[1])
while true do
  local id = redis.call('LPOP', KEYS[1])
  if not id then
    return false
  end
  local payload = redis.call('HGET', KEYS[3], id)
  -- A job settled while it waited (finished after a hand-back) has no payload: skip it.
  if payload then
    local attempts = redis.call('HINCRBY', KEYS[4], id, 1)
    redis.call('RPUSH', KEYS[6], id)
    redis.call('PEXPIRE', KEYS[6], ARGV[3])
    return {id, payload, attempts}
  end
end
";

/// KEYS: the worker's hold, jobs, attempts. ARGV: id.
const ACK: &str = r"
redis.call('LREM', KEYS[1], 1, ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
";

/// KEYS: the worker's hold, delayed, jobs, attempts. ARGV: id, most attempts, ms of delay
/// per attempt. Returns 1 (later), 0 (given up) or -1 (not held).
const RETRY: &str = r"
if redis.call('LREM', KEYS[1], 1, ARGV[1]) == 0 then
  return -1
end
local attempts = tonumber(redis.call('HGET', KEYS[4], ARGV[1]) or ARGV[2])
if attempts >= tonumber(ARGV[2]) then
  redis.call('HDEL', KEYS[3], ARGV[1])
  redis.call('HDEL', KEYS[4], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[2], now + attempts * tonumber(ARGV[3]), ARGV[1])
return 1
";

/// KEYS: workers, ready. ARGV: the holds' key prefix (`{queue}:held:`), `only` (ARGV[3] a
/// worker) or `silent-for` (ARGV[3] ms: workers whose last beat is older), the notice
/// channel. Returns {workers removed, jobs handed back}.
const HAND_BACK: &str = r"
local workers
if ARGV[2] == 'only' then
  workers = {ARGV[3]}
else
  workers = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[3])))
end
local removed, total = 0, 0
for _, worker in ipairs(workers) do
  local hold = ARGV[1] .. worker
  local jobs = redis.call('LRANGE', hold, 0, -1)
  -- Latest claimed pushed first, so the earliest claimed ends up at the very head.
  for i = #jobs, 1, -1 do
    redis.call('LPUSH', KEYS[2], jobs[i])
  end
  total = total + #jobs
  redis.call('DEL', hold)
  removed = removed + redis.call('ZREM', KEYS[1], worker)
end
if total > 0 then
  redis.call('PUBLISH', ARGV[4], 1)
end
return {removed, total}
";

/// KEYS: workers, the worker's hold. ARGV: worker, the hold's expiry (ms).
const BEAT: &str = r"
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
";

/// The scripts, compiled once per process (each is sent by its hash after the first use).
struct Scripts {
    push: Script,
    claim: Script,
    ack: Script,
    retry: Script,
    hand_back: Script,
    beat: Script,
}

fn scripts() -> &'static Scripts {
    static SCRIPTS: std::sync::OnceLock<Scripts> = std::sync::OnceLock::new();
    SCRIPTS.get_or_init(|| {
        let timed = |body: &str| Script::new(&format!("{NOW}{body}"));
        Scripts {
            push: Script::new(PUSH),
            claim: timed(CLAIM),
            ack: Script::new(ACK),
            retry: timed(RETRY),
            hand_back: timed(HAND_BACK),
            beat: timed(BEAT),
        }
    })
}

/// One job kind's queue in Redis.
#[derive(Clone)]
pub struct RedisStore {
    conn: ConnectionManager,
    name: String,
}

impl RedisStore {
    /// The queue named `name` (`{prefix}.{kind}`), on `conn`.
    pub fn new(conn: ConnectionManager, name: &str) -> Self {
        Self {
            conn,
            name: name.to_owned(),
        }
    }

    pub(super) fn name(&self) -> &str {
        &self.name
    }

    /// The queue's key with suffix `suffix` (see the table above).
    pub fn key(&self, suffix: &str) -> String {
        format!("{}:{suffix}", self.name)
    }

    fn held(&self, worker: &str) -> String {
        format!("{}:held:{worker}", self.name)
    }

    pub(super) async fn push(&self, id: &str, payload: &[u8]) -> Result<(), QueueError> {
        let _: i64 = scripts()
            .push
            .key(self.key("jobs"))
            .key(self.key("ready"))
            .arg(id)
            .arg(payload)
            .arg(pushed_channel(&self.name))
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(())
    }

    pub(super) async fn claim(&self, worker: &str) -> Result<Option<Claimed>, QueueError> {
        let claimed: Option<(String, Vec<u8>, u64)> = scripts()
            .claim
            .key(self.key("ready"))
            .key(self.key("delayed"))
            .key(self.key("jobs"))
            .key(self.key("attempts"))
            .key(self.key("workers"))
            .key(self.held(worker))
            .arg(worker)
            .arg(PROMOTE_BATCH)
            .arg(held_ttl_ms())
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(claimed.map(|(id, payload, attempts)| Claimed { id, payload, attempts }))
    }

    pub(super) async fn ack(&self, worker: &str, id: &str) -> Result<(), QueueError> {
        let _: i64 = scripts()
            .ack
            .key(self.held(worker))
            .key(self.key("jobs"))
            .key(self.key("attempts"))
            .arg(id)
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(())
    }

    pub(super) async fn retry(&self, worker: &str, id: &str, max_attempts: u64) -> Result<Retried, QueueError> {
        let outcome: i64 = scripts()
            .retry
            .key(self.held(worker))
            .key(self.key("delayed"))
            .key(self.key("jobs"))
            .key(self.key("attempts"))
            .arg(id)
            .arg(max_attempts)
            .arg(u64::try_from(RETRY_STEP.as_millis()).unwrap_or(u64::MAX))
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(match outcome {
            1 => Retried::Later,
            0 => Retried::GaveUp,
            _ => Retried::NotHeld,
        })
    }

    pub(super) async fn hand_back(&self, who: HandBack<'_>) -> Result<(u64, u64), QueueError> {
        let (mode, selector) = match who {
            HandBack::Only(worker) => ("only", worker.to_owned()),
            HandBack::SilentFor(silence) => ("silent-for", silence.as_millis().to_string()),
        };
        Ok(scripts()
            .hand_back
            .key(self.key("workers"))
            .key(self.key("ready"))
            .arg(format!("{}:held:", self.name))
            .arg(mode)
            .arg(selector)
            .arg(pushed_channel(&self.name))
            .invoke_async(&mut self.conn.clone())
            .await?)
    }

    pub(super) async fn beat(&self, worker: &str) -> Result<(), QueueError> {
        let _: i64 = scripts()
            .beat
            .key(self.key("workers"))
            .key(self.held(worker))
            .arg(worker)
            .arg(held_ttl_ms())
            .invoke_async(&mut self.conn.clone())
            .await?;
        Ok(())
    }

    pub(super) async fn workers(&self) -> Result<Vec<String>, QueueError> {
        Ok(redis::cmd("ZRANGE")
            .arg(self.key("workers"))
            .arg(0)
            .arg(-1)
            .query_async(&mut self.conn.clone())
            .await?)
    }

    pub(super) async fn depth(&self) -> Result<i64, QueueError> {
        let (ready, delayed): (i64, i64) = redis::pipe()
            .cmd("LLEN")
            .arg(self.key("ready"))
            .cmd("ZCARD")
            .arg(self.key("delayed"))
            .query_async(&mut self.conn.clone())
            .await?;
        Ok(ready + delayed)
    }

    pub(super) async fn oldest_age_secs(&self) -> Result<f64, QueueError> {
        let now = unix_ms();
        let (head, due): (Option<String>, Vec<(String, f64)>) = redis::pipe()
            .cmd("LINDEX")
            .arg(self.key("ready"))
            .arg(0)
            .cmd("ZRANGEBYSCORE")
            .arg(self.key("delayed"))
            .arg("-inf")
            .arg(now)
            .arg("WITHSCORES")
            .arg("LIMIT")
            .arg(0)
            .arg(1)
            .query_async(&mut self.conn.clone())
            .await?;
        let since = [
            head.as_deref().and_then(queued_at_ms),
            due.first().map(|(_, due_ms)| *due_ms as u64),
        ];
        Ok(since
            .into_iter()
            .flatten()
            .map(|since| now.saturating_sub(since) as f64 / 1_000.0)
            .fold(0.0, f64::max))
    }

    pub(super) async fn take_lease(&self, period: Duration) -> Result<bool, QueueError> {
        let millis = u64::try_from(period.as_millis()).unwrap_or(u64::MAX).max(1);
        let taken: Option<String> = redis::cmd("SET")
            .arg(self.key("once"))
            .arg(unix_ms())
            .arg("NX")
            .arg("PX")
            .arg(millis)
            .query_async(&mut self.conn.clone())
            .await?;
        Ok(taken.is_some())
    }

    pub(super) async fn release_lease(&self) -> Result<(), QueueError> {
        let _: i64 = redis::cmd("DEL")
            .arg(self.key("once"))
            .query_async(&mut self.conn.clone())
            .await?;
        Ok(())
    }
}
