//! The Places client against the simulator: pagination, field mask and SKU, retries.

use std::time::Duration;

use leadgen_core::{
    places::{PlacesError, RetryPolicy, SearchTextRequest},
    search::lead_from_place,
};
use leadgen_testkit::places_sim::{PlacesSim, Sku};

use crate::runner_doubles::simulator;

const KEY: &str = "AIzaSyCore0123456789abcdefghijklmnopqr";

fn request(city: &str) -> SearchTextRequest {
    SearchTextRequest {
        text_query: format!("Restaurant in {city}"),
        included_type: Some("restaurant".into()),
        page_size: 20,
        page_token: None,
        location_restriction: None,
        min_rating: None,
    }
}

#[tokio::test]
async fn three_pages_of_exactly_the_lead_fields_billed_as_enterprise() {
    let (sim, client) = simulator(PlacesSim::builder()).await;
    let city = sim.cities()[0].name.to_string();
    let mut req = request(&city);
    let mut leads = Vec::new();
    for page in 1..=3 {
        let answer = client.search_text(KEY, &req).await.expect("page");
        assert_eq!(answer.places.len(), 20, "page {page}");
        leads.extend(answer.places.into_iter().filter_map(lead_from_place));
        match answer.next_page_token {
            Some(token) => req.page_token = Some(token),
            None => assert_eq!(page, 3, "no token before the third page"),
        }
    }
    let expected = sim.expected_places(&format!("Restaurant in {city}"), Some("restaurant"));
    let ids: Vec<&str> = leads.iter().map(|l| l.place_id.as_str()).collect();
    let expected_ids: Vec<&str> = expected
        .iter()
        .take(60)
        .map(|p| p["id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, expected_ids);
    // Each lead carries its place's position (the mask's `places.location`, a Pro field:
    // the price stays Enterprise, asserted below).
    for (lead, place) in leads.iter().zip(&expected) {
        assert_eq!(
            (lead.latitude, lead.longitude),
            (
                place["location"]["latitude"].as_f64(),
                place["location"]["longitude"].as_f64()
            ),
            "{}",
            lead.name
        );
        assert!(lead.latitude.is_some());
    }
    let stats = sim.stats();
    assert_eq!(stats.billable(Sku::TextSearchEnterprise), 3);
    assert_eq!(
        stats.billable(Sku::TextSearchEnterpriseAtmosphere),
        0,
        "nothing pricier is asked for"
    );
}

#[tokio::test]
async fn a_503_is_retried_and_then_succeeds() {
    let (sim, client) = simulator(PlacesSim::builder()).await;
    let key = "AIzaSyCore_FLAKY_0123456789abcdefghijklm";
    let answer = client
        .search_text(key, &request("Austin"))
        .await
        .expect("second try succeeds");
    assert!(!answer.places.is_empty());
    assert_eq!(sim.stats().requests_for(key), 2);
}

#[tokio::test]
async fn time_outs_are_retried_a_bounded_number_of_times() {
    let (sim, client) = simulator(PlacesSim::builder().slow_delay(Duration::from_secs(2))).await;
    let client = client
        .with_timeout(Duration::from_millis(200))
        .expect("client")
        .with_retry(RetryPolicy {
            max_retries: 2,
            base_backoff: Duration::from_millis(10),
            max_wait: Duration::from_secs(1),
        });
    let key = "AIzaSyCore_SLOW_01234567890abcdefghijklmn";
    let err = client
        .search_text(key, &request("Austin"))
        .await
        .expect_err("times out");
    assert_eq!(err, PlacesError::Timeout);
    assert_eq!(sim.stats().requests_for(key), 3, "first try and two retries");
}

#[tokio::test]
async fn quota_errors_wait_for_google_s_retry_delay() {
    let (sim, client) = simulator(PlacesSim::builder()).await;
    let client = client.with_retry(RetryPolicy {
        max_retries: 1,
        base_backoff: Duration::from_millis(10),
        max_wait: Duration::from_secs(5),
    });
    let key = "AIzaSyCore_QUOTAZERO_0123456789abcdefghi";
    let started = std::time::Instant::now();
    let err = client.search_text(key, &request("Austin")).await.expect_err("quota");
    assert!(
        matches!(err, PlacesError::QuotaExhausted { retry_after: Some(_) }),
        "{err:?}"
    );
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "waited RetryInfo's 1 s before retrying"
    );
    assert_eq!(sim.stats().requests_for(key), 2);
    let invalid = "AIzaSyCore_INVALIDKEY_0123456789abcdefgh";
    assert_eq!(
        client
            .search_text(invalid, &request("Austin"))
            .await
            .expect_err("invalid"),
        PlacesError::InvalidKey
    );
    assert_eq!(sim.stats().requests_for(invalid), 1, "a refused key is not retried");
}

#[tokio::test]
async fn place_details_answers_one_place_with_the_lead_fields_billed_as_details_enterprise() {
    let (sim, client) = simulator(PlacesSim::builder()).await;
    let city = sim.cities()[0].name;
    let known = sim.world().places_for(city, "restaurant")[0].clone();
    let mask = leadgen_core::places::details_field_mask(leadgen_core::places::LEAD_FIELD_MASK);
    let place = client.place_details(KEY, &mask, &known.id).await.expect("details");
    let lead = lead_from_place(place).expect("a lead");
    assert_eq!(lead.place_id, known.id);
    assert_eq!(lead.name, known.display_name);
    assert_eq!(lead.phone, known.national_phone_number.unwrap_or_default());
    assert_eq!(
        (lead.latitude, lead.longitude),
        (Some(known.location.latitude), Some(known.location.longitude)),
        "the position comes by id too"
    );
    let stats = sim.stats();
    assert_eq!(stats.billable(Sku::PlaceDetailsEnterprise), 1, "{stats:?}");
    assert_eq!(stats.billable_requests, 1);

    let gone = client
        .place_details(KEY, &mask, "ChIJnotAPlaceOfThisWorld00")
        .await
        .expect_err("unknown");
    assert!(matches!(&gone, PlacesError::Upstream { status: 404, .. }), "{gone:?}");
    assert_eq!(sim.stats().place_details_requests, 2, "a 404 is not retried");
    let refused = client
        .place_details("AIzaSyINVALIDKEY0123456789abcdefghijklmn", &mask, &known.id)
        .await
        .expect_err("bad key");
    assert_eq!(refused, PlacesError::InvalidKey);
}
