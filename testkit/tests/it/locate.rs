//! Locating what a user typed: a text query naming only a city or a ZIP code answers
//! that area as one place, with its viewport, billed as Text Search Pro.

use std::collections::HashSet;

use leadgen_testkit::places_sim::Sku;
use serde_json::{Value, json};

use crate::{
    http::{KEY, search},
    sim,
};

/// The mask Leadgen sends to locate an area.
const LOCATE_MASK: &str = "places.id,places.displayName,places.formattedAddress,places.viewport,places.location";

fn keys(place: &Value) -> HashSet<String> {
    place
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_city_answers_as_a_locality_with_its_viewport() {
    let sim = sim().await;
    let reply = search(
        &sim.base_url,
        KEY,
        LOCATE_MASK,
        &json!({"textQuery": "Austin, TX", "pageSize": 1}),
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let places = reply.places();
    assert_eq!(places.len(), 1, "{}", reply.body);
    let austin = &places[0];
    let expected_keys: HashSet<String> = ["id", "displayName", "formattedAddress", "viewport", "location"]
        .map(String::from)
        .into();
    assert_eq!(keys(austin), expected_keys);
    assert_eq!(austin["displayName"], json!({"text": "Austin", "languageCode": "en"}));
    assert_eq!(austin["formattedAddress"], "Austin, TX, USA");
    assert_eq!(
        austin["viewport"],
        json!({"low": {"latitude": 30.10, "longitude": -97.94}, "high": {"latitude": 30.52, "longitude": -97.56}})
    );
    assert_eq!(
        austin["location"],
        json!({"latitude": 30.31, "longitude": -97.75}),
        "the centre"
    );
    assert!(austin["id"].as_str().is_some_and(|id| id.starts_with("ChIJ")));
    assert!(reply.next_page_token().is_none() && reply.body.get("nextPageToken").is_none());

    let everything = search(&sim.base_url, KEY, "*", &json!({"textQuery": "houston"})).await;
    let houston = &everything.places()[0];
    assert_eq!(everything.places().len(), 1);
    assert_eq!(houston["types"], json!(["locality", "political"]));
    assert_eq!(houston["primaryType"], "locality");
    assert_eq!(houston["formattedAddress"], "Houston, TX, USA");
    assert_eq!(
        houston["viewport"],
        json!(sim.world().city("Houston").expect("Houston").viewport)
    );
    assert!(houston.get("businessStatus").is_none(), "an area is no business");

    let stats = sim.stats();
    assert_eq!(stats.billable(Sku::TextSearchPro), 1, "the locate mask is Pro");
    assert_eq!(
        stats.billable(Sku::TextSearchEnterpriseAtmosphere),
        1,
        "* is everything"
    );
}

#[tokio::test]
async fn a_zip_code_answers_as_a_postal_code_with_its_framed_cell() {
    let sim = sim().await;
    let austin = sim.world().city("Austin").expect("Austin");
    let cell = austin.zip_viewport("78704").expect("78704 is Austin's");
    // Its viewport frames the cell with a tenth of it each side, reaching into the
    // neighbouring codes as a real one does.
    let (dlat, dlng) = (
        (cell.high.latitude - cell.low.latitude) / 10.0,
        (cell.high.longitude - cell.low.longitude) / 10.0,
    );
    let viewport = leadgen_testkit::places_sim::Viewport::new(
        leadgen_testkit::places_sim::LatLng::new(cell.low.latitude - dlat, cell.low.longitude - dlng),
        leadgen_testkit::places_sim::LatLng::new(cell.high.latitude + dlat, cell.high.longitude + dlng),
    );
    let near = |value: &Value, expected: f64| value.as_f64().is_some_and(|v| (v - expected).abs() < 1e-9);
    for text in ["78704", "Austin, TX 78704"] {
        let reply = search(
            &sim.base_url,
            KEY,
            &format!("{LOCATE_MASK},places.types,places.primaryType"),
            &json!({"textQuery": text, "pageSize": 1}),
        )
        .await;
        assert_eq!(reply.places().len(), 1, "{text}: {}", reply.body);
        let zip = &reply.places()[0];
        assert_eq!(zip["formattedAddress"], "Austin, TX 78704, USA", "{text}");
        assert_eq!(zip["displayName"]["text"], "78704");
        assert_eq!(zip["types"], json!(["postal_code"]));
        assert_eq!(zip["primaryType"], "postal_code");
        for (corner, expected) in [("low", viewport.low), ("high", viewport.high)] {
            assert!(near(&zip["viewport"][corner]["latitude"], expected.latitude), "{zip}");
            assert!(near(&zip["viewport"][corner]["longitude"], expected.longitude), "{zip}");
        }
        assert!(near(&zip["location"]["latitude"], cell.center().latitude), "{zip}");
        assert!(near(&zip["location"]["longitude"], cell.center().longitude), "{zip}");
    }
}

#[tokio::test]
async fn a_place_it_cannot_locate_answers_empty() {
    let sim = sim().await;
    for text in ["Atlantis", "Portland, ME", "99999", "Denver, TX"] {
        let reply = search(
            &sim.base_url,
            KEY,
            LOCATE_MASK,
            &json!({"textQuery": text, "pageSize": 1}),
        )
        .await;
        assert_eq!((reply.status, reply.body.clone()), (200, json!({})), "{text}");
    }
    // A business type in the text makes it a business search, not a locate.
    let dentists = search(
        &sim.base_url,
        KEY,
        "places.primaryType",
        &json!({"textQuery": "Dentist in Austin, TX", "pageSize": 1}),
    )
    .await;
    assert_eq!(dentists.places()[0]["primaryType"], "dentist");
}

#[tokio::test]
async fn businesses_carry_a_small_viewport_and_ids_only_is_essentials() {
    let sim = sim().await;
    let body = json!({"textQuery": "Dentist in Houston"});
    let reply = search(&sim.base_url, KEY, "places.location,places.viewport", &body).await;
    assert_eq!(reply.places().len(), 20);
    for place in reply.places() {
        let (lat, lng) = (
            place["location"]["latitude"].as_f64().unwrap_or(f64::NAN),
            place["location"]["longitude"].as_f64().unwrap_or(f64::NAN),
        );
        let low = &place["viewport"]["low"];
        let high = &place["viewport"]["high"];
        let (south, west, north, east) = (
            low["latitude"].as_f64().unwrap_or(f64::NAN),
            low["longitude"].as_f64().unwrap_or(f64::NAN),
            high["latitude"].as_f64().unwrap_or(f64::NAN),
            high["longitude"].as_f64().unwrap_or(f64::NAN),
        );
        assert!(south < lat && lat < north && west < lng && lng < east, "{place}");
        assert!(
            north - south < 0.005 && east - west < 0.005,
            "a few hundred metres: {place}"
        );
    }

    let ids_only = search(&sim.base_url, KEY, "places.id,nextPageToken", &body).await;
    assert_eq!(ids_only.places().len(), 20);
    assert!(ids_only.next_page_token().is_some());
    let stats = sim.stats();
    assert_eq!(stats.billable(Sku::TextSearchPro), 1);
    assert_eq!(stats.billable(Sku::TextSearchEssentialsIdsOnly), 1);
    assert_eq!(
        Sku::TextSearchEssentialsIdsOnly.display_name(),
        "Text Search Essentials (IDs Only)"
    );
    assert_eq!(stats.cost(Sku::TextSearchEssentialsIdsOnly).micros(), 0);
    assert_eq!(stats.cost_usd.dollars(), 0.032, "one Pro request at $32 per 1,000");
}
