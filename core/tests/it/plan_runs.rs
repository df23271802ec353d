//! Full searches from a remembered plan (issue #30 item 2) against the Places simulator,
//! through `search::run`: a run from memory is stopped midway and resumed from its
//! checkpoint, and together they send every place once and pay for no rectangle twice.

use std::{
    collections::{BTreeSet, HashSet},
    net::SocketAddr,
    sync::Mutex,
};

use futures_util::{FutureExt, future::BoxFuture};
use leadgen_core::{
    places::PlacesClient,
    search::{
        self, Checkpoint, NoAreaCache, PlanKey, PlanMemory, PriceTable, Resume, SearchFailure, SearchPlan, Upstream,
        tiling::Remembered,
    },
};
use leadgen_testkit::places_sim::{DEFAULT_SEED, PlacesSim, Sku, World};

use crate::runner_doubles::{NoGate, Sink, Unlimited, search as valid_search};

const KEY: &str = "AIzaSyPlanRuns0123456789abcdefghijklmno";

/// One remembered plan, whatever the key (one search is run here).
#[derive(Default)]
struct OnePlan(Mutex<Option<Remembered>>);

impl PlanMemory for OnePlan {
    fn recall<'a>(&'a self, _key: &'a PlanKey) -> BoxFuture<'a, Option<Remembered>> {
        let plan = self.0.lock().expect("plan").clone();
        async move { plan }.boxed()
    }

    fn remember<'a>(&'a self, _key: &'a PlanKey, plan: &'a Remembered) -> BoxFuture<'a, ()> {
        *self.0.lock().expect("plan") = Some(plan.clone());
        async {}.boxed()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_from_memory_stopped_midway_resumes_without_paying_twice() {
    leadgen_core::install_crypto_provider();
    let sim = PlacesSim::builder()
        .start(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("sim");
    let client = PlacesClient::new(&url::Url::parse(&sim.base_url).expect("url")).expect("client");
    let world = World::new(DEFAULT_SEED);
    let city = world
        .cities()
        .iter()
        .filter(|c| (100..=200).contains(&world.places_for(c.name, "restaurant").len()))
        .max_by_key(|c| world.places_for(c.name, "restaurant").len())
        .expect("a city");
    let truth: BTreeSet<String> = world
        .places_for(city.name, "restaurant")
        .into_iter()
        .map(|p| p.id)
        .collect();
    let search = valid_search(
        "restaurant",
        &format!("{}, {}", city.name, city.region),
        search::Coverage::Full,
    );
    let upstream = Upstream {
        client: &client,
        api_key: KEY,
        key_id: "test",
        gate: &NoGate,
        aggregate: None,
    };
    let memory = OnePlan::default();
    let plan = SearchPlan {
        search: &search,
        lead_budget: 60,
        prices: PriceTable::default(),
        concurrency: 1,
        spend_cap: None,
        excluded: HashSet::new(),
        fetch_missing: false,
        plan_memory: Some(&memory),
    };
    let sink = Sink::new;

    // The first search plans the area and leaves its plan.
    let mut first = sink(None);
    search::run(&upstream, &plan, &mut first, &Unlimited, &NoAreaCache, Resume::fresh())
        .await
        .expect("first");
    let sent: BTreeSet<String> = first.sent.iter().map(|l| l.place_id.clone()).collect();
    assert_eq!(sent, truth);
    let remembered = memory.0.lock().expect("plan").clone().expect("remembered");
    assert!(remembered.fetches.len() >= 3, "{remembered:?}");

    // The second runs from it and stops after its second tile's page went out.
    sim.reset();
    let mut stopped = sink(Some(4));
    let failure = search::run(
        &upstream,
        &plan,
        &mut stopped,
        &Unlimited,
        &NoAreaCache,
        Resume::fresh(),
    )
    .await;
    assert!(matches!(failure, Err(SearchFailure::Stopped(_))));
    let Some(Checkpoint::Tiles { done, requests, .. }) = stopped.last.clone() else {
        panic!("a tiles checkpoint: {:?}", stopped.last);
    };
    assert!(!done.is_empty(), "some tiles went out before it stopped");
    assert_eq!(
        sim.stats().billable(Sku::TextSearchEssentialsIdsOnly),
        0,
        "nothing probed"
    );

    // Resumed: the tiles done are not fetched again, and every place goes out once.
    sim.reset();
    let mut resumed = sink(None);
    let resume = Resume {
        checkpoint: stopped.last.clone(),
        delivered: stopped.sent.clone(),
    };
    search::run(&upstream, &plan, &mut resumed, &Unlimited, &NoAreaCache, resume)
        .await
        .expect("resumed");
    let mut all: Vec<String> = stopped.sent.iter().map(|l| l.place_id.clone()).collect();
    all.extend(resumed.sent.iter().map(|l| l.place_id.clone()));
    let unique: BTreeSet<String> = all.iter().cloned().collect();
    assert_eq!(unique.len(), all.len(), "no place sent twice");
    assert_eq!(unique, truth, "every place");
    // The resumed run pays for the remembered tiles not done, no more: the pages of
    // those done (the stopped run's checkpoint) and its own make the plan's.
    let pages = sim.stats().billable(Sku::TextSearchEnterprise) as usize;
    assert_eq!(
        pages + requests.enterprise as usize,
        remembered.pages(),
        "{pages} lead pages resumed, {} before, for a plan of {}",
        requests.enterprise,
        remembered.pages()
    );
    assert_eq!(
        sim.stats().billable(Sku::TextSearchEssentialsIdsOnly),
        0,
        "nothing probed when resumed either"
    );
}
