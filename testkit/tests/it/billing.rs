//! Counting: billable requests by SKU, per-key request times, reset; in process and over
//! HTTP.

use std::time::Duration;

use leadgen_testkit::places_sim::{MAX_RESULTS, Sku};
use serde_json::json;

use crate::{
    http::{KEY, search, send},
    sim,
};

#[tokio::test]
async fn each_answer_is_billed_at_the_highest_sku_of_its_mask() {
    let sim = sim().await;
    let body = json!({"textQuery": "Lawyer in Philadelphia"});
    for (mask, times) in [
        ("places.id", 1),
        ("places.id,places.name,nextPageToken", 1),
        ("places.id,places.displayName,places.formattedAddress", 2),
        (
            "places.id,places.displayName,places.nationalPhoneNumber,places.websiteUri,places.rating",
            3,
        ),
        ("*", 1),
    ] {
        for _ in 0..times {
            assert_eq!(search(&sim.base_url, KEY, mask, &body).await.status, 200, "{mask}");
        }
    }
    // An empty answer is billed too; errors are not.
    assert_eq!(
        search(
            &sim.base_url,
            KEY,
            "places.id",
            &json!({"textQuery": "Lawyer in Atlantis"})
        )
        .await
        .body,
        json!({})
    );
    assert_eq!(search(&sim.base_url, KEY, "places.bogus", &body).await.status, 400);

    let stats = sim.stats();
    assert_eq!(stats.search_text_requests, 10);
    assert_eq!(stats.billable_requests, 9);
    assert_eq!(stats.billable(Sku::TextSearchEssentialsIdsOnly), 3);
    assert_eq!(stats.billable(Sku::TextSearchPro), 2);
    assert_eq!(stats.billable(Sku::TextSearchEnterprise), 3);
    assert_eq!(stats.billable(Sku::TextSearchEnterpriseAtmosphere), 1);

    let over_http = send(&sim.base_url, "GET", "/_sim/stats", &[], "").await;
    assert_eq!(over_http.status, 200);
    assert_eq!(over_http.body["searchTextRequests"], 10);
    assert_eq!(over_http.body["billableRequests"], 9);
    assert_eq!(
        over_http.body["billableBySku"],
        json!({
            "text_search_essentials_ids_only": 3,
            "text_search_pro": 2,
            "text_search_enterprise": 3,
            "text_search_enterprise_atmosphere": 1,
            "places_aggregate": 0,
            "place_details_essentials_ids_only": 0,
            "place_details_essentials": 0,
            "place_details_pro": 0,
            "place_details_enterprise": 0,
            "place_details_enterprise_atmosphere": 0,
        })
    );
    assert_eq!(over_http.body["requestsByKey"][KEY], 10);
    // List prices per 1,000: IDs Only free, Pro $32, Enterprise $35, Atmosphere $40.
    assert_eq!(
        over_http.body["costUsdBySku"],
        json!({
            "text_search_essentials_ids_only": 0.0,
            "text_search_pro": 0.064,
            "text_search_enterprise": 0.105,
            "text_search_enterprise_atmosphere": 0.04,
            "places_aggregate": 0.0,
            "place_details_essentials_ids_only": 0.0,
            "place_details_essentials": 0.0,
            "place_details_pro": 0.0,
            "place_details_enterprise": 0.0,
            "place_details_enterprise_atmosphere": 0.0,
        })
    );
    assert_eq!(over_http.body["costUsd"], json!(0.209));
    assert_eq!(stats.cost_usd.micros(), 209_000);
}

#[tokio::test]
async fn request_times_show_the_densest_second_and_reset_clears_everything() {
    let sim = sim().await;
    let body = json!({"textQuery": "Florist in Minneapolis"});
    for _ in 0..5 {
        search(&sim.base_url, KEY, "places.id", &body).await;
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    search(&sim.base_url, KEY, "places.id", &body).await;

    assert_eq!(sim.requests_for(KEY).len(), 6);
    assert_eq!(sim.max_requests_in_window(KEY, Duration::from_secs(1)), 5);
    assert_eq!(sim.max_requests_in_window(KEY, Duration::from_secs(10)), 6);
    assert_eq!(
        sim.max_requests_in_window("AIzaSyA_nobody_0123456789abcdefghijklm", Duration::from_secs(1)),
        0
    );

    let over_http = send(&sim.base_url, "GET", &format!("/_sim/requests?key={KEY}"), &[], "").await;
    assert_eq!(over_http.status, 200);
    assert_eq!(over_http.body["key"], KEY);
    let millis: Vec<u64> = over_http.body["timestampsMs"]
        .as_array()
        .map(|a| a.iter().filter_map(|v| v.as_u64()).collect())
        .unwrap_or_default();
    assert_eq!(millis.len(), 6);
    assert!(millis.windows(2).all(|w| w[0] <= w[1]));
    assert!(millis[5] - millis[4] >= 1000);
    assert_eq!(send(&sim.base_url, "GET", "/_sim/requests", &[], "").await.status, 400);

    let reset = send(&sim.base_url, "POST", "/_sim/reset", &[], "").await;
    assert_eq!(reset.status, 204);
    let stats = sim.stats();
    assert_eq!((stats.search_text_requests, stats.billable_requests), (0, 0));
    assert!(stats.requests_by_key.is_empty());
    assert!(sim.requests_for(KEY).is_empty());
}

#[tokio::test]
async fn the_world_is_readable_for_tests_and_over_http() {
    let sim = sim().await;
    assert!(sim.cities().len() >= 12);
    let austin = sim.world().city("Austin").expect("Austin");
    assert!(austin.viewport.low.latitude < austin.viewport.high.latitude);
    let expected = sim.expected_places("Plumber in Austin", None);
    assert!(!expected.is_empty() && expected.len() <= MAX_RESULTS);
    assert!(expected.iter().all(|p| p["primaryType"] == "plumber"));

    let cities = send(&sim.base_url, "GET", "/_sim/cities", &[], "").await;
    assert_eq!(cities.status, 200);
    let list = cities.body.as_array().cloned().unwrap_or_default();
    assert_eq!(list.len(), sim.cities().len());
    assert_eq!(list[0]["name"], "Austin");
    assert!(list[0]["viewport"]["low"]["latitude"].is_f64());
    assert_eq!(list[0]["zipCodes"].as_array().map(Vec::len), Some(8));
}
