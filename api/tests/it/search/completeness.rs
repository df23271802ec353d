//! The completeness meter in the estimate (#30): Google's count of the area's places
//! when the meter is on and the type is a Google type; null, and the estimate still
//! answers, when it is off, the type is not Google's, or the count fails.

use leadgen_testkit::places_sim::{PlacesSim, Sku};
use serde_json::{Value, json};

use super::env::{Mode, SearchEnv};

const RADIUS_M: f64 = 4_000.0;

/// A circle of [`RADIUS_M`] around the first city's centre, as a request's `area`, and
/// how many places of `place_type` lie in it (open or closed).
fn circle(env: &SearchEnv, place_type: &str) -> (Value, u64) {
    let city = &env.sim.cities()[0];
    let c = city.viewport.center();
    let inside = env
        .sim
        .world()
        .places_for(city.name, place_type)
        .iter()
        .filter(|p| p.location.distance_m(c) <= RADIUS_M)
        .count() as u64;
    let area = json!({"center": {"latitude": c.latitude, "longitude": c.longitude}, "radiusMeters": RADIUS_M});
    (area, inside)
}

async fn estimate(env: &SearchEnv, body: Value) -> Value {
    let (status, estimate) = env.app.post("/api/leads/estimate", Some(&env.token), Some(body)).await;
    assert_eq!(status, 200, "{estimate}");
    estimate
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_google_type_in_a_known_area_gets_googles_count_and_other_types_none() {
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder(), 0, vec![]).await;
    let (area, inside) = circle(&env, "dentist");
    assert!(inside > 0, "the circle holds dentists");
    // A quick search of an explicit circle: its area is known before it runs.
    let quick = estimate(&env, json!({"businessType": "dentist", "area": area})).await;
    assert_eq!(
        quick["completeness"],
        json!({"expected": inside, "source": "google_aggregate"}),
        "{quick}"
    );
    assert_eq!(quick["spent"]["requests"]["aggregate"].as_u64(), Some(1));
    assert_eq!(env.sim.stats().billable(Sku::PlacesAggregate), 1);

    // `computer_phone_repair` is the catalogue's, not Google's: nothing to count.
    env.sim.reset();
    let repair = estimate(
        &env,
        json!({"businessType": "computer_phone_repair", "coverage": "full", "area": area}),
    )
    .await;
    assert!(repair["completeness"].is_null(), "{repair}");
    assert_eq!(repair["spent"]["requests"]["aggregate"].as_u64(), Some(0));
    assert_eq!(
        env.sim.stats().compute_insights_requests,
        0,
        "no call for a non-Google type"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_meter_can_be_turned_off() {
    let env = SearchEnv::start(
        Mode::Embedded,
        PlacesSim::builder(),
        0,
        vec![("LEADGEN_COMPLETENESS", "off".to_owned())],
    )
    .await;
    let (area, _) = circle(&env, "dentist");
    let off = estimate(
        &env,
        json!({"businessType": "dentist", "coverage": "full", "area": area}),
    )
    .await;
    assert!(off["completeness"].is_null(), "{off}");
    assert_eq!(off["spent"]["costUsd"].as_f64(), Some(0.0));
    assert_eq!(env.sim.stats().compute_insights_requests, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_count_never_fails_the_estimate() {
    // Nothing listens on port 9 of this host: every Aggregate call fails to connect.
    let env = SearchEnv::start(
        Mode::Embedded,
        PlacesSim::builder(),
        0,
        vec![("LEADGEN_AGGREGATE_BASE_URL", "http://127.0.0.1:9".to_owned())],
    )
    .await;
    let (area, _) = circle(&env, "dentist");
    let answer = estimate(
        &env,
        json!({"businessType": "dentist", "coverage": "full", "area": area}),
    )
    .await;
    assert!(answer["completeness"].is_null(), "{answer}");
    assert!(
        answer["estimatedLeads"].as_u64().expect("leads") > 0,
        "the estimate itself answered"
    );
    assert_eq!(
        answer["spent"]["requests"]["aggregate"].as_u64(),
        Some(0),
        "no count, nothing billed"
    );
}

// A running full search carries the meter (#30 item 3): `progress` says how many of
// Google's count it has found so far, and `complete` how many in all. Over a city's whole
// viewport the search finds every place the count counts, and the count's one request is
// in the search's cost.
crate::both_modes!(a_full_search_reports_found_of_googles_count, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let city = &env.sim.cities()[0];
    let v = city.viewport;
    let counted = env.sim.world().places_for(city.name, "dentist").len() as u64;
    assert!(counted > 60, "more than one page of dentists: {counted}");
    let area = json!({
        "low": {"latitude": v.low.latitude, "longitude": v.low.longitude},
        "high": {"latitude": v.high.latitude, "longitude": v.high.longitude},
    });
    let (status, events) = env
        .stream_body(json!({"businessType": "dentist", "coverage": "full", "area": area}))
        .await;
    assert_eq!(status, 200, "{events:?}");

    let readings: Vec<&Value> = events
        .iter()
        .filter(|(_, e)| e["type"] == "progress")
        .filter_map(|(_, e)| e.get("completeness"))
        .collect();
    assert!(!readings.is_empty(), "progress carries the meter once Google counted");
    let mut last_found = 0;
    for reading in &readings {
        assert_eq!(reading["expected"].as_u64(), Some(counted), "{reading}");
        assert_eq!(reading["source"], "google_aggregate");
        let found = reading["found"].as_u64().expect("found");
        assert!(found >= last_found, "found only grows: {readings:?}");
        last_found = found;
    }

    let complete = &events.last().expect("events").1;
    assert_eq!(complete["type"], "complete", "{complete}");
    assert_eq!(
        complete["completeness"],
        json!({"found": counted, "expected": counted, "source": "google_aggregate"}),
        "every place Google counts was found"
    );
    assert_eq!(
        complete["cost"]["requests"]["aggregate"].as_u64(),
        Some(1),
        "{complete}"
    );
    assert_eq!(env.sim.stats().billable(Sku::PlacesAggregate), 1);
});

// With the meter off, a full search asks Google for no count and carries none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_search_carries_no_meter_when_it_is_off() {
    let env = SearchEnv::start(
        Mode::Embedded,
        PlacesSim::builder(),
        1,
        vec![("LEADGEN_COMPLETENESS", "off".to_owned())],
    )
    .await;
    let (area, _) = circle(&env, "dentist");
    let (status, events) = env
        .stream_body(json!({"businessType": "dentist", "coverage": "full", "area": area}))
        .await;
    assert_eq!(status, 200);
    assert!(
        events.iter().all(|(_, e)| e.get("completeness").is_none()),
        "{events:?}"
    );
    assert_eq!(env.sim.stats().compute_insights_requests, 0);
}
