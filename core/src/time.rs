//! Wall-clock helpers. Timestamps are stored as Unix seconds so that one SQL text serves
//! both Postgres and SQLite (see `store`).

/// Seconds since the Unix epoch, now.
pub fn now_unix() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Milliseconds since the Unix epoch, now (deadlines that travel between processes).
pub fn now_unix_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}
