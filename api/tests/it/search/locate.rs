//! `POST /api/leads/locate` (#30 item 5): the rectangle the web app's map opens on. Its
//! input is checked, a location is located once (one Pro request on the caller's key)
//! and then answered from the shared cache for nothing, with no key needed.

use leadgen_testkit::places_sim::{PlacesSim, Sku};
use serde_json::json;

use super::env::{Mode, SearchEnv};

#[tokio::test]
async fn a_location_is_located_once_then_from_the_cache_and_bad_input_is_refused() {
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder(), 0, vec![]).await;
    let houston = env.sim.world().city("Houston").expect("Houston").viewport;
    let locate = |location: serde_json::Value, token: Option<String>| {
        let app = &env.app;
        async move {
            app.post(
                "/api/leads/locate",
                token.as_deref(),
                Some(json!({"location": location})),
            )
            .await
        }
    };
    let me = Some(env.token.clone());

    let (status, body) = locate(json!("Houston, TX"), me.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["location"], "Houston, TX");
    assert_eq!(
        (&body["low"], &body["high"]),
        (
            &json!({"latitude": houston.low.latitude, "longitude": houston.low.longitude}),
            &json!({"latitude": houston.high.latitude, "longitude": houston.high.longitude})
        )
    );
    assert_eq!(body["spent"]["requests"]["pro"], 1);
    assert!(body["spent"]["costUsd"].as_f64().expect("cost") > 0.0, "{body}");
    assert_eq!(env.sim.stats().billable(Sku::TextSearchPro), 1);

    // The same place written another way: from the cache, for nothing.
    let (status, again) = locate(json!("  houston,  tx "), me.clone()).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!((&again["low"], &again["high"]), (&body["low"], &body["high"]));
    assert_eq!(again["location"], "houston,  tx");
    assert_eq!(
        (&again["spent"]["requests"]["pro"], &again["spent"]["costUsd"]),
        (&json!(0), &json!(0.0))
    );
    assert_eq!(env.sim.stats().billable(Sku::TextSearchPro), 1, "no second request");

    // A workspace without a key: a cached location still answers, a new one cannot.
    let (_, keyless) = env.app.sign_in("no-key-yet").await;
    let (status, cached) = locate(json!("Houston, TX"), Some(keyless.clone())).await;
    assert_eq!(status, 200, "{cached}");
    let (status, refused) = locate(json!("Austin, TX"), Some(keyless)).await;
    assert_eq!((status, &refused["error"]), (400, &json!("no_api_key")), "{refused}");

    // A postcode district is shown as Google frames it.
    let (status, district) = locate(json!("London SW1A, UK"), me.clone()).await;
    assert_eq!(status, 200, "{district}");
    assert_eq!(district["low"], json!({"latitude": 51.476, "longitude": -0.164}));

    let (status, unknown) = locate(json!("Atlantis"), me.clone()).await;
    assert_eq!(
        (status, &unknown["error"]),
        (400, &json!("invalid_location")),
        "{unknown}"
    );
    assert!(
        unknown["message"].as_str().expect("message").contains("\"Atlantis\""),
        "{unknown}"
    );

    let (status, blank) = locate(json!("   "), me.clone()).await;
    assert_eq!((status, &blank["error"]), (400, &json!("invalid_request")), "{blank}");
    assert_eq!(blank["message"], "Enter a location to show on the map.");
    let (status, long) = locate(json!("x".repeat(201)), me.clone()).await;
    assert_eq!((status, &long["error"]), (400, &json!("invalid_request")), "{long}");
    assert!(
        long["message"].as_str().expect("message").contains("200 characters"),
        "{long}"
    );
    let (status, number) = locate(json!(77002), me.clone()).await;
    assert_eq!(status, 400, "a number is not a location: {number}");
    let (status, _) = locate(json!("Houston, TX"), None).await;
    assert_eq!(status, 401);
    // Houston, SW1A and Atlantis (Google is asked, and bills, to learn it knows no such
    // place): nothing refused here reached Google.
    assert_eq!(env.sim.stats().billable(Sku::TextSearchPro), 3);
}
