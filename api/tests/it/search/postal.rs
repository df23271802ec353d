//! A ZIP code typed as the location (#30 item 5): it is located to the code's area (one
//! Pro request answered with a `postal_code` place), and only places whose address
//! carries the code are sent, though the code's viewport reaches into its neighbours; in
//! both modes. The completeness meter and the estimate count the code's own region (the
//! Aggregate API's `region.place`, by the place id the locate request answered), not the
//! viewport: "found N of about M" and the estimate's leads are the code's.

use std::collections::BTreeSet;

use leadgen_core::search::{
    Located, Matched, normalise_location,
    tiling::{LatLng, Rect},
};
use leadgen_testkit::places_sim::{PlacesSim, Sku};
use serde_json::{Value, json};

use super::env::{SearchEnv, last_of};
use crate::both_modes;

fn found(events: &[(u64, Value)]) -> Vec<Value> {
    events
        .iter()
        .filter(|(_, e)| e["type"] == "business_found")
        .map(|(_, e)| e["lead"].clone())
        .collect()
}

both_modes!(
    a_full_search_of_a_zip_code_sends_the_places_of_that_code,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let world = env.sim.world();
        let zip = world.locate("78704").expect("78704 is a ZIP code of the world");
        assert_eq!(zip.primary_type, "postal_code");
        let austin = world.places_for("Austin", "restaurant");
        let truth: BTreeSet<String> = austin
            .iter()
            .filter(|p| p.zip == "78704")
            .map(|p| p.id.clone())
            .collect();
        let neighbours = austin
            .iter()
            .filter(|p| zip.viewport.contains(p.location) && p.zip != "78704")
            .count();
        assert!(!truth.is_empty(), "78704 has restaurants");
        assert!(neighbours > 0, "the code's viewport reaches into its neighbours");
        let body = json!({"businessType": "restaurant", "location": "78704", "coverage": "full"});
        let (status, estimate) = env.estimate(body.clone()).await;
        assert_eq!(status, 200, "{estimate}");
        let code = json!({"expected": truth.len(), "source": "google_aggregate"});
        assert_eq!(
            estimate["completeness"], code,
            "Google's count of the code, not of its viewport"
        );
        assert_eq!(estimate["estimatedLeads"], truth.len(), "{estimate}");
        assert_eq!(
            estimate["spent"]["requests"]["aggregate"].as_u64(),
            Some(2),
            "the code counted for the meter, its viewport for the cost"
        );
        // Within 3 s at Google's default 10 requests a second, as for a city.
        let probes = env.sim.stats().billable(Sku::TextSearchEssentialsIdsOnly);
        assert!(probes <= 20, "{probes} probe requests");
        let estimated_cost = estimate["estimatedCostUsd"].as_f64().expect("cost");
        let (status, events) = env.stream_body(body).await;
        assert_eq!(status, 200);
        let cost = last_of(&events, "complete")["cost"]["costUsd"].as_f64().expect("cost");
        assert!(
            (estimated_cost / cost - 1.0).abs() <= 0.10,
            "estimated ${estimated_cost} for ${cost}"
        );
        assert_eq!(
            last_of(&events, "complete")["completeness"],
            json!({"found": truth.len(), "expected": truth.len(), "source": "google_aggregate"}),
            "found of expected, both the code's"
        );
        let leads = found(&events);
        let ids: BTreeSet<String> = leads
            .iter()
            .map(|l| l["placeId"].as_str().expect("placeId").to_owned())
            .collect();
        assert_eq!(ids, truth, "every restaurant of 78704, none of its neighbours");
        assert!(leads.iter().all(|l| l["postalCode"] == "78704"));
        assert_eq!(
            env.sim.stats().billable(Sku::TextSearchPro),
            1,
            "one request located the code, for the estimate and the search"
        );
    }
);

both_modes!(
    an_area_cached_before_the_match_was_kept_is_located_again_for_a_postal_code_only,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let world = env.sim.world();
        let store = &env.app.state.store;
        // Rows as an older release left them: the viewport, nothing of what Google matched.
        for location in ["78704", "Austin, TX"] {
            let place = world.locate(location).expect("the world has it");
            let unrecorded = Located {
                area: Rect {
                    low: LatLng {
                        lat: place.viewport.low.latitude,
                        lng: place.viewport.low.longitude,
                    },
                    high: LatLng {
                        lat: place.viewport.high.latitude,
                        lng: place.viewport.high.longitude,
                    },
                },
                matched: Matched::Unrecorded,
            };
            store
                .remember_area(&normalise_location(location), &unrecorded)
                .await
                .expect("remember");
        }
        let estimate = |location: &str| {
            env.estimate(json!({"businessType": "restaurant", "location": location, "coverage": "full"}))
        };
        let (status, city) = estimate("Austin, TX").await;
        assert_eq!(status, 200, "{city}");
        assert_eq!(
            env.sim.stats().billable(Sku::TextSearchPro),
            0,
            "a city's cached viewport serves"
        );
        assert_eq!(city["completeness"]["source"], "google_aggregate");
        let (status, zip) = estimate("78704").await;
        assert_eq!(status, 200, "{zip}");
        assert_eq!(
            env.sim.stats().billable(Sku::TextSearchPro),
            1,
            "a postal code is located again, for its place id"
        );
        assert!(zip["completeness"]["expected"].as_u64().is_some(), "{zip}");
        let (status, _) = estimate("78704").await;
        assert_eq!(status, 200);
        assert_eq!(
            env.sim.stats().billable(Sku::TextSearchPro),
            1,
            "and then served from the cache"
        );
        let kept = store
            .located_area(&normalise_location("78704"))
            .await
            .expect("read")
            .expect("cached");
        let id = world.locate("78704").expect("78704").id;
        assert_eq!(kept.matched, Matched::PostalCode(id));
    }
);

both_modes!(a_quick_search_of_a_zip_code_stays_in_it, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let (status, events) = env.stream("dentist", "77002").await;
    assert_eq!(status, 200);
    let leads = found(&events);
    assert!(!leads.is_empty(), "77002 (Houston) has dentists");
    assert!(leads.iter().all(|l| l["postalCode"] == "77002"), "{leads:?}");
});

both_modes!(
    a_zip_codes_estimate_without_the_codes_count_is_not_exact,
    |mode| async move {
        // The meter off: nothing counts the code, and the IDs-only probes carry no
        // address, so the leads are every place of the viewport, its neighbours' too.
        let env = SearchEnv::start(
            mode,
            PlacesSim::builder(),
            1,
            vec![("LEADGEN_COMPLETENESS", "off".to_owned())],
        )
        .await;
        let in_code = env
            .sim
            .world()
            .places_for("Austin", "restaurant")
            .iter()
            .filter(|p| p.zip == "78704")
            .count();
        let (status, full) = env
            .estimate(json!({"businessType": "restaurant", "location": "78704", "coverage": "full"}))
            .await;
        assert_eq!(status, 200, "{full}");
        assert_eq!(full["completeness"], Value::Null);
        let leads = full["estimatedLeads"].as_u64().expect("leads") as usize;
        assert!(
            leads > in_code,
            "{leads} leads for {in_code} in the code: the viewport's"
        );
        assert_eq!(full["exact"], false, "{full}");
        // The search's own "of about" counts the probes' places in the share of fetched
        // places that carry the code: the code's, not the viewport's, once all is fetched.
        let (status, events) = env
            .stream_body(json!({"businessType": "restaurant", "location": "78704", "coverage": "full"}))
            .await;
        assert_eq!(status, 200);
        assert_eq!(found(&events).len(), in_code);
        let last = last_of(&events, "progress");
        assert_eq!(last["estimatedPlaces"], in_code, "{last}");
        assert!(
            last["placesFound"].as_u64().expect("found") as usize > in_code,
            "{last}"
        );
        // A quick search is never located before it runs, so never counted either.
        let (status, quick) = env
            .estimate(json!({"businessType": "dentist", "location": "77002"}))
            .await;
        assert_eq!(status, 200, "{quick}");
        assert_eq!(quick["exact"], false, "{quick}");
        let (status, city) = env
            .estimate(json!({"businessType": "dentist", "location": "Houston, TX"}))
            .await;
        assert_eq!(status, 200, "{city}");
        assert_eq!(
            city["exact"], true,
            "a city's quick estimate lists what it sends: {city}"
        );
    }
);

both_modes!(
    a_uk_postcode_district_and_a_full_postcode_send_only_their_places,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let world = env.sim.world();
        let district = world
            .locate("London SW1A, UK")
            .expect("SW1A is a district of the world");
        assert_eq!(district.primary_type, "postal_code_prefix");
        let london = world.places_for("London", "restaurant");
        let truth: BTreeSet<String> = london
            .iter()
            .filter(|p| p.zip == "SW1A")
            .map(|p| p.id.clone())
            .collect();
        let neighbours = london
            .iter()
            .filter(|p| district.viewport.contains(p.location) && p.zip != "SW1A")
            .count();
        assert!(!truth.is_empty(), "SW1A has restaurants");
        assert!(neighbours > 0, "the district's viewport reaches into its neighbours");
        let (status, events) = env
            .stream_body(json!({"businessType": "restaurant", "location": "London SW1A, UK", "coverage": "full"}))
            .await;
        assert_eq!(status, 200);
        let leads = found(&events);
        let ids: BTreeSet<String> = leads
            .iter()
            .map(|l| l["placeId"].as_str().expect("placeId").to_owned())
            .collect();
        assert_eq!(ids, truth, "every restaurant of SW1A, none of its neighbours");
        assert_eq!(
            last_of(&events, "complete")["completeness"],
            json!({"found": truth.len(), "expected": truth.len(), "source": "google_aggregate"}),
            "the district's own count"
        );
        assert!(
            leads
                .iter()
                .all(|l| l["postalCode"].as_str().is_some_and(|c| c.starts_with("SW1A ")) && l["city"] == "London"),
            "{leads:?}"
        );

        // A full postcode: the one most of SW1A's restaurants share; its unit's viewport
        // reaches into the units around it, and only its own places are sent.
        let mut by_code = std::collections::BTreeMap::<&str, usize>::new();
        for p in london.iter().filter(|p| p.zip == "SW1A") {
            *by_code.entry(p.postal_code.as_str()).or_default() += 1;
        }
        let (code, count) = by_code.into_iter().max_by_key(|(_, n)| *n).expect("a postcode");
        let (status, events) = env
            .stream_body(json!({"businessType": "restaurant", "location": code, "coverage": "full"}))
            .await;
        assert_eq!(status, 200);
        let leads = found(&events);
        assert_eq!(leads.len(), count, "{code}: {leads:?}");
        assert!(leads.iter().all(|l| l["postalCode"] == code), "{leads:?}");
        assert_eq!(
            last_of(&events, "complete")["completeness"],
            json!({"found": count, "expected": count, "source": "google_aggregate"}),
            "the full postcode's own count"
        );
    }
);
