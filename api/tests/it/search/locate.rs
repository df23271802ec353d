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

/// Whole cents of a dollar figure.
fn cents(v: &serde_json::Value) -> i64 {
    (v.as_f64().unwrap_or_else(|| panic!("a number: {v}")) * 100.0).round() as i64
}

/// The env's user's month, by member and by client (`GET /api/leads/usage/breakdown`).
async fn breakdown(env: &SearchEnv) -> serde_json::Value {
    let (status, body) = env
        .app
        .get("/api/leads/usage/breakdown", Some(env.token.as_str()))
        .await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The breakdown's row for `client`.
fn client_row<'a>(month: &'a serde_json::Value, client: &str) -> &'a serde_json::Value {
    month["clients"]
        .as_array()
        .expect("clients")
        .iter()
        .find(|c| c["client"] == client)
        .unwrap_or_else(|| panic!("{client}'s row: {month}"))
}

#[tokio::test]
async fn what_locating_and_estimating_spend_counts_toward_the_month_and_the_cap() {
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder(), 0, vec![]).await;
    let workspace = env.workspace().await;
    let me = Some(env.token.as_str());
    // A cap of 10 cents: a locate ($0.032) and an estimate that locates and counts
    // ($0.032 + $0.01) leave 2.6 cents; the next locate ($0.032) passes the cap.
    assert!(
        env.app
            .state
            .store
            .set_spend_cap_cents(&workspace, Some(10))
            .await
            .expect("cap")
    );

    let (status, located) = env
        .app
        .post("/api/leads/locate", me, Some(json!({"location": "Houston, TX"})))
        .await;
    assert_eq!(status, 200, "{located}");
    let month = breakdown(&env).await;
    assert_eq!(
        (cents(&month["total"]["costUsd"]), cents(&month["total"]["lookupsUsd"])),
        (3, 3),
        "{month}"
    );
    assert_eq!(
        (&month["total"]["searches"], &month["total"]["leads"]),
        (&json!(0), &json!(0)),
        "a lookup is no search: {month}"
    );
    assert_eq!(cents(&month["members"][0]["lookupsUsd"]), 3, "{month}");

    // An estimate for a client: its locate and its count, under that client.
    let (status, estimate) = env
        .estimate(json!({"businessType": "dentist", "location": "Austin, TX", "coverage": "full", "client": "Acme"}))
        .await;
    assert_eq!(status, 200, "{estimate}");
    assert_eq!(estimate["spent"]["requests"]["pro"], 1, "{estimate}");
    assert_eq!(estimate["spent"]["requests"]["aggregate"], 1, "{estimate}");
    let spent = estimate["spent"]["costUsd"].as_f64().expect("spent");
    let month = breakdown(&env).await;
    let total = month["total"]["costUsd"].as_f64().expect("total");
    assert!(
        (total - (0.032 + spent)).abs() < 0.006,
        "{total} after {spent}: {month}"
    );
    let acme = client_row(&month, "Acme");
    assert_eq!(cents(&acme["lookupsUsd"]), (spent * 100.0).round() as i64, "{month}");
    assert_eq!(acme["searches"], 0, "{month}");

    // A location answered from the cache costs nothing and records nothing.
    let (status, again) = env
        .app
        .post("/api/leads/locate", me, Some(json!({"location": "Houston, TX"})))
        .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(breakdown(&env).await["total"], month["total"]);

    // A third lookup that Google bills passes the cap; the cap then refuses what Google
    // would bill, and still answers what it does not.
    let (status, third) = env
        .app
        .post("/api/leads/locate", me, Some(json!({"location": "Denver, CO"})))
        .await;
    assert_eq!(status, 200, "{third}");
    let (status, refused) = env
        .app
        .post("/api/leads/locate", me, Some(json!({"location": "Seattle, WA"})))
        .await;
    assert_eq!(
        (status, &refused["error"]),
        (403, &json!("spend_cap_reached")),
        "{refused}"
    );
    env.sim.reset();
    let (status, refused) = env
        .estimate(json!({"businessType": "dentist", "location": "Seattle, WA", "coverage": "full"}))
        .await;
    assert_eq!(
        (status, &refused["error"]),
        (403, &json!("spend_cap_reached")),
        "{refused}"
    );
    let (status, free) = env
        .estimate(json!({"businessType": "dentist", "location": "Austin, TX", "coverage": "full"}))
        .await;
    assert_eq!(status, 200, "a located area's probes are free: {free}");
    assert_eq!(free["completeness"], json!(null), "no count at the cap: {free}");
    assert_eq!(free["spent"]["costUsd"], json!(0.0), "{free}");
    let stats = env.sim.stats();
    assert_eq!(
        (stats.billable(Sku::TextSearchPro), stats.billable(Sku::PlacesAggregate)),
        (0, 0),
        "nothing billed at the cap"
    );
}

#[tokio::test]
async fn an_estimate_that_fails_still_counts_what_google_billed_it() {
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder(), 0, vec![]).await;
    // A full search of a place Google does not know: locating it is billed, then refused.
    let (status, refused) = env
        .estimate(json!({"businessType": "dentist", "location": "Atlantis", "coverage": "full", "client": "Acme"}))
        .await;
    assert_eq!(
        (status, &refused["error"]),
        (400, &json!("invalid_location")),
        "{refused}"
    );
    assert_eq!(
        env.sim.stats().billable(Sku::TextSearchPro),
        1,
        "Google billed the locate"
    );
    let month = breakdown(&env).await;
    assert_eq!(
        (cents(&month["total"]["costUsd"]), cents(&month["total"]["lookupsUsd"])),
        (3, 3),
        "the refused estimate's locate is in the month: {month}"
    );
    let acme = client_row(&month, "Acme");
    assert_eq!(cents(&acme["lookupsUsd"]), 3, "under the estimate's client: {month}");

    // A request refused before Google is asked (a blank location) records nothing.
    let (status, blank) = env
        .estimate(json!({"businessType": "dentist", "location": "  ", "coverage": "full"}))
        .await;
    assert_eq!(status, 400, "{blank}");
    let after = breakdown(&env).await;
    assert_eq!(after["total"], month["total"], "{after}");
}
