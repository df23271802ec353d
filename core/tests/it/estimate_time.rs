//! An estimate's probes stop in time when Google's count is coming (issue #30 item 4:
//! within 3 s): a slow Google gets the area's probe and no second round, and the count
//! stands for the rest.

use std::{collections::HashSet, time::Duration};

use leadgen_core::{
    places::AggregateClient,
    search::{self, EstimateLimits, NoAreaCache, PriceTable, Requests, Upstream, WorkspaceKnows},
};
use leadgen_testkit::places_sim::{DEFAULT_SEED, METRO_CITY, PlacesSim, Sku, World};

use crate::runner_doubles::{NoGate, search as valid_search, simulator};

const KEY: &str = "AIzaSyEstTime0123456789abcdefghijklmnopq";

/// Probes an estimate makes of the metro's dentists, Google answering every request after
/// `latency`.
async fn estimate_at(latency: Duration) -> (search::Estimate, u64) {
    let (sim, client) = simulator(PlacesSim::builder().latency(latency)).await;
    let meter = AggregateClient::new(&url::Url::parse(&sim.base_url).expect("url")).expect("aggregate");
    let upstream = Upstream {
        client: &client,
        api_key: KEY,
        key_id: "test",
        gate: &NoGate,
        aggregate: Some(&meter),
    };
    let world = World::new(DEFAULT_SEED);
    let city = world.city(METRO_CITY).expect("metro");
    let search = valid_search(
        "dentist",
        &format!("{}, {}", city.name, city.region),
        search::Coverage::Full,
    );
    let excluded = HashSet::new();
    let estimate = search::estimate(
        &upstream,
        &search,
        &PriceTable::default(),
        &NoAreaCache,
        EstimateLimits::default(),
        WorkspaceKnows {
            excluded: &excluded,
            memory: None,
            keeps_place_ids: false,
        },
        &mut Requests::default(),
    )
    .await
    .expect("estimate");
    (estimate, sim.stats().billable(Sku::TextSearchEssentialsIdsOnly))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_google_gets_the_areas_probe_and_the_count_stands_for_the_rest() {
    let truth = World::new(DEFAULT_SEED).places_for(METRO_CITY, "dentist").len() as u32;
    // At Google's usual pace the estimate probes a second round within its bound.
    let (prompt, prompt_probes) = estimate_at(Duration::ZERO).await;
    assert!(prompt_probes > 3, "a second round: {prompt_probes} IDs-only requests");
    // At a second a request, the locate and the area's three pages take 4 s: past the
    // probing time, so no second round starts (with the request bound alone it did).
    let (slow, slow_probes) = estimate_at(Duration::from_secs(1)).await;
    assert_eq!(slow_probes, 3, "the area's three pages only");
    assert!(!slow.exact);
    // The count says how many places there are either way, and the cost follows it.
    assert_eq!(slow.estimated_leads, truth);
    assert_eq!(prompt.estimated_leads, truth);
    let off = (slow.estimated_cost_usd - prompt.estimated_cost_usd).abs() / prompt.estimated_cost_usd;
    assert!(off < 0.1, "{slow:?} against {prompt:?}");
}
