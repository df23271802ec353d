//! The Places Aggregate client against the simulator: counts and place ids for a
//! rectangle (sent as a polygon) and a circle, Google's errors parsed, retries.

use std::{collections::BTreeSet, net::SocketAddr, time::Duration};

use leadgen_core::{
    places::{AggregateArea, AggregateClient, AggregateQuery, PlacesError, RetryPolicy},
    search::{Area, tiling::LatLng},
};
use leadgen_testkit::places_sim::{City, FLAKY_MARKER, METRO_CITY, PlacesSim, Sku};

const KEY: &str = "AIzaSyCore0123456789abcdefghijklmnopqr";

async fn sim() -> (PlacesSim, AggregateClient) {
    leadgen_core::install_crypto_provider();
    let sim = PlacesSim::builder()
        .start(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("sim");
    let client = AggregateClient::new(&url::Url::parse(&sim.base_url).expect("url"))
        .expect("client")
        .with_retry(RetryPolicy {
            max_retries: 2,
            base_backoff: Duration::from_millis(5),
            max_wait: Duration::from_millis(20),
        });
    (sim, client)
}

fn city_area(city: &City) -> Area {
    let v = city.viewport;
    Area::rectangle(
        LatLng {
            lat: v.low.latitude,
            lng: v.low.longitude,
        },
        LatLng {
            lat: v.high.latitude,
            lng: v.high.longitude,
        },
    )
    .expect("a city's viewport is an area")
}

fn query<'a>(place_type: &'a str, area: &Area) -> AggregateQuery<'a> {
    AggregateQuery {
        place_type,
        area: AggregateArea::from(area),
        min_rating: None,
    }
}

#[tokio::test]
async fn a_rectangle_counts_every_place_of_the_type_open_or_closed_and_lists_their_ids() {
    let (sim, client) = sim().await;
    let city = sim
        .cities()
        .iter()
        .find(|c| c.name != METRO_CITY && (20..=100).contains(&sim.world().places_for(c.name, "dentist").len()))
        .expect("a city with 20 to 100 dentists");
    let truth: BTreeSet<String> = sim
        .world()
        .truth("dentist", &city.viewport, None)
        .into_iter()
        .map(|p| p.id)
        .collect();
    let area = city_area(city);
    let count = client.count(KEY, &query("dentist", &area)).await.expect("count");
    assert_eq!(
        count,
        truth.len() as u64,
        "every dentist of {}, closed ones too",
        city.name
    );
    let ids: BTreeSet<String> = client
        .place_ids(KEY, &query("dentist", &area))
        .await
        .expect("ids")
        .into_iter()
        .collect();
    assert_eq!(ids, truth, "bare ids, as Text Search gives them");
    let stats = sim.stats();
    assert_eq!(
        stats.billable(Sku::PlacesAggregate),
        2,
        "each call is one Places Aggregate request"
    );
    assert_eq!(stats.compute_insights_requests, 2);
    assert_eq!(stats.search_text_requests, 0);
}

#[tokio::test]
async fn a_circle_counts_what_lies_within_its_radius_and_a_rating_floor_narrows() {
    let (sim, client) = sim().await;
    let city = &sim.cities()[0];
    let c = city.viewport.center();
    let center = LatLng {
        lat: c.latitude,
        lng: c.longitude,
    };
    let area = Area::circle(center, 4_000.0).expect("circle");
    let dentists = sim.world().places_for(city.name, "dentist");
    let within = dentists.iter().filter(|p| p.location.distance_m(c) <= 4_000.0).count() as u64;
    assert!(
        within > 0 && within < dentists.len() as u64,
        "the circle holds some, not all"
    );
    assert_eq!(
        client.count(KEY, &query("dentist", &area)).await.expect("count"),
        within
    );
    let rated = AggregateQuery {
        min_rating: Some(4.5),
        ..query("dentist", &area)
    };
    let expected = dentists
        .iter()
        .filter(|p| p.location.distance_m(c) <= 4_000.0 && p.rating.is_some_and(|r| r >= 4.5))
        .count() as u64;
    assert_eq!(client.count(KEY, &rated).await.expect("count"), expected);
    assert!(expected < within);
}

#[tokio::test]
async fn google_errors_are_parsed_and_passing_failures_retried() {
    let (sim, client) = sim().await;
    let metro = sim.cities().iter().find(|c| c.name == METRO_CITY).expect("the metro");
    let area = city_area(metro);
    // More than 100: Google refuses INSIGHT_PLACES, but counts.
    let refused = client
        .place_ids(KEY, &query("dentist", &area))
        .await
        .expect_err("over 100");
    assert!(
        matches!(&refused, PlacesError::Upstream { status: 400, detail } if detail.contains("100")),
        "{refused:?}"
    );
    assert!(client.count(KEY, &query("dentist", &area)).await.expect("count") > 100);
    let not_table_a = client
        .count(KEY, &query("computer_phone_repair", &area))
        .await
        .expect_err("not a Google type");
    assert!(
        matches!(not_table_a, PlacesError::Upstream { status: 400, .. }),
        "{not_table_a:?}"
    );
    let bad_key = "AIzaSyINVALIDKEY0123456789abcdefghijkl";
    assert_eq!(
        client.count(bad_key, &query("dentist", &area)).await,
        Err(PlacesError::InvalidKey)
    );
    let billing = "AIzaSyBILLINGDISABLED0123456789abcdefg";
    assert_eq!(
        client.count(billing, &query("dentist", &area)).await,
        Err(PlacesError::BillingDisabled)
    );
    let flaky = format!("AIzaSy{FLAKY_MARKER}0123456789abcdefghijklmnop");
    assert!(client.count(&flaky, &query("dentist", &area)).await.expect("retried") > 100);
    assert_eq!(
        sim.stats().billable(Sku::PlacesAggregate),
        2,
        "the metro's count and the retried one; refusals are not billed"
    );
}
