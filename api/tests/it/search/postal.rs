//! A ZIP code typed as the location (#30 item 5): it is located to the code's area (one
//! Pro request answered with a `postal_code` place), and only places whose address
//! carries the code are sent, though the code's viewport reaches into its neighbours; in
//! both modes.

use std::collections::BTreeSet;

use leadgen_testkit::places_sim::{PlacesSim, Sku};
use serde_json::{Value, json};

use super::env::SearchEnv;
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
        let (status, events) = env
            .stream_body(json!({"businessType": "restaurant", "location": "78704", "coverage": "full"}))
            .await;
        assert_eq!(status, 200);
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
            "one request located the code"
        );
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
