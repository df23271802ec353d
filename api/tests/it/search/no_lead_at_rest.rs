//! Nothing of a lead is ever written to the database: after searches, every column of
//! every table is scanned for the leads' names, phone numbers, websites and addresses.
//! Place ids are the one exception, and only in the place memory (issue #29: Google
//! allows keeping them indefinitely): they are looked for everywhere else, and the memory
//! table is checked to hold ids and times only.

use leadgen_testkit::places_sim::PlacesSim;
use sqlx::{Connection, Row};

use super::env::{KEY, Mode, SearchEnv};
use crate::both_modes;

pub async fn all_stored_text(mode: Mode, url: &str) -> String {
    all_stored_text_except(mode, url, "").await
}

/// Every column of every table but `skip` (the database files too, in embedded mode,
/// unless a table is skipped: the file holds every table).
pub async fn all_stored_text_except(mode: Mode, url: &str, skip: &str) -> String {
    let mut out = String::new();
    match mode {
        Mode::Embedded => {
            let mut conn = sqlx::SqliteConnection::connect(url).await.expect("sqlite");
            let tables: Vec<String> = sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'")
                .fetch_all(&mut conn)
                .await
                .expect("tables");
            for table in tables.into_iter().filter(|t| t != skip) {
                let sql = format!("SELECT * FROM \"{table}\"");
                for row in sqlx::query(sqlx::AssertSqlSafe(sql))
                    .fetch_all(&mut conn)
                    .await
                    .expect("rows")
                {
                    for i in 0..row.len() {
                        if let Ok(Some(text)) = row.try_get::<Option<String>, _>(i) {
                            out.push_str(&text);
                        } else if let Ok(Some(bytes)) = row.try_get::<Option<Vec<u8>>, _>(i) {
                            out.push_str(&String::from_utf8_lossy(&bytes));
                        }
                        out.push('|');
                    }
                }
            }
            // The file itself too, write-ahead log included.
            if !skip.is_empty() {
                return out;
            }
            let path = url.trim_start_matches("sqlite://").split('?').next().expect("path");
            for file in [path.to_owned(), format!("{path}-wal")] {
                if let Ok(bytes) = std::fs::read(&file) {
                    out.push_str(&String::from_utf8_lossy(&bytes));
                }
            }
        }
        Mode::Distributed => {
            let mut conn = sqlx::PgConnection::connect(url).await.expect("postgres");
            let columns: Vec<(String, String)> = sqlx::query_as(
                "SELECT table_name::text, column_name::text FROM information_schema.columns WHERE table_schema = 'public'",
            )
            .fetch_all(&mut conn)
            .await
            .expect("columns");
            for (table, column) in columns.into_iter().filter(|(t, _)| t != skip) {
                let sql = format!("SELECT string_agg(CAST(\"{column}\" AS TEXT), '|') FROM \"{table}\"");
                let text: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                    .fetch_one(&mut conn)
                    .await
                    .expect("scan");
                out.push_str(&text.unwrap_or_default());
                out.push('|');
            }
        }
    }
    out
}

/// The place memory's columns, in order, and every value of every row, as text.
pub async fn place_memory_columns_and_text(mode: Mode, url: &str) -> (Vec<String>, String) {
    let columns: Vec<String>;
    let rows: Vec<String>;
    match mode {
        Mode::Embedded => {
            let mut conn = sqlx::SqliteConnection::connect(url).await.expect("sqlite");
            columns = sqlx::query_scalar("SELECT name FROM pragma_table_info('place_memory') ORDER BY cid")
                .fetch_all(&mut conn)
                .await
                .expect("columns");
            rows = sqlx::query_scalar(
                "SELECT workspace_id || '|' || place_id || '|' || first_seen_at || '|' || last_seen_at || '|'
                   || COALESCE(last_exported_at, '') FROM place_memory",
            )
            .fetch_all(&mut conn)
            .await
            .expect("rows");
        }
        Mode::Distributed => {
            let mut conn = sqlx::PgConnection::connect(url).await.expect("postgres");
            columns = sqlx::query_scalar(
                "SELECT column_name::text FROM information_schema.columns
                 WHERE table_schema = 'public' AND table_name = 'place_memory' ORDER BY ordinal_position",
            )
            .fetch_all(&mut conn)
            .await
            .expect("columns");
            rows = sqlx::query_scalar(
                "SELECT workspace_id || '|' || place_id || '|' || first_seen_at || '|' || last_seen_at || '|'
                   || COALESCE(CAST(last_exported_at AS TEXT), '') FROM place_memory",
            )
            .fetch_all(&mut conn)
            .await
            .expect("rows");
        }
    }
    (columns, rows.join("\n"))
}

async fn place_memory_text(mode: Mode, url: &str) -> String {
    place_memory_columns_and_text(mode, url).await.1
}

both_modes!(no_lead_is_ever_written_to_the_database, |mode: Mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let mut needles = Vec::new();
    let mut place_ids = Vec::new();
    for place_type in ["restaurant", "plumber"] {
        let city = env.dense_city(place_type, 20);
        let (_, events) = env.stream(place_type, &city).await;
        let complete = &events.last().expect("events").1;
        assert_eq!(complete["type"], "complete");
        for lead in complete["results"].as_array().expect("results") {
            for field in ["name", "phone", "website"] {
                if let Some(v) = lead[field].as_str().filter(|v| v.len() > 6) {
                    needles.push(v.to_owned());
                }
            }
            place_ids.push(lead["placeId"].as_str().expect("placeId").to_owned());
        }
    }
    // A full search by location (its located area and history entry are stored too).
    let city = env.dense_city("restaurant", 61);
    let (_, events) = env
        .stream_body(serde_json::json!({"businessType": "restaurant", "location": city, "coverage": "full"}))
        .await;
    let complete = &events.last().expect("events").1;
    assert_eq!(complete["type"], "complete", "{complete}");
    for lead in complete["results"].as_array().expect("results") {
        for field in ["name", "phone", "website", "address"] {
            if let Some(v) = lead[field].as_str().filter(|v| v.len() > 6) {
                needles.push(v.to_owned());
            }
        }
        place_ids.push(lead["placeId"].as_str().expect("placeId").to_owned());
    }
    assert!(needles.len() > 300, "enough to look for");
    let stored = all_stored_text(mode, &env.app._db.url).await;
    // The place memory holds every sent place's id; no other table holds any.
    let memory = place_memory_text(mode, &env.app._db.url).await;
    let outside_memory = all_stored_text_except(mode, &env.app._db.url, "place_memory").await;
    for id in &place_ids {
        assert!(memory.contains(id.as_str()), "{id} is remembered");
        assert!(
            !outside_memory.contains(id.as_str()),
            "{id} is stored outside the place memory"
        );
    }
    assert!(stored.contains("searcher@example.com"), "the scan does read the tables");
    assert!(stored.contains(&city), "the history's location column was scanned");
    let leaked: Vec<&String> = needles.iter().filter(|n| stored.contains(n.as_str())).collect();
    assert!(leaked.is_empty(), "lead data found at rest: {leaked:?}");
    // The user's Places key is stored too, but only sealed: its hidden middle never appears.
    assert!(
        !stored.contains(&KEY[4..KEY.len() - 4]),
        "a plaintext API key is at rest"
    );
    assert!(
        stored.contains(&KEY[..4]),
        "the masked preview is there, so the key row was scanned"
    );
});
