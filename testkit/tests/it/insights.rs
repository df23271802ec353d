//! `POST /v1:computeInsights` over HTTP: Google's answer shapes and error envelopes, the
//! key checks, and billing apart from Text Search.

use leadgen_testkit::places_sim::Sku;
use serde_json::{Value, json};

use crate::{
    http::{KEY, Reply, send},
    sim,
};

async fn insights(base_url: &str, key: &str, body: &Value) -> Reply {
    let headers: Vec<(&str, &str)> = if key.is_empty() {
        vec![]
    } else {
        vec![("X-Goog-Api-Key", key)]
    };
    send(base_url, "POST", "/v1:computeInsights", &headers, &body.to_string()).await
}

#[tokio::test]
async fn counts_as_an_int64_string_and_refuses_bad_requests_in_googles_shape() {
    let sim = sim().await;
    let city = &sim.cities()[0];
    let v = city.viewport;
    let corner = |lat: f64, lng: f64| json!({"latitude": lat, "longitude": lng});
    let ring = json!([
        corner(v.low.latitude, v.low.longitude),
        corner(v.low.latitude, v.high.longitude),
        corner(v.high.latitude, v.high.longitude),
        corner(v.high.latitude, v.low.longitude),
        corner(v.low.latitude, v.low.longitude),
    ]);
    let all = json!([
        "OPERATING_STATUS_OPERATIONAL",
        "OPERATING_STATUS_TEMPORARILY_CLOSED",
        "OPERATING_STATUS_PERMANENTLY_CLOSED"
    ]);
    let body = json!({"insights": ["INSIGHT_COUNT"], "filter": {
        "locationFilter": {"customArea": {"polygon": {"coordinates": ring}}},
        "typeFilter": {"includedTypes": ["florist"]},
        "operatingStatus": all,
    }});
    let counted = insights(&sim.base_url, KEY, &body).await;
    assert_eq!(counted.status, 200, "{:?}", counted.body);
    let truth = sim.world().truth("florist", &v, None).len();
    assert_eq!(
        counted.body,
        json!({"count": truth.to_string()}),
        "an int64 is a JSON string"
    );

    // The same ring backwards is clockwise.
    let mut reversed = ring.as_array().expect("ring").clone();
    reversed.reverse();
    let mut clockwise = body.clone();
    clockwise["filter"]["locationFilter"]["customArea"]["polygon"]["coordinates"] = Value::Array(reversed);
    let refused = insights(&sim.base_url, KEY, &clockwise).await;
    assert_eq!(refused.status, 400);
    assert_eq!(refused.error_status(), "INVALID_ARGUMENT");
    assert!(
        refused.error_message().contains("counterclockwise"),
        "{:?}",
        refused.body
    );
    assert_eq!(refused.body["error"]["code"], 400);

    let no_filter = insights(&sim.base_url, KEY, &json!({"insights": ["INSIGHT_COUNT"]})).await;
    assert_eq!((no_filter.status, no_filter.error_status()), (400, "INVALID_ARGUMENT"));
    let missing_key = insights(&sim.base_url, "", &body).await;
    assert_eq!(
        (missing_key.status, missing_key.error_status()),
        (403, "PERMISSION_DENIED")
    );
    let invalid_key = insights(&sim.base_url, "AIzaSyINVALIDKEY0123456789abcdefghijkl", &body).await;
    assert_eq!(invalid_key.status, 400);
    assert_eq!(invalid_key.body["error"]["details"][0]["reason"], "API_KEY_INVALID");

    let stats = sim.stats();
    assert_eq!(stats.compute_insights_requests, 5, "every call, whatever the answer");
    assert_eq!(
        stats.billable(Sku::PlacesAggregate),
        1,
        "only the answered one is billed"
    );
    assert_eq!(stats.search_text_requests, 0, "Text Search's counters are apart");
    assert_eq!(stats.cost(Sku::PlacesAggregate).micros(), 10_000, "a cent a call");
}
