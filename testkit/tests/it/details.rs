//! `GET /v1/places/{placeId}` (Place Details) over HTTP: the place with the mask applied
//! (no `places.` prefix), Google's errors, and billing by its own SKUs.

use leadgen_testkit::places_sim::{PlacesSim, Sku};
use serde_json::json;

use crate::{
    any_port,
    http::{KEY, Reply, send},
    sim,
};

const LEAD_MASK: &str = "id,displayName,formattedAddress,nationalPhoneNumber,websiteUri,rating,userRatingCount,\
addressComponents,primaryTypeDisplayName,googleMapsUri";

async fn details(base_url: &str, key: &str, mask: Option<&str>, id: &str) -> Reply {
    let mut headers = vec![("X-Goog-Api-Key", key)];
    if let Some(mask) = mask {
        headers.push(("X-Goog-FieldMask", mask));
    }
    send(base_url, "GET", &format!("/v1/places/{id}"), &headers, "").await
}

#[tokio::test]
async fn answers_the_place_with_the_mask_and_bills_place_details() {
    let sim = sim().await;
    let city = &sim.cities()[0];
    let place = sim.world().places_for(city.name, "dentist")[0].clone();

    let lead = details(&sim.base_url, KEY, Some(LEAD_MASK), &place.id).await;
    assert_eq!(lead.status, 200, "{:?}", lead.body);
    assert_eq!(lead.body["id"], json!(place.id), "one Place object, not a list");
    assert_eq!(lead.body["displayName"]["text"], json!(place.display_name));
    assert!(lead.body.get("places").is_none());
    assert!(lead.body.get("location").is_none(), "only what the mask names");
    assert!(lead.body.get("types").is_none());

    let ids = details(&sim.base_url, KEY, Some("id"), &place.id).await;
    assert_eq!(ids.body, json!({"id": place.id}));
    let located = send(
        &sim.base_url,
        "GET",
        &format!(
            "/v1/places/{}?fields=location&key={KEY}&languageCode=en&regionCode=US",
            place.id
        ),
        &[],
        "",
    )
    .await;
    assert_eq!(located.status, 200, "{:?}", located.body);
    assert_eq!(located.body, json!({"location": place.location}));

    let stats = sim.stats();
    assert_eq!(stats.place_details_requests, 3);
    assert_eq!(stats.search_text_requests, 0, "not a Text Search");
    assert_eq!(stats.billable(Sku::PlaceDetailsEnterprise), 1);
    assert_eq!(stats.billable(Sku::PlaceDetailsEssentialsIdsOnly), 1);
    assert_eq!(stats.billable(Sku::PlaceDetailsEssentials), 1);
    assert_eq!(
        stats.cost(Sku::PlaceDetailsEnterprise).micros(),
        20_000,
        "$20 per 1,000"
    );
    assert_eq!(stats.requests_for(KEY), 3, "the key's requests count them");
}

#[tokio::test]
async fn refuses_as_google_does() {
    let sim = sim().await;
    let id = sim.world().places_for(sim.cities()[0].name, "florist")[0].id.clone();

    let unknown = details(&sim.base_url, KEY, Some("id"), "ChIJnotAPlaceOfThisWorld00").await;
    assert_eq!(unknown.status, 404);
    assert_eq!(unknown.error_status(), "NOT_FOUND");

    let no_mask = details(&sim.base_url, KEY, None, &id).await;
    assert_eq!(no_mask.status, 400);
    assert_eq!(no_mask.error_status(), "INVALID_ARGUMENT");
    assert!(no_mask.error_message().contains("FieldMask"), "{:?}", no_mask.body);

    let prefixed = details(&sim.base_url, KEY, Some("places.id"), &id).await;
    assert_eq!(prefixed.status, 400, "Place Details masks have no places. prefix");
    assert!(
        prefixed.body.to_string().contains("path 'places.id'"),
        "{:?}",
        prefixed.body
    );

    let no_key = send(
        &sim.base_url,
        "GET",
        &format!("/v1/places/{id}"),
        &[("X-Goog-FieldMask", "id")],
        "",
    )
    .await;
    assert_eq!(no_key.status, 403);
    let bad_key = details(
        &sim.base_url,
        "AIzaSyINVALIDKEY0123456789abcdefghijklmn",
        Some("id"),
        &id,
    )
    .await;
    assert_eq!(bad_key.status, 400);

    let stats = sim.stats();
    assert_eq!(stats.billable_requests, 0, "no error is billed");
    assert_eq!(stats.place_details_requests, 5);

    let faulty = PlacesSim::builder()
        .fault_rate(1.0)
        .start(any_port())
        .await
        .expect("sim");
    let failed = details(&faulty.base_url, KEY, Some("id"), &id).await;
    assert_eq!(failed.status, 503, "fault injection as for Text Search");
}
