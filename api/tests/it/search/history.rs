//! Searches that survive (#13, first part): the history holds metadata and no lead,
//! another user's search is 404 everywhere, a dropped stream is resumed with
//! `Last-Event-ID` (every lead once, numbered on), a background search is cancelled by
//! request, and results gone from memory answer 410.

use std::{collections::HashSet, time::Duration};

use futures_util::StreamExt;
use leadgen_testkit::places_sim::{PlacesSim, Sku};
use serde_json::{Value, json};

use super::env::{Mode, SearchEnv, parse_sse};
use crate::both_modes;

fn area_of(city: &leadgen_testkit::places_sim::City) -> Value {
    let v = city.viewport;
    json!({
        "low": {"latitude": v.low.latitude, "longitude": v.low.longitude},
        "high": {"latitude": v.high.latitude, "longitude": v.high.longitude},
    })
}

fn city_with_restaurants(env: &SearchEnv) -> &'static leadgen_testkit::places_sim::City {
    env.sim
        .cities()
        .iter()
        .find(|c| (61..=200).contains(&env.sim.world().places_for(c.name, "restaurant").len()))
        .expect("a city with more than 60 restaurants")
}

/// Reads a search stream until `enough` says stop; returns the frames read so far.
async fn read_until(
    env: &SearchEnv,
    request: poem::test::TestRequestBuilder<'_, impl poem::Endpoint>,
    enough: impl Fn(&[(u64, Value)]) -> bool,
) -> Vec<(u64, Value)> {
    let resp = request
        .header("authorization", format!("Bearer {}", env.token))
        .send()
        .await;
    assert_eq!(resp.0.status().as_u16(), 200);
    let mut chunks = resp.0.into_body().into_bytes_stream();
    let mut text = String::new();
    let read = async {
        while let Some(chunk) = chunks.next().await {
            text.push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
            // Only whole frames count.
            let whole = text.rfind("\n\n").map_or("", |end| &text[..end + 2]);
            if enough(&parse_sse(whole)) {
                return parse_sse(whole);
            }
        }
        parse_sse(&text)
    };
    tokio::time::timeout(Duration::from_secs(60), read)
        .await
        .expect("in time")
}

both_modes!(the_history_holds_what_was_asked_and_no_lead, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let city = city_with_restaurants(&env);
    let (_, events) = env.stream("restaurant", city.name).await;
    let leads: Vec<Value> = events
        .iter()
        .filter(|(_, e)| e["type"] == "business_found")
        .map(|(_, e)| e["lead"].clone())
        .collect();
    assert_eq!(leads.len(), 60);
    let first_id = events[0].1["searchId"]
        .as_str()
        .expect("start carries the search id")
        .to_owned();
    env.save_key("AIzaSyINVALIDKEY0123456789abcdefghijkl").await;
    let (_, failed) = env
        .stream_body(json!({"businessType": "dentist", "location": city.name, "minRating": 4.5}))
        .await;
    let message = failed.last().expect("events").1["message"]
        .as_str()
        .expect("error")
        .to_owned();

    let (status, page) = env.app.get("/api/leads/searches", Some(&env.token)).await;
    assert_eq!(status, 200, "{page}");
    let searches = page["searches"].as_array().expect("searches");
    assert_eq!(searches.len(), 2);
    let (newest, oldest) = (&searches[0], &searches[1]);
    assert_eq!(newest["status"], "failed");
    assert_eq!(newest["errorMessage"], message.as_str());
    assert_eq!(newest["options"]["filters"]["minRating"], 4.5);
    assert_eq!(oldest["id"], first_id.as_str());
    assert_eq!(oldest["status"], "complete");
    assert_eq!(oldest["businessType"], "restaurant");
    assert_eq!(oldest["location"], city.name);
    assert_eq!(oldest["coverage"], "quick");
    assert_eq!(oldest["leads"], 60);
    assert_eq!(oldest["billableRequests"], 3);
    assert_eq!(oldest["background"], false);
    assert_eq!(oldest["resultsAvailable"], true);
    assert_eq!(page["replayMinutes"], 10);
    // No lead field anywhere in the history.
    let text = page.to_string();
    for lead in &leads {
        for field in ["name", "placeId", "phone", "website", "address"] {
            let value = lead[field].as_str().unwrap_or_default();
            assert!(
                value.is_empty() || !text.contains(value),
                "{field} {value} is in the history"
            );
        }
    }
    // Paging and filters.
    let (_, first) = env.app.get("/api/leads/searches?limit=1", Some(&env.token)).await;
    assert_eq!(first["searches"].as_array().map(Vec::len), Some(1));
    let cursor = first["nextCursor"].as_str().expect("a next page").to_owned();
    let (_, second) = env
        .app
        .get(
            &format!("/api/leads/searches?limit=1&cursor={cursor}"),
            Some(&env.token),
        )
        .await;
    assert_eq!(second["searches"][0]["id"], first_id.as_str());
    assert!(second.get("nextCursor").is_none(), "absent on the last page, not null");
    let (_, failed_only) = env.app.get("/api/leads/searches?status=failed", Some(&env.token)).await;
    assert_eq!(failed_only["searches"].as_array().map(Vec::len), Some(1));
    for bad in ["status=lost", "limit=0", "limit=101", "cursor=nonsense"] {
        let (status, body) = env
            .app
            .get(&format!("/api/leads/searches?{bad}"), Some(&env.token))
            .await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    let (status, one) = env
        .app
        .get(&format!("/api/leads/searches/{first_id}"), Some(&env.token))
        .await;
    assert_eq!(status, 200);
    assert_eq!(one["leads"], 60);

    // Another user sees none of it.
    let (_, other) = env.app.sign_in("someone-else").await;
    let (_, theirs) = env.app.get("/api/leads/searches", Some(&other)).await;
    assert_eq!(theirs["searches"].as_array().map(Vec::len), Some(0));
    for (method, path) in [
        ("get", format!("/api/leads/searches/{first_id}")),
        ("get", format!("/api/leads/searches/{first_id}/events")),
        ("post", format!("/api/leads/searches/{first_id}/cancel")),
    ] {
        let (status, body) = if method == "get" {
            env.app.get(&path, Some(&other)).await
        } else {
            env.app.post(&path, Some(&other), None).await
        };
        assert_eq!(status, 404, "{path}: {body}");
    }
});

both_modes!(a_dropped_stream_resumes_with_last_event_id, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder().latency(Duration::from_millis(60)), 1, vec![]).await;
    let city = city_with_restaurants(&env);
    let truth = env.sim.world().places_for(city.name, "restaurant").len();
    // A full search runs in the background by default: the first stream is dropped.
    let body = json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)});
    let first = read_until(
        &env,
        env.app.client.post("/api/leads/search-stream").body_json(&body),
        |frames| frames.iter().filter(|(_, e)| e["type"] == "business_found").count() >= 10,
    )
    .await;
    let search_id = first[0].1["searchId"].as_str().expect("search id").to_owned();
    let last = first.last().expect("frames").0;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rest = read_until(
        &env,
        env.app
            .client
            .get(format!("/api/leads/searches/{search_id}/events"))
            .header("last-event-id", last.to_string()),
        |frames| frames.last().is_some_and(|(_, e)| e["type"] == "complete"),
    )
    .await;
    assert!(
        rest.iter().all(|(id, _)| *id > last),
        "nothing the client had is sent again"
    );
    assert!(rest.iter().all(|(_, e)| e["type"] != "start"));
    let found: Vec<&Value> = first
        .iter()
        .chain(&rest)
        .filter(|(_, e)| e["type"] == "business_found")
        .map(|(_, e)| e)
        .collect();
    let ids: HashSet<&str> = found
        .iter()
        .map(|e| e["lead"]["placeId"].as_str().expect("id"))
        .collect();
    assert_eq!(found.len(), truth, "every lead");
    assert_eq!(ids.len(), truth, "each once");
    for (i, e) in found.iter().enumerate() {
        assert_eq!(e["found"], i as u64 + 1, "numbered on across the reconnect");
    }
    assert_eq!(
        rest.last().expect("end").1["results"].as_array().map(Vec::len),
        Some(truth)
    );
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_search_is_cancelled_on_request_and_its_results_expire() {
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder().latency(Duration::from_millis(200)),
        1,
        vec![],
    )
    .await;
    let city = city_with_restaurants(&env);
    let body = json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)});
    let first = read_until(
        &env,
        env.app.client.post("/api/leads/search-stream").body_json(&body),
        |frames| !frames.is_empty(),
    )
    .await;
    let search_id = first[0].1["searchId"].as_str().expect("search id").to_owned();
    // The stream is gone; the search goes on.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let (_, running) = env
        .app
        .get(&format!("/api/leads/searches/{search_id}"), Some(&env.token))
        .await;
    assert_eq!(running["status"], "running", "{running}");
    // What a running search does not have yet is absent, as the contract says, not null.
    for field in ["leads", "billableRequests", "costUsd", "finishedAt", "errorMessage"] {
        assert!(
            running.get(field).is_none(),
            "{field} is left out while running: {running}"
        );
    }
    // Its progress shows in the history once it has delivered a tile: the checkpoint's
    // counts, the same in the list as in the entry.
    let mut progress = Value::Null;
    for _ in 0..100 {
        let (_, now) = env
            .app
            .get(&format!("/api/leads/searches/{search_id}"), Some(&env.token))
            .await;
        if now["progress"]["found"].as_u64().unwrap_or(0) > 0 {
            progress = now["progress"].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        progress["found"].as_u64().unwrap_or(0) > 0,
        "progress while running: {progress}"
    );
    assert!(progress["billableRequests"].as_u64().unwrap_or(0) > 0, "{progress}");
    assert!(progress["costUsd"].as_f64().unwrap_or(0.0) > 0.0, "{progress}");
    let (_, page) = env
        .app
        .get("/api/leads/searches?status=running", Some(&env.token))
        .await;
    let listed = &page["searches"][0];
    assert_eq!(listed["id"], search_id.as_str());
    assert!(
        listed["progress"]["found"].as_u64().unwrap_or(0) >= progress["found"].as_u64().unwrap_or(0),
        "the list shows at least as far: {listed}"
    );
    let (status, answer) = env
        .app
        .post(
            &format!("/api/leads/searches/{search_id}/cancel"),
            Some(&env.token),
            None,
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let mut settled = Value::Null;
    for _ in 0..100 {
        let (_, now) = env
            .app
            .get(&format!("/api/leads/searches/{search_id}"), Some(&env.token))
            .await;
        if now["status"] == "cancelled" {
            settled = now;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(settled["status"], "cancelled", "cancelled within 10 s");
    // What it spent before it stopped is recorded (written just after it settles): the
    // month's spend, and so the workspace's spend cap, count it (issue #28 item 7).
    let mut cost = 0.0;
    for _ in 0..50 {
        let (_, now) = env
            .app
            .get(&format!("/api/leads/searches/{search_id}"), Some(&env.token))
            .await;
        cost = now["costUsd"].as_f64().unwrap_or(0.0);
        if cost > 0.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        cost >= progress["costUsd"].as_f64().unwrap_or(f64::MAX),
        "a cancelled search's cost ({cost}) is at least its progress showed: {progress}"
    );
    let (_, workspaces) = env.app.get("/api/workspaces", Some(&env.token)).await;
    assert!(
        (workspaces["workspaces"][0]["monthSpendUsd"].as_f64().unwrap_or(0.0) - cost).abs() < 0.001,
        "{workspaces}"
    );
    // A client that re-opens it is told it ended.
    let events = read_until(
        &env,
        env.app.client.get(format!("/api/leads/searches/{search_id}/events")),
        |frames| frames.last().is_some_and(|(_, e)| e["type"] == "error"),
    )
    .await;
    assert!(
        events.last().expect("events").1["message"]
            .as_str()
            .is_some_and(|m| m.contains("cancelled")),
        "{events:?}"
    );
    let billed = env.sim.stats().billable(Sku::TextSearchEnterprise)
        + env.sim.stats().billable(Sku::TextSearchEssentialsIdsOnly);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let later = env.sim.stats().billable(Sku::TextSearchEnterprise)
        + env.sim.stats().billable(Sku::TextSearchEssentialsIdsOnly);
    assert!(
        later <= billed + 8,
        "no more requests once cancelled ({billed} then {later})"
    );

    // Its events live in memory for minutes only: once gone, a clear 410.
    let client = redis::Client::open(leadgen_testkit::db::redis_url()).expect("client");
    let mut redis = client.get_multiplexed_async_connection().await.expect("redis");
    let _: () = redis::cmd("DEL")
        .arg(format!("{}:search:{search_id}:events", env.prefix()))
        .query_async(&mut redis)
        .await
        .expect("del");
    let (status, gone) = env
        .app
        .get(&format!("/api/leads/searches/{search_id}/events"), Some(&env.token))
        .await;
    assert_eq!(status, 410, "{gone}");
    assert!(
        gone["message"]
            .as_str()
            .expect("message")
            .contains("never store lead data")
    );
}
