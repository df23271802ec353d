//! `exclude` (issue #29) against the Places simulator: left-out places are neither sent
//! nor counted toward the lead budget, and a full search does not pay for a rectangle
//! whose places the free probes show are all left out, and fetches a rectangle's few new
//! places by id when that costs less than its pages.

use std::collections::HashSet;

use leadgen_core::{
    lead::Lead,
    places::PlacesClient,
    search::{self, Coverage, NoAreaCache, PriceTable, Resume, SearchOutcome, SearchPlan, Upstream, ValidSearch},
};
use leadgen_testkit::places_sim::{PlacesSim, Sku};

use crate::runner_doubles::{NoGate, Sink, Unlimited, search, simulator};

const KEY: &str = "AIzaSyExclude0123456789abcdefghijklmnop";

async fn run(
    client: &PlacesClient,
    search: &ValidSearch,
    lead_budget: u32,
    excluded: HashSet<String>,
) -> (SearchOutcome, Vec<Lead>) {
    let upstream = Upstream {
        client,
        api_key: KEY,
        key_id: "test",
        gate: &NoGate,
        aggregate: None,
    };
    let plan = SearchPlan {
        search,
        lead_budget,
        prices: PriceTable::default(),
        concurrency: 4,
        spend_cap: None,
        excluded,
        fetch_missing: false,
        plan_memory: None,
    };
    let mut sink = Sink::new(None);
    let outcome = search::run(&upstream, &plan, &mut sink, &Unlimited, &NoAreaCache, Resume::fresh())
        .await
        .expect("search");
    (outcome, sink.sent)
}

fn ids(leads: &[Lead]) -> HashSet<String> {
    leads.iter().map(|l| l.place_id.clone()).collect()
}

#[tokio::test]
async fn a_quick_search_leaves_out_excluded_places_and_does_not_count_them() {
    let (_sim, client) = simulator(PlacesSim::builder()).await;
    let quick = search("restaurant", "Austin, TX", Coverage::Quick);
    let (first, sent) = run(&client, &quick, 60, HashSet::new()).await;
    assert!(sent.len() >= 40, "enough places to split: {}", sent.len());
    assert_eq!(first.excluded, 0);

    // Leave out the first 25: a budget of 10 still gets 10 leads, none of them left out.
    let left_out: HashSet<String> = ids(&sent[..25]);
    let (second, again) = run(&client, &quick, 10, left_out.clone()).await;
    assert_eq!(again.len(), 10, "left-out places do not use the budget");
    assert!(again.iter().all(|l| !left_out.contains(&l.place_id)));
    assert_eq!(second.leads.len(), 10);
    assert!(
        second.excluded >= 20,
        "the first page's left-out places are counted: {}",
        second.excluded
    );

    // Everything left out: nothing is sent, every match is counted as left out.
    let (third, none) = run(&client, &quick, 60, ids(&sent)).await;
    assert!(none.is_empty());
    assert_eq!(third.excluded as usize, sent.len());
}

/// The figure: a full search of the metro, then the same search with
/// `exclude: seen` after 5 businesses opened there. The simulator generates a type's
/// businesses in order from its seed, so the world with 5 more holds the same first ones.
#[tokio::test]
async fn a_full_search_re_run_sends_only_the_new_places_and_pays_far_less() {
    const BEFORE: u32 = 1_500;
    const ADDED: u32 = 5;
    let (before_sim, before) = simulator(PlacesSim::builder().metro_density("dentist", BEFORE)).await;
    let full = search("dentist", "Houston, TX", Coverage::Full);
    let (first, sent) = run(&before, &full, 10_000, HashSet::new()).await;
    assert_eq!(sent.len() as u32, BEFORE, "the first run finds every dentist");
    let first_cost = before_sim.stats();

    let (after_sim, after) = simulator(PlacesSim::builder().metro_density("dentist", BEFORE + ADDED)).await;
    let seen = ids(&sent);
    let (second, new) = run(&after, &full, 10_000, seen.clone()).await;
    let second_cost = after_sim.stats();
    assert_eq!(new.len() as u32, ADDED, "exactly the new places are sent");
    assert!(new.iter().all(|l| !seen.contains(&l.place_id)));
    assert_eq!(ids(&new).len() as u32, ADDED, "each once");
    assert_eq!(second.excluded, BEFORE, "every known place is counted as left out");

    let prices = PriceTable::default();
    let (first_usd, second_usd) = (first.requests.cost_usd(&prices), second.requests.cost_usd(&prices));
    println!(
        "first run: {:?} ${first_usd:.4} (simulator: {} enterprise, ${:.4}); re-run with exclude=seen: {:?} ${second_usd:.4} (simulator: {} enterprise, ${:.4})",
        first.requests,
        first_cost.billable(Sku::TextSearchEnterprise),
        first_cost.cost_usd.dollars(),
        second.requests,
        second_cost.billable(Sku::TextSearchEnterprise),
        second_cost.cost_usd.dollars(),
    );
    assert!(
        second_usd * 4.0 <= first_usd,
        "the re-run costs at most a quarter: ${second_usd:.4} vs ${first_usd:.4}"
    );
    assert!(
        second_cost.billable(Sku::TextSearchEnterprise) * 4 <= first_cost.billable(Sku::TextSearchEnterprise),
        "and the simulator billed as much"
    );
    // The cheaper of (#29 item 2): each rectangle holding a new place holds only one, so
    // that place by id ($0.020) beats the rectangle's pages ($0.035 each). What Google
    // billed: the locate request and the 5 places by id; the probes are free.
    assert_eq!(second_cost.billable(Sku::TextSearchEnterprise), 0, "no page of leads");
    assert_eq!(
        second_cost.billable(Sku::PlaceDetailsEnterprise),
        5,
        "one Place Details call per new place"
    );
    assert_eq!(second_cost.billable(Sku::TextSearchPro), 1, "the locate request");
    assert_eq!(second_cost.place_details_requests, 5);
    assert_eq!(second_cost.cost_usd.micros(), 132_000, "$0.032 + 5 x $0.020");
    assert_eq!((second.requests.enterprise, second.requests.details), (0, 5));
    assert!(
        (second_usd - 0.132).abs() < 1e-9,
        "what the search says it cost: ${second_usd}"
    );
}
