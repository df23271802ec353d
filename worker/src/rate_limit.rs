//! The per-key rate limit on Google calls: governor inside each process (no Redis round
//! trip while a process alone is over its share), and, in distributed mode, a GCRA in
//! Redis shared by every worker, timed by Redis' own clock so workers' clocks need not
//! agree.

use std::{num::NonZeroU32, sync::Arc, time::Duration};

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use leadgen_core::search::RateGate;
use redis::aio::ConnectionManager;

/// GCRA step in Redis. KEYS[1]: the key's state; ARGV[1]: emission interval (µs);
/// returns 0 when the call may go now, else how many µs to wait first.
const GCRA: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
if tat > now then return tat - now end
redis.call('SET', KEYS[1], tat + interval, 'PX', math.ceil(interval / 1000) + 1000)
return 0
";

/// Limits calls per API key to `rps` per second, process-wide and (with Redis) fleet-wide.
#[derive(Clone)]
pub struct KeyRateGate {
    local: Arc<DefaultKeyedRateLimiter<String>>,
    fleet: Option<Fleet>,
}

#[derive(Clone)]
struct Fleet {
    conn: ConnectionManager,
    prefix: String,
    interval_us: u64,
    script: redis::Script,
}

impl KeyRateGate {
    /// A gate allowing `rps` calls per second per key in this process only.
    pub fn local(rps: u32) -> Self {
        let rps = NonZeroU32::new(rps).unwrap_or(NonZeroU32::MIN);
        Self {
            local: Arc::new(RateLimiter::keyed(Quota::per_second(rps).allow_burst(NonZeroU32::MIN))),
            fleet: None,
        }
    }

    /// A gate shared by every process using this Redis and prefix.
    pub fn fleet(rps: u32, conn: ConnectionManager, prefix: &str) -> Self {
        let mut gate = Self::local(rps);
        gate.fleet = Some(Fleet {
            conn,
            prefix: prefix.to_owned(),
            interval_us: 1_000_000 / u64::from(rps.max(1)),
            script: redis::Script::new(GCRA),
        });
        gate
    }
}

impl RateGate for KeyRateGate {
    async fn until_ready(&self, key_id: &str) {
        let started = std::time::Instant::now();
        self.wait_for(key_id).await;
        // Waits under a millisecond are the gate's own bookkeeping, not a rate limit.
        let waited = started.elapsed();
        if waited >= Duration::from_millis(1) {
            let metrics = leadgen_core::telemetry::metrics::metrics();
            metrics.rate_limit_waits.inc();
            metrics.rate_limit_wait_seconds.observe(waited.as_secs_f64());
        }
    }
}

impl KeyRateGate {
    async fn wait_for(&self, key_id: &str) {
        self.local.until_key_ready(&key_id.to_owned()).await;
        let Some(fleet) = &self.fleet else { return };
        let key = format!("{}:ratelimit:{key_id}", fleet.prefix);
        loop {
            let mut conn = fleet.conn.clone();
            let wait: Result<u64, _> = fleet
                .script
                .key(&key)
                .arg(fleet.interval_us)
                .invoke_async(&mut conn)
                .await;
            match wait {
                Ok(0) => return,
                Ok(us) => tokio::time::sleep(Duration::from_micros(us)).await,
                Err(e) => {
                    // Redis unavailable: the local limit still holds; do not stall searches.
                    tracing::warn!(error = %e, "fleet rate limit unavailable; using the local limit only");
                    return;
                }
            }
        }
    }
}
