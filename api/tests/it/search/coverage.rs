//! Groundwork of full coverage (#11): the tiling planner drives real IDs-only probes with
//! `locationRestriction` rectangles through the Places client against the simulator, and
//! finds every place of a type in a city, for free, and a fetch plan near the floor.

use std::collections::BTreeSet;

use leadgen_core::{
    places::{PlacesClient, SearchTextRequest},
    search::tiling::{LatLng, Planner, ProbeQueue, Rect},
};
use leadgen_testkit::places_sim::{PlacesSim, Sku};

use super::env::KEY;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_planner_finds_every_place_in_a_city_with_free_probes() {
    leadgen_core::install_crypto_provider();
    let sim = PlacesSim::builder()
        .start(std::net::SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("sim");
    let client = PlacesClient::new(&url::Url::parse(&sim.base_url).expect("url")).expect("client");
    // A city whose restaurants overflow one query's 60.
    let city = sim
        .cities()
        .iter()
        .find(|c| sim.world().places_for(c.name, "restaurant").len() > 60)
        .expect("a city with more than 60 restaurants");
    let truth: BTreeSet<String> = sim
        .world()
        .places_for(city.name, "restaurant")
        .into_iter()
        .map(|p| p.id)
        .collect();
    let v = city.viewport;
    let mut planner = Planner::new(Rect {
        low: LatLng {
            lat: v.low.latitude,
            lng: v.low.longitude,
        },
        high: LatLng {
            lat: v.high.latitude,
            lng: v.high.longitude,
        },
    });
    while !planner.is_done() {
        let batch: Vec<_> = std::iter::from_fn(|| planner.next_probe()).collect();
        let probes = futures_util::future::join_all(batch.into_iter().map(|(id, rect)| {
            let client = client.clone();
            let request = SearchTextRequest {
                text_query: format!("Restaurant in {}", city.name),
                included_type: Some("restaurant".into()),
                page_size: 20,
                page_token: None,
                location_restriction: Some(rect.into()),
                min_rating: None,
            };
            async move { (id, client.probe_ids(KEY, &request).await.expect("probe")) }
        }))
        .await;
        for (id, ids) in probes {
            planner.record(id, leadgen_core::search::tiling::Probe { ids });
        }
    }
    assert_eq!(
        planner.found(),
        truth,
        "every restaurant of {}, none from elsewhere",
        city.name
    );
    let stats = sim.stats();
    assert!(
        stats.billable(Sku::TextSearchEssentialsIdsOnly) > 1,
        "probes ran with the IDs-only mask"
    );
    assert_eq!(
        stats.billable(Sku::TextSearchEnterprise) + stats.billable(Sku::TextSearchPro),
        0,
        "probing costs nothing"
    );
    let requests: usize = planner.fetch_plan().iter().map(|f| f.requests()).sum();
    let floor = truth.len().div_ceil(20);
    assert!(
        requests <= floor + 2,
        "{} places: {requests} fetch requests planned against a floor of {floor}",
        truth.len()
    );
}
