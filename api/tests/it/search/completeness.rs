//! The completeness meter in the estimate (#30): Google's count of the area's places
//! when the meter is on and the type is a Google type; null, and the estimate still
//! answers, when it is off, the type is not Google's, or the count fails.

use std::collections::BTreeSet;

use leadgen_testkit::places_sim::{DEFAULT_SEED, PlacesSim, Sku, World, cities};
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
    let (status, estimate) = env.estimate(body).await;
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

/// A rectangle over the first city's whole viewport, as a request's `area`, the florists
/// in it (fewer than Google's 100 for `INSIGHT_PLACES`), and one of them to hide from
/// Text Search.
fn florists() -> (Value, Vec<String>, String) {
    let world = World::new(DEFAULT_SEED);
    let city = &cities()[0];
    let v = city.viewport;
    let ids: Vec<String> = world.truth("florist", &v, None).into_iter().map(|p| p.id).collect();
    assert!(
        (2..=100).contains(&ids.len()),
        "Google lists the ids of 100 places at most: {}",
        ids.len()
    );
    let hidden = ids[ids.len() / 2].clone();
    let area = json!({
        "low": {"latitude": v.low.latitude, "longitude": v.low.longitude},
        "high": {"latitude": v.high.latitude, "longitude": v.high.longitude},
    });
    (area, ids, hidden)
}

fn sent_ids(events: &[(u64, Value)]) -> Vec<String> {
    events
        .iter()
        .filter(|(_, e)| e["type"] == "business_found")
        .map(|(_, e)| e["lead"]["placeId"].as_str().expect("placeId").to_owned())
        .collect()
}

// #30 item 3: a place Google counts that no Text Search page lists is fetched by id at
// the end of the full search, so found equals expected; it costs the one Place Details
// call and one more Aggregate call (the ids), both in the search's cost.
crate::both_modes!(a_place_no_page_lists_is_fetched_by_id, |mode| async move {
    let (area, ids, hidden) = florists();
    let env = SearchEnv::start(mode, PlacesSim::builder().unlisted(hidden.clone()), 1, vec![]).await;
    let (status, events) = env
        .stream_body(json!({"businessType": "florist", "coverage": "full", "area": area}))
        .await;
    assert_eq!(status, 200, "{events:?}");
    let sent = sent_ids(&events);
    assert!(sent.contains(&hidden), "the unlisted florist was sent");
    assert_eq!(
        sent.iter().collect::<BTreeSet<_>>(),
        ids.iter().collect::<BTreeSet<_>>(),
        "every florist of the area, each once"
    );
    assert_eq!(sent.len(), ids.len());
    let complete = &events.last().expect("events").1;
    assert_eq!(complete["type"], "complete", "{complete}");
    let expected = ids.len() as u64;
    assert_eq!(
        complete["completeness"],
        json!({"found": expected, "expected": expected, "source": "google_aggregate"}),
    );
    let requests = &complete["cost"]["requests"];
    assert_eq!(requests["details"].as_u64(), Some(1), "{complete}");
    assert_eq!(requests["aggregate"].as_u64(), Some(2), "the count and the ids");
    let stats = env.sim.stats();
    assert_eq!(stats.billable(Sku::PlaceDetailsEnterprise), 1);
    assert_eq!(stats.billable(Sku::PlacesAggregate), 2);
    let enterprise = stats.billable(Sku::TextSearchEnterprise);
    let prices = leadgen_core::search::PriceTable::default();
    let usd =
        enterprise as f64 * prices.enterprise / 1000.0 + 2.0 * prices.aggregate / 1000.0 + prices.details / 1000.0;
    assert!(
        (complete["cost"]["costUsd"].as_f64().expect("costUsd") - usd).abs() < 1e-9,
        "{complete}"
    );
});

// With `LEADGEN_COMPLETENESS_FETCH_MISSING=off`, nothing more is asked: the unlisted
// place stays missing, and the meter says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missed_places_are_not_fetched_when_it_is_off() {
    let (area, ids, hidden) = florists();
    let env = SearchEnv::start(
        Mode::Embedded,
        PlacesSim::builder().unlisted(hidden.clone()),
        1,
        vec![("LEADGEN_COMPLETENESS_FETCH_MISSING", "off".to_owned())],
    )
    .await;
    let (status, events) = env
        .stream_body(json!({"businessType": "florist", "coverage": "full", "area": area}))
        .await;
    assert_eq!(status, 200, "{events:?}");
    assert!(!sent_ids(&events).contains(&hidden));
    let complete = &events.last().expect("events").1;
    let expected = ids.len() as u64;
    assert_eq!(
        complete["completeness"],
        json!({"found": expected - 1, "expected": expected, "source": "google_aggregate"}),
    );
    assert_eq!(complete["cost"]["requests"]["details"].as_u64(), Some(0));
    assert_eq!(
        complete["cost"]["requests"]["aggregate"].as_u64(),
        Some(1),
        "the count only"
    );
    assert_eq!(env.sim.stats().place_details_requests, 0);
}
