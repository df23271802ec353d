//! The store's handle: connecting to either backend, migrating, and the lock that makes a
//! per-user cap hold; the other modules add its queries.

use std::time::Duration;

use sqlx::{AnyPool, Executor, any::AnyPoolOptions, migrate::Migrator};

use crate::CoreResult;

/// The migrations of `backend`. A database may hold migrations newer than this binary
/// (after a rollback to the previous release): they are ignored rather than refused, so
/// old pods still start. Every migration is additive (new tables and columns), which is
/// what makes that safe; see docs/operations.md, Upgrading.
fn migrator(backend: Backend) -> Migrator {
    let mut migrator = match backend {
        Backend::Postgres => sqlx::migrate!("../migrations/postgres"),
        Backend::Sqlite => sqlx::migrate!("../migrations/sqlite"),
    };
    migrator.set_ignore_missing(true);
    migrator
}

/// Which database is behind the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Distributed mode.
    Postgres,
    /// Embedded mode.
    Sqlite,
}

/// How many Postgres connections a process keeps open (`min`), and how many it may open
/// (`max`). SQLite's pool is its own (one writer at a time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSize {
    pub min: u32,
    pub max: u32,
}

/// The most connections a worker keeps open while idle, however many slots it has: a fleet
/// of ten 16-slot workers must not hold Postgres' default 100 connections between them.
const MOST_KEPT_BY_A_WORKER: u32 = 8;

impl PoolSize {
    /// The commands' (migrate, and the like): a few kept, up to 16.
    pub const DEFAULT: Self = Self { min: 4, max: 16 };

    /// The API's: `connections` opened at start and kept, never more
    /// (`LEADGEN_DATABASE_CONNECTIONS`).
    ///
    /// Why fixed: sqlx hands a released connection back to the pool from a task of its own,
    /// after a ping, so a request's next statement, a moment later, finds it still away and
    /// takes another. A request in flight so holds about two, and when the requests at once
    /// needed more than were open, the pool opened one on a request's path: about 90 ms
    /// here with TLS. That was the 4-user first-lead tail (p99 120 ms; docs/benchmarks.md).
    /// At a fixed size a busy moment waits for a connection's return (under a millisecond)
    /// instead of for a new one.
    pub fn for_api(connections: u32) -> Self {
        Self {
            min: connections,
            max: connections,
        }
    }

    /// A worker's, from its search slots: two connections kept open for each slot (see
    /// [`PoolSize::for_api`] for why a busy task holds about two) and two for what runs
    /// beside them (heartbeats, the scheduler, the other job kinds), so slots that start
    /// together do not open any; at most [`MOST_KEPT_BY_A_WORKER`], and up to 16 in a burst.
    pub fn for_worker(search_slots: usize) -> Self {
        let slots = u32::try_from(search_slots).unwrap_or(u32::MAX);
        Self {
            min: slots.saturating_mul(2).saturating_add(2).min(MOST_KEPT_BY_A_WORKER),
            max: Self::DEFAULT.max,
        }
    }
}

/// Handle to the database; cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    pub(super) pool: AnyPool,
    pub(super) backend: Backend,
}

impl Store {
    /// Connects to `url` (`postgres://...` or `sqlite://...`) with the default pool. Does
    /// not migrate.
    pub async fn connect(url: &str) -> CoreResult<Self> {
        Self::connect_sized(url, PoolSize::DEFAULT).await
    }

    /// Connects to `url` keeping `size` connections to Postgres. Does not migrate.
    pub async fn connect_sized(url: &str, size: PoolSize) -> CoreResult<Self> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            Backend::Postgres
        };
        let options = match backend {
            // SQLite allows one writer at a time: WAL lets readers run beside it, and a
            // busy timeout makes writers queue instead of failing.
            Backend::Sqlite => AnyPoolOptions::new().max_connections(8).after_connect(|conn, _meta| {
                Box::pin(async move {
                    conn.execute("PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON;")
                        .await?;
                    Ok(())
                })
            }),
            Backend::Postgres => AnyPoolOptions::new()
                .max_connections(size.max)
                .min_connections(size.min),
        };
        let pool = options.acquire_timeout(Duration::from_secs(10)).connect(url).await?;
        Ok(Self { pool, backend })
    }

    /// Applies pending migrations for this backend.
    pub async fn migrate(&self) -> CoreResult<()> {
        migrator(self.backend).run(&self.pool).await?;
        Ok(())
    }

    /// Round-trips a trivial query (readiness).
    pub async fn ping(&self) -> CoreResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// The backend in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes every connection.
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Makes a per-user cap hold under concurrency: the caller's one capped insert
    /// (`INSERT ... SELECT ... WHERE (SELECT COUNT(*) ...) < cap`) runs in `tx` after this.
    ///
    /// Postgres: the statement alone is not enough, since two transactions would count
    /// from snapshots that miss each other's rows. Locking the owner's `users` row first
    /// queues a user's capped creates, and the insert that runs after the wait takes a
    /// new snapshot (read committed) that holds the previous create's row. `FOR NO KEY
    /// UPDATE` leaves foreign-key checks and plain reads of the user free.
    ///
    /// SQLite: nothing to do. A write statement takes the database's one write lock
    /// before it reads, so its count and its insert are a single step.
    pub(super) async fn serialize_capped_create(
        &self,
        tx: &mut sqlx::Transaction<'_, sqlx::Any>,
        user_id: &str,
    ) -> CoreResult<()> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE")
                .bind(user_id)
                .fetch_optional(&mut **tx)
                .await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::PoolSize;

    #[test]
    fn a_worker_keeps_a_connection_for_each_slot_up_to_a_cap() {
        assert_eq!(
            PoolSize::for_worker(2),
            PoolSize { min: 6, max: 16 },
            "2 slots, two each, and 2 beside them"
        );
        assert_eq!(PoolSize::for_worker(1).min, 4);
        assert_eq!(PoolSize::for_worker(4).min, 8);
        assert_eq!(
            PoolSize::for_worker(64).min,
            8,
            "a large worker keeps no more than 8 idle, so a fleet fits Postgres' default 100"
        );
        assert_eq!(PoolSize::for_worker(usize::MAX).min, 8);
    }

    #[test]
    fn the_api_opens_its_connections_at_start_and_never_more() {
        assert_eq!(PoolSize::for_api(16), PoolSize { min: 16, max: 16 });
    }
}
