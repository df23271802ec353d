//! Where a benchmark's CPU goes, by component: the processes' own CPU time from `/proc`
//! (Linux), read before and after a phase. Throughput on a shared machine moves with
//! whatever else runs; CPU milliseconds a search, by component, move only with the code.

use std::collections::HashMap;

/// Clock ticks a second (`getconf CLK_TCK`; 100 on Linux everywhere we run).
const TICKS_PER_SECOND: f64 = 100.0;

/// The components measured, each a set of process ids.
pub struct Components {
    /// (name, pids); a pid listed under two names is counted under the first.
    pub named: Vec<(&'static str, Vec<u32>)>,
}

/// CPU ticks (user + system) of each process at one moment.
pub struct Snapshot(HashMap<u32, u64>);

/// A process's CPU ticks so far, `None` once it is gone.
fn ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces) start after its ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 here.
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

impl Components {
    /// Adds processes to component `name` that it did not list yet (ones that started
    /// during a phase count whole).
    pub fn add(&mut self, name: &str, pids: Vec<u32>) {
        if let Some((_, known)) = self.named.iter_mut().find(|(n, _)| *n == name) {
            known.extend(pids.into_iter().filter(|p| !known.contains(p)).collect::<Vec<_>>());
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot(
            self.named
                .iter()
                .flat_map(|(_, pids)| pids.iter())
                .filter_map(|&pid| ticks(pid).map(|t| (pid, t)))
                .collect(),
        )
    }

    /// CPU milliseconds of each component between `before` and `after`, divided by `per`.
    /// A process that started in between counts whole.
    pub fn ms_per(&self, before: &Snapshot, after: &Snapshot, per: f64) -> Vec<(&'static str, f64)> {
        self.named
            .iter()
            .map(|(name, pids)| {
                let ticks: u64 = pids
                    .iter()
                    .filter_map(|pid| Some(after.0.get(pid)? - before.0.get(pid).copied().unwrap_or(0)))
                    .sum();
                (*name, ticks as f64 / TICKS_PER_SECOND * 1000.0 / per.max(1.0))
            })
            .collect()
    }
}

/// Postgres' processes working for `database_url`'s database: its backends, and the
/// server's own (the WAL writer, the checkpointer: their work is the commits' too). Read
/// again after a phase, since a pool may open connections during it.
pub async fn postgres_processes(database_url: &str) -> Vec<u32> {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(database_url).await.expect("bench database");
    let pids: Vec<i32> = sqlx::query_scalar(
        "SELECT pid FROM pg_stat_activity \
         WHERE (datname = current_database() OR datname IS NULL) AND pid <> pg_backend_pid()",
    )
    .fetch_all(&mut conn)
    .await
    .expect("backends");
    conn.close().await.ok();
    pids.into_iter().map(|p| p as u32).collect()
}

/// The Redis server's process id (from `INFO server`).
pub async fn redis_pid(redis_url: &str) -> Option<u32> {
    let client = redis::Client::open(redis_url).ok()?;
    let mut conn = client.get_multiplexed_async_connection().await.ok()?;
    let info: String = redis::cmd("INFO").arg("server").query_async(&mut conn).await.ok()?;
    info.lines()
        .find_map(|l| l.strip_prefix("process_id:"))
        .and_then(|v| v.trim().parse().ok())
}
