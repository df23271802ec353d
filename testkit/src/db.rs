//! One fresh database per test, on real Postgres and on SQLite.
//!
//! Postgres: `LEADGEN_TEST_POSTGRES_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`) names a server where we may create
//! databases; each test gets `leadgen_t_<uuid>`, dropped when the handle is dropped.
//! The test command also drops any left behind by a crashed run.

use std::path::PathBuf;

use sqlx::{Connection, Executor, PgConnection};

/// Prefix of every database the tests create.
pub const TEST_DB_PREFIX: &str = "leadgen_t_";

/// The Postgres server the tests use.
pub fn postgres_admin_url() -> String {
    std::env::var("LEADGEN_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned())
}

/// The Redis server the tests use.
pub fn redis_url() -> String {
    std::env::var("LEADGEN_TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned())
}

/// A database that exists for one test.
#[derive(Debug)]
pub struct TestDatabase {
    /// Connection URL of the fresh database.
    pub url: String,
    cleanup: Cleanup,
}

#[derive(Debug)]
enum Cleanup {
    Postgres { admin_url: String, name: String },
    Sqlite(PathBuf),
}

impl TestDatabase {
    /// A new, empty Postgres database. Panics with a clear message if Postgres is down:
    /// these tests must run for real, never skip silently.
    pub async fn postgres() -> Self {
        let admin_url = postgres_admin_url();
        let name = format!("{TEST_DB_PREFIX}{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|e| panic!("Postgres at {admin_url} is required for this test: {e}"));
        admin
            .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .await
            .unwrap_or_else(|e| panic!("could not create test database {name}: {e}"));
        admin.close().await.ok();
        let mut url = url_with_database(&admin_url, &name);
        url.push_str(if url.contains('?') { "&" } else { "?" });
        url.push_str("application_name=leadgen-tests");
        Self {
            url,
            cleanup: Cleanup::Postgres { admin_url, name },
        }
    }

    /// A new SQLite file in the temp dir.
    pub fn sqlite() -> Self {
        let path = std::env::temp_dir().join(format!("leadgen-test-{}.db", uuid::Uuid::new_v4().simple()));
        Self {
            url: format!("sqlite://{}?mode=rwc", path.display()),
            cleanup: Cleanup::Sqlite(path),
        }
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        match &self.cleanup {
            Cleanup::Sqlite(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                }
            }
            Cleanup::Postgres { admin_url, name } => {
                // Drop runs inside the test's runtime, which cannot block on async work:
                // a short-lived thread with its own runtime does the DROP.
                let (admin_url, name) = (admin_url.clone(), name.clone());
                let _ = std::thread::spawn(move || {
                    let Ok(rt) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
                        return;
                    };
                    rt.block_on(async {
                        if let Ok(mut admin) = PgConnection::connect(&admin_url).await {
                            let _ = admin
                                .execute(sqlx::AssertSqlSafe(format!(
                                    "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                                )))
                                .await;
                        }
                    });
                })
                .join();
            }
        }
    }
}

fn url_with_database(admin_url: &str, name: &str) -> String {
    let (base, query) = admin_url
        .split_once('?')
        .map_or((admin_url, None), |(b, q)| (b, Some(q)));
    let base = base.rsplit_once('/').map_or(base, |(server, _db)| server);
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}
