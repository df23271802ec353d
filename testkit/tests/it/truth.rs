//! `GET /_sim/truth`: every place a search for a type could find in a rectangle, uncapped,
//! so tests and benchmarks can measure a full-coverage search's recall.

use std::collections::HashSet;

use leadgen_testkit::places_sim::{LatLng, METRO_CITY, Viewport};
use serde_json::Value;

use crate::{
    http::{Reply, send},
    sim,
};

fn id_list(reply: &Reply) -> Vec<String> {
    reply.body["placeIds"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

async fn get(base_url: &str, path: &str) -> Reply {
    send(base_url, "GET", path, &[], "").await
}

#[tokio::test]
async fn truth_lists_every_place_of_a_type_in_a_city_or_rectangle() {
    let sim = sim().await;
    let whole = get(&sim.base_url, "/_sim/truth?type=dentist&city=Houston").await;
    assert_eq!(whole.status, 200, "{}", whole.body);
    assert_eq!(whole.body["type"], "dentist");
    assert_eq!(whole.body["count"], 1_500);
    let ids = id_list(&whole);
    assert_eq!(ids.len(), 1_500);
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 1_500, "each once");
    let metro: HashSet<String> = sim
        .world()
        .places_for(METRO_CITY, "dentist")
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids.into_iter().collect::<HashSet<_>>(), metro);

    let area = Viewport::new(LatLng::new(29.70, -95.50), LatLng::new(29.80, -95.30));
    let part = get(
        &sim.base_url,
        "/_sim/truth?type=dentist&low=29.70,-95.50&high=29.80,-95.30",
    )
    .await;
    let expected: Vec<String> = sim
        .world()
        .truth("dentist", &area, None)
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert!(expected.len() > 60 && expected.len() < 1_500, "{}", expected.len());
    assert_eq!(id_list(&part), expected);
    assert_eq!(part.body["count"], expected.len());

    let rated = get(
        &sim.base_url,
        "/_sim/truth?type=dentist&low=29.70,-95.50&high=29.80,-95.30&minRating=4.0",
    )
    .await;
    let rated_expected: Vec<String> = sim
        .world()
        .truth("dentist", &area, Some(4.0))
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert!(rated_expected.len() < expected.len());
    assert_eq!(id_list(&rated), rated_expected);

    // A type searched by text counts what its text matches.
    let food = get(&sim.base_url, "/_sim/truth?type=food&city=Denver").await;
    let food_only = sim.world().places_for("Denver", "food").len();
    let restaurants = sim.world().places_for("Denver", "restaurant").len();
    assert!(
        food.body["count"]
            .as_u64()
            .is_some_and(|n| n as usize > food_only + restaurants)
    );
    let repair = get(&sim.base_url, "/_sim/truth?type=computer_phone_repair&city=Austin").await;
    assert_eq!(
        repair.body["count"],
        sim.world().places_for("Austin", "computer_phone_repair").len()
    );
}

#[tokio::test]
async fn a_bad_truth_query_is_refused() {
    let sim = sim().await;
    for path in [
        "/_sim/truth?city=Houston",
        "/_sim/truth?type=museum&city=Houston",
        "/_sim/truth?type=dentist&city=Atlantis",
        "/_sim/truth?type=dentist",
        "/_sim/truth?type=dentist&low=29.7,-95.5",
        "/_sim/truth?type=dentist&low=29.7&high=29.8,-95.3",
        "/_sim/truth?type=dentist&low=29.9,-95.5&high=29.8,-95.3",
        "/_sim/truth?type=dentist&city=Houston&low=29.7,-95.5&high=29.8,-95.3",
        "/_sim/truth?type=dentist&city=Houston&minRating=6",
        "/_sim/truth?type=dentist&city=Houston&minRating=high",
    ] {
        let reply = get(&sim.base_url, path).await;
        assert_eq!(reply.status, 400, "{path}");
        assert!(reply.body["error"].as_str().is_some_and(|e| !e.is_empty()), "{path}");
    }
}
