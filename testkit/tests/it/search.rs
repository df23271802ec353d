//! Search answers: masking, pagination, type and region filters, determinism.

use std::collections::HashSet;

use leadgen_testkit::places_sim::{LatLng, PlacesSim, Viewport};
use serde_json::{Value, json};

use crate::{
    any_port,
    http::{KEY, Reply, search},
    sim,
};

const PAGED: &str = "places.id,places.displayName,nextPageToken";

fn ids(places: &[Value]) -> Vec<String> {
    places
        .iter()
        .map(|p| p["id"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn keys(place: &Value) -> HashSet<String> {
    place
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

fn rect_json(v: &Viewport) -> Value {
    json!({"rectangle": v})
}

#[tokio::test]
async fn only_masked_fields_come_back() {
    let sim = sim().await;
    let body = json!({"textQuery": "Restaurant in Austin, TX"});

    let reply = search(&sim.base_url, KEY, "places.id,places.displayName", &body).await;
    assert_eq!(reply.status, 200);
    let expected: HashSet<String> = ["id", "displayName"].map(String::from).into();
    assert!(reply.places().iter().all(|p| keys(p) == expected), "{}", reply.body);
    assert!(reply.next_page_token().is_none(), "nextPageToken only when masked");
    assert_eq!(reply.places()[0]["displayName"]["languageCode"], "en");

    let nested = search(
        &sim.base_url,
        KEY,
        "places.displayName.text,places.location.latitude",
        &body,
    )
    .await;
    assert_eq!(
        nested.places()[0].as_object().map(|o| o.len()),
        Some(2),
        "{}",
        nested.places()[0]
    );
    assert!(nested.places()[0]["displayName"].get("languageCode").is_none());
    assert!(nested.places()[0]["location"].get("longitude").is_none());

    let everything = search(&sim.base_url, KEY, "*", &body).await;
    let first = &everything.places()[0];
    for field in [
        "id",
        "name",
        "displayName",
        "formattedAddress",
        "location",
        "types",
        "primaryType",
        "businessStatus",
        "googleMapsUri",
    ] {
        assert!(first.get(field).is_some(), "{field} in {first}");
    }
    assert_eq!(
        first["name"],
        format!("places/{}", first["id"].as_str().unwrap_or_default())
    );
    assert!(everything.next_page_token().is_some());

    // A place without a website comes back without the field.
    let websites = search(&sim.base_url, KEY, "places.websiteUri", &body).await;
    assert!(websites.places().iter().any(|p| keys(p).is_empty()));
    assert!(websites.places().iter().any(|p| p["websiteUri"].is_string()));
}

#[tokio::test]
async fn three_pages_of_twenty_then_no_token() {
    let sim = sim().await;
    let query = "Restaurant in Austin, TX";
    let expected = sim.expected_places(query, Some("restaurant"));
    assert_eq!(expected.len(), 60, "Austin has at least 60 restaurants");
    assert!(
        sim.world().places_for("Austin", "restaurant").len() > 60,
        "more exist than Google returns"
    );

    let mut body = json!({"textQuery": query, "includedType": "restaurant", "pageSize": 20});
    let mut seen = Vec::new();
    for page in 1..=3 {
        let reply = search(&sim.base_url, KEY, PAGED, &body).await;
        assert_eq!(reply.status, 200, "page {page}: {}", reply.body);
        assert_eq!(reply.places().len(), 20, "page {page}");
        seen.extend(ids(&reply.places()));
        match (page, reply.next_page_token()) {
            (3, token) => assert_eq!(token, None, "no token after 60 places"),
            (_, Some(token)) => {
                assert!(token.len() >= 32 && token.parse::<u64>().is_err(), "opaque: {token}");
                body["pageToken"] = json!(token);
            }
            (_, None) => panic!("page {page} has no token"),
        }
    }
    assert_eq!(seen, ids(&expected), "pages follow the world's ranking");
    assert_eq!(seen.iter().collect::<HashSet<_>>().len(), 60, "no place twice");
}

#[tokio::test]
async fn page_size_can_change_between_pages_but_nothing_else() {
    let sim = sim().await;
    let first = search(
        &sim.base_url,
        KEY,
        PAGED,
        &json!({"textQuery": "Restaurant in Denver", "pageSize": 7}),
    )
    .await;
    assert_eq!(first.places().len(), 7);
    let token = first.next_page_token().expect("token");

    let smaller = search(
        &sim.base_url,
        KEY,
        PAGED,
        &json!({"textQuery": "Restaurant in Denver", "pageSize": 50, "pageToken": token}),
    )
    .await;
    assert_eq!(smaller.status, 200);
    assert_eq!(smaller.places().len(), 20, "values above 20 are set to 20");
    let expected = sim.expected_places("Restaurant in Denver", None);
    assert_eq!(ids(&smaller.places()), ids(&expected[7..27]));

    for changed in [
        json!({"textQuery": "Restaurant in Boston", "pageToken": token}),
        json!({"textQuery": "Restaurant in Denver", "includedType": "restaurant", "pageToken": token}),
        json!({"textQuery": "Restaurant in Denver", "minRating": 4.0, "pageToken": token}),
    ] {
        let reply = search(&sim.base_url, KEY, PAGED, &changed).await;
        assert_eq!(
            (reply.status, reply.error_status()),
            (400, "INVALID_ARGUMENT"),
            "{changed}"
        );
    }
    let forged = search(
        &sim.base_url,
        KEY,
        PAGED,
        &json!({"textQuery": "Restaurant in Denver", "pageToken": "AQAUqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"}),
    )
    .await;
    assert_eq!((forged.status, forged.error_status()), (400, "INVALID_ARGUMENT"));
}

#[tokio::test]
async fn included_type_filters_and_text_names_the_type_without_it() {
    let sim = sim().await;
    let cafes = search(
        &sim.base_url,
        KEY,
        "places.primaryType,places.types",
        &json!({"textQuery": "Restaurant in Seattle", "includedType": "cafe"}),
    )
    .await;
    assert!(!cafes.places().is_empty());
    assert!(
        cafes.places().iter().all(|p| p["primaryType"] == "cafe"),
        "{}",
        cafes.body
    );

    let stores = search(
        &sim.base_url,
        KEY,
        "places.primaryType,places.types",
        &json!({"textQuery": "Store in Seattle", "includedType": "store"}),
    )
    .await;
    let primaries: HashSet<String> = stores
        .places()
        .iter()
        .filter_map(|p| p["primaryType"].as_str().map(str::to_owned))
        .collect();
    assert!(primaries.contains("store"));
    assert!(
        stores
            .places()
            .iter()
            .all(|p| p["types"].as_array().is_some_and(|t| t.contains(&json!("store"))))
    );

    // No includedType: the words of the query name the type (the client's Table B path).
    let by_text = search(
        &sim.base_url,
        KEY,
        "places.primaryType",
        &json!({"textQuery": "Restaurants in Seattle"}),
    )
    .await;
    assert_eq!(by_text.places().len(), 20);
    assert!(by_text.places().iter().all(|p| p["primaryType"] == "restaurant"));
    let health = search(
        &sim.base_url,
        KEY,
        "places.types",
        &json!({"textQuery": "Health in Seattle"}),
    )
    .await;
    assert!(
        health
            .places()
            .iter()
            .all(|p| p["types"].as_array().is_some_and(|t| t.contains(&json!("health"))))
    );

    // A valid Table A type the world has none of.
    let museums = search(
        &sim.base_url,
        KEY,
        "places.id",
        &json!({"textQuery": "Museum in Seattle", "includedType": "museum"}),
    )
    .await;
    assert_eq!((museums.status, museums.body.clone()), (200, json!({})));
}

#[tokio::test]
async fn no_results_is_an_empty_object() {
    let sim = sim().await;
    for body in [
        json!({"textQuery": "Restaurant in Atlantis"}),
        json!({"textQuery": "Restaurant in Portland, ME"}),
        json!({"textQuery": "Unicorn groomers in Austin"}),
    ] {
        let reply: Reply = search(&sim.base_url, KEY, PAGED, &body).await;
        assert_eq!(reply.status, 200, "{body}");
        assert_eq!(reply.body, json!({}), "{body}");
    }
    // ZIP codes and regions narrow or place the search.
    let zip = search(
        &sim.base_url,
        KEY,
        "places.formattedAddress",
        &json!({"textQuery": "Dentist in 80205"}),
    )
    .await;
    assert!(!zip.places().is_empty());
    assert!(zip.places().iter().all(|p| {
        p["formattedAddress"]
            .as_str()
            .is_some_and(|a| a.ends_with("Denver, CO 80205, USA"))
    }));
}

#[tokio::test]
async fn rectangle_restriction_filters_and_bias_ranks() {
    let sim = sim().await;
    let chicago = sim.world().city("Chicago").expect("Chicago").viewport;
    let north = Viewport::new(LatLng::new(41.85, chicago.low.longitude), chicago.high);
    let restricted = search(
        &sim.base_url,
        KEY,
        "places.location,nextPageToken",
        &json!({"textQuery": "Restaurant", "locationRestriction": rect_json(&north)}),
    )
    .await;
    assert_eq!(restricted.status, 200, "{}", restricted.body);
    assert!(!restricted.places().is_empty());
    assert!(
        restricted
            .places()
            .iter()
            .all(|p| p["location"]["latitude"].as_f64().is_some_and(|lat| lat >= 41.85))
    );

    // A restriction over Denver finds nothing named in Chicago.
    let denver = sim.world().city("Denver").expect("Denver").viewport;
    let elsewhere = search(
        &sim.base_url,
        KEY,
        "places.id",
        &json!({"textQuery": "Restaurant in Chicago", "locationRestriction": rect_json(&denver)}),
    )
    .await;
    assert_eq!(elsewhere.body, json!({}));

    let small = Viewport::new(LatLng::new(41.86, -87.68), LatLng::new(41.92, -87.60));
    let biased = search(
        &sim.base_url,
        KEY,
        "places.location",
        &json!({"textQuery": "Restaurant", "locationBias": rect_json(&small), "pageSize": 20}),
    )
    .await;
    let inside: Vec<bool> = biased
        .places()
        .iter()
        .map(|p| {
            small.contains(LatLng::new(
                p["location"]["latitude"].as_f64().unwrap_or_default(),
                p["location"]["longitude"].as_f64().unwrap_or_default(),
            ))
        })
        .collect();
    assert!(inside[0], "the bias area comes first");
    assert!(
        inside.windows(2).all(|w| w[0] || !w[1]),
        "no inside place after an outside one"
    );

    let both = search(
        &sim.base_url,
        KEY,
        "places.id",
        &json!({"textQuery": "Restaurant", "locationBias": rect_json(&small), "locationRestriction": rect_json(&north)}),
    )
    .await;
    assert_eq!((both.status, both.error_status()), (400, "INVALID_ARGUMENT"));
}

#[tokio::test]
async fn the_same_seed_gives_the_same_answers() {
    let a = PlacesSim::builder().seed(9).start(any_port()).await.expect("sim");
    let b = PlacesSim::builder().seed(9).start(any_port()).await.expect("sim");
    let c = PlacesSim::builder().seed(10).start(any_port()).await.expect("sim");
    let body = json!({"textQuery": "Dentist in Nashville, TN"});
    let mask = "places.id,places.displayName,places.nationalPhoneNumber,nextPageToken";
    let (ra, rb, rc) = (
        search(&a.base_url, KEY, mask, &body).await,
        search(&b.base_url, KEY, mask, &body).await,
        search(&c.base_url, KEY, mask, &body).await,
    );
    assert_eq!(ra.status, 200);
    assert_eq!(ra.body, rb.body, "same seed, same request: same answer, token included");
    assert_ne!(ids(&ra.places()), ids(&rc.places()), "another seed, another world");
    let token = ra.next_page_token().expect("token");
    let next = search(
        &b.base_url,
        KEY,
        mask,
        &json!({"textQuery": "Dentist in Nashville, TN", "pageToken": token}),
    )
    .await;
    assert_eq!(next.status, 200, "a token works on a simulator with the same seed");
}
