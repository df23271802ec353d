//! The completeness meter on a full search of a ZIP code that stops right after it was
//! located (the worker dies before any page went out) and is resumed from that
//! checkpoint: the retry counts the code's own region, found of about is the code's, and
//! the place id comes from the located-area cache, not a second locate.

use std::{
    collections::{BTreeSet, HashMap, HashSet},
    sync::Mutex,
};

use leadgen_core::{
    places::AggregateClient,
    search::{self, AreaCache, Checkpoint, Located, Matched, PriceTable, Resume, SearchFailure, SearchPlan, Upstream},
};
use leadgen_testkit::places_sim::{DEFAULT_SEED, PlacesSim, Sku, World};

use crate::runner_doubles::{NoGate, Sink, Unlimited, search as valid_search, simulator};

const KEY: &str = "AIzaSyResumedMeter0123456789abcdefghijk";

/// The located-area cache, in memory.
#[derive(Default)]
struct Areas(Mutex<HashMap<String, Located>>);

impl AreaCache for Areas {
    async fn get(&self, location: &str) -> Option<Located> {
        self.0.lock().expect("areas").get(location).cloned()
    }

    async fn put(&self, location: &str, located: &Located) {
        self.0
            .lock()
            .expect("areas")
            .insert(location.to_owned(), located.clone());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_zip_code_search_resumed_after_its_locate_counts_the_code() {
    let (sim, client) = simulator(PlacesSim::builder()).await;
    let meter = AggregateClient::new(&url::Url::parse(&sim.base_url).expect("url")).expect("aggregate");
    let world = World::new(DEFAULT_SEED);
    let truth: BTreeSet<String> = world
        .places_for("Austin", "restaurant")
        .into_iter()
        .filter(|p| p.zip == "78704")
        .map(|p| p.id)
        .collect();
    assert!(!truth.is_empty());
    let search = valid_search("restaurant", "78704", search::Coverage::Full);
    let upstream = Upstream {
        client: &client,
        api_key: KEY,
        key_id: "test",
        gate: &NoGate,
        aggregate: Some(&meter),
    };
    let plan = SearchPlan {
        search: &search,
        lead_budget: 1_000,
        prices: PriceTable::default(),
        concurrency: 1,
        spend_cap: None,
        excluded: HashSet::new(),
        fetch_missing: false,
        plan_memory: None,
    };
    let areas = Areas::default();

    // The first emit is the checkpoint right after the locate; the second never arrives.
    let mut stopped = Sink::new(Some(2));
    let failure = search::run(&upstream, &plan, &mut stopped, &Unlimited, &areas, Resume::fresh()).await;
    assert!(matches!(failure, Err(SearchFailure::Stopped(_))));
    let Some(Checkpoint::Tiles { ref done, .. }) = stopped.last else {
        panic!("a tiles checkpoint: {:?}", stopped.last);
    };
    assert!(
        done.is_empty() && stopped.sent.is_empty(),
        "stopped before any page went out"
    );
    let zip = world.locate("78704").expect("78704");
    let cached = areas.get("78704").await.expect("located and cached");
    assert_eq!(cached.matched, Matched::PostalCode(zip.id));

    sim.reset();
    let mut resumed = Sink::new(None);
    let resume = Resume {
        checkpoint: stopped.last.clone(),
        delivered: Vec::new(),
    };
    search::run(&upstream, &plan, &mut resumed, &Unlimited, &areas, resume)
        .await
        .expect("resumed");
    let sent: BTreeSet<String> = resumed.sent.iter().map(|l| l.place_id.clone()).collect();
    assert_eq!(sent, truth, "every restaurant of the code");
    let meter = resumed.meter.expect("the retry counts the code");
    assert_eq!((meter.found, meter.expected), (truth.len() as u32, truth.len() as u32));
    assert_eq!(sim.stats().billable(Sku::TextSearchPro), 0, "not located again");
    assert_eq!(sim.stats().billable(Sku::PlacesAggregate), 1, "one count, of the code");
}
