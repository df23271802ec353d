//! Exports from the server (issue #29 item 6): a finished search's leads as CSV (the web
//! app's file), XLSX and JSON while its results are held; a member of the workspace may
//! export, anyone else gets 404; a running search 409, expired results 410; each export
//! is in the audit log.

use std::time::Duration;

use leadgen_core::{ids::WorkspaceId, lead::Lead, workspace::Role};
use leadgen_testkit::places_sim::PlacesSim;
use serde_json::{Value, json};

use super::env::{Mode, SearchEnv};
use crate::both_modes;

/// GET `path` as `token` in `workspace`: status, headers we check, body bytes.
async fn download(env: &SearchEnv, path: &str, token: &str, workspace: Option<&str>) -> (u16, String, String, Vec<u8>) {
    let mut request = env
        .app
        .client
        .get(path)
        .header("authorization", format!("Bearer {token}"));
    if let Some(id) = workspace {
        request = request.header("Leadgen-Workspace", id);
    }
    let resp = request.send().await;
    let status = resp.0.status().as_u16();
    let header = |name: &str| {
        resp.0
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let (content_type, disposition) = (header("content-type"), header("content-disposition"));
    let bytes = resp.0.into_body().into_vec().await.expect("body");
    (status, content_type, disposition, bytes)
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(bytes).into_owned()))
}

both_modes!(a_finished_search_exports_as_csv_xlsx_and_json, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let city = env.dense_city("cafe", 20);
    let (status, events) = env.stream("cafe", &city).await;
    assert_eq!(status, 200);
    let search_id = events[0].1["searchId"].as_str().expect("search id").to_owned();
    let complete = &events.last().expect("events").1;
    assert_eq!(complete["type"], "complete", "{complete}");
    let results: Vec<Lead> = serde_json::from_value(complete["results"].clone()).expect("leads");
    assert!(!results.is_empty());
    let base = format!("/api/leads/searches/{search_id}/export");
    let slug = format!("leads-cafe-{}-", leadgen_core::delivery::file_slug(&city));

    // Before any export, `exclude: exported` leaves nothing out: a place seen is not a
    // place exported.
    let sent = |events: &[(u64, Value)]| events.iter().filter(|(_, e)| e["type"] == "business_found").count();
    let again = json!({"businessType": "cafe", "location": city, "exclude": "exported"});
    let (_, before) = env.stream_body(again.clone()).await;
    assert_eq!(sent(&before), results.len());

    // CSV, the default: the web app's file byte for byte.
    for path in [base.clone(), format!("{base}?format=csv")] {
        let (status, content_type, disposition, bytes) = download(&env, &path, &env.token, None).await;
        assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&bytes));
        assert_eq!(content_type, "text/csv; charset=utf-8");
        assert!(
            disposition.starts_with(&format!("attachment; filename=\"{slug}")) && disposition.ends_with(".csv\""),
            "{disposition}"
        );
        assert_eq!(
            String::from_utf8_lossy(&bytes),
            String::from_utf8_lossy(&leadgen_core::delivery::leads_csv(&results, false))
        );
    }

    // XLSX: a workbook (a zip), named alike; its cells are checked in core's tests.
    let (status, content_type, disposition, bytes) =
        download(&env, &format!("{base}?format=xlsx"), &env.token, None).await;
    assert_eq!(status, 200);
    assert_eq!(
        content_type,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    assert!(disposition.ends_with(".xlsx\""), "{disposition}");
    assert!(bytes.starts_with(b"PK\x03\x04"), "a zip archive");
    assert!(
        bytes.len() > 2000,
        "a workbook with {} leads: {} bytes",
        results.len(),
        bytes.len()
    );

    // JSON: the contract's leads, the same as the `complete` event's.
    let (status, content_type, disposition, bytes) =
        download(&env, &format!("{base}?format=json"), &env.token, None).await;
    assert_eq!(status, 200);
    assert_eq!(content_type, "application/json; charset=utf-8");
    assert!(disposition.ends_with(".json\""), "{disposition}");
    let body = json_of(&bytes);
    assert_eq!(body["searchId"], search_id.as_str());
    assert_eq!(body["businessType"], "cafe");
    assert_eq!(body["location"], city.as_str());
    assert_eq!(body["leads"], complete["results"]);

    // A format it does not know is the caller's mistake.
    let (status, body) = env.app.get(&format!("{base}?format=pdf"), Some(&env.token)).await;
    assert_eq!(status, 400, "{body}");

    // Each export is in the audit log: the search, the format, how many rows.
    let (_, workspaces) = env.app.get("/api/workspaces", Some(&env.token)).await;
    let workspace = workspaces["workspaces"][0]["id"]
        .as_str()
        .expect("workspace")
        .to_owned();
    let (_, log) = env
        .app
        .get(&format!("/api/workspaces/{workspace}/audit-events"), Some(&env.token))
        .await;
    let exports: Vec<&Value> = log["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["action"] == "export_made")
        .collect();
    assert_eq!(exports.len(), 4, "{log}");
    assert_eq!(exports[0]["target"], search_id.as_str());
    assert_eq!(
        exports[0]["details"],
        json!({"to": "file", "format": "json", "rows": results.len()})
    );

    // A member of the workspace may export it; anyone else, even in their own
    // workspace, is told there is no such search.
    let (member_id, member) = env.app.sign_in("export-member").await;
    env.app
        .state
        .store
        .add_member(&WorkspaceId::from(workspace.clone()), &member_id, Role::Member)
        .await
        .expect("member");
    let (status, _, _, bytes) = download(&env, &format!("{base}?format=json"), &member, Some(&workspace)).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
    assert_eq!(json_of(&bytes)["leads"], complete["results"]);
    let (status, body) = env.app.get(&base, Some(&member)).await;
    assert_eq!(status, 404, "not in the member's own workspace: {body}");
    // The export marked its places exported in the workspace's place memory.
    let (_, after) = env.stream_body(again).await;
    assert_eq!(sent(&after), 0, "every place was exported: {after:?}");
    assert_eq!(after.last().expect("complete").1["newCount"], 0);
    let (_, stranger) = env.app.sign_in("export-stranger").await;
    for format in ["csv", "xlsx", "json"] {
        let (status, body) = env.app.get(&format!("{base}?format={format}"), Some(&stranger)).await;
        assert_eq!(status, 404, "{format}: {body}");
    }
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_search_is_409_and_expired_results_are_410() {
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder().latency(Duration::from_millis(150)),
        1,
        vec![],
    )
    .await;
    let name = env.dense_city("restaurant", 61);
    let city = env.sim.cities().iter().find(|c| c.name == name).expect("the city");
    let v = city.viewport;
    let area = json!({
        "low": {"latitude": v.low.latitude, "longitude": v.low.longitude},
        "high": {"latitude": v.high.latitude, "longitude": v.high.longitude},
    });
    // A full search runs in the background: start it and read only its first frame.
    let resp = env
        .app
        .client
        .post("/api/leads/search-stream")
        .header("authorization", format!("Bearer {}", env.token))
        .body_json(&json!({"businessType": "restaurant", "coverage": "full", "area": area}))
        .send()
        .await;
    assert_eq!(resp.0.status().as_u16(), 200);
    let mut body = resp.0.into_body().into_bytes_stream();
    let mut text = String::new();
    while !text.contains("\n\n") {
        let chunk = futures_util::StreamExt::next(&mut body)
            .await
            .expect("a frame")
            .expect("chunk");
        text.push_str(&String::from_utf8_lossy(&chunk));
    }
    drop(body);
    let first = &super::env::parse_sse(&text)[0].1;
    let search_id = first["searchId"].as_str().expect("search id").to_owned();
    let path = format!("/api/leads/searches/{search_id}/export");
    let (status, running) = env.app.get(&path, Some(&env.token)).await;
    assert_eq!(status, 409, "{running}");
    assert_eq!(running["error"], "search_running", "{running}");

    // Once it has finished, the export answers; once its events are gone, 410.
    let mut answered = 0;
    for _ in 0..600 {
        let (status, _) = env.app.get(&path, Some(&env.token)).await;
        answered = status;
        if status != 409 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(answered, 200, "the export once the search finished");
    let client = redis::Client::open(leadgen_testkit::db::redis_url()).expect("client");
    let mut redis = client.get_multiplexed_async_connection().await.expect("redis");
    let _: () = redis::cmd("DEL")
        .arg(format!("{}:search:{search_id}:events", env.prefix()))
        .query_async(&mut redis)
        .await
        .expect("del");
    let (status, gone) = env.app.get(&format!("{path}?format=xlsx"), Some(&env.token)).await;
    assert_eq!(status, 410, "{gone}");
    assert_eq!(gone["error"], "results_gone", "{gone}");
    assert!(
        gone["message"].as_str().is_some_and(|m| m.contains("10 minutes")),
        "{gone}"
    );
}
