//! An estimate's probe answers left for the search that follows it (issue #30 item 2),
//! against the Places simulator: the search asks Google again for no rectangle the
//! estimate probed, and sends exactly what a search without them sends.

use std::{
    collections::{BTreeSet, HashSet},
    sync::Mutex,
};

use futures_util::{FutureExt, future::BoxFuture};
use leadgen_core::search::{
    self, EstimateLimits, NoAreaCache, PlanKey, PlanMemory, PriceTable, ProbeAnswers, Requests, Resume, SearchPlan,
    Upstream, WorkspaceKnows, tiling::Remembered,
};
use leadgen_testkit::places_sim::{DEFAULT_SEED, PlacesSim, Sku, World};

use crate::runner_doubles::{NoGate, Sink, Unlimited, search as valid_search, simulator};

const KEY: &str = "AIzaSyEstProbes0123456789abcdefghijklmn";

/// A memory that keeps no plan (every search plans afresh) and the last probe answers
/// left, under their key.
#[derive(Default)]
struct ProbesOnly(Mutex<Option<(PlanKey, ProbeAnswers)>>);

impl PlanMemory for ProbesOnly {
    fn recall<'a>(&'a self, _key: &'a PlanKey) -> BoxFuture<'a, Option<Remembered>> {
        async { None }.boxed()
    }

    fn remember<'a>(&'a self, _key: &'a PlanKey, _plan: &'a Remembered) -> BoxFuture<'a, ()> {
        async {}.boxed()
    }

    fn take_probes<'a>(&'a self, key: &'a PlanKey) -> BoxFuture<'a, Option<ProbeAnswers>> {
        let mut left = self.0.lock().expect("probes");
        let taken = match left.take() {
            Some((k, answers)) if &k == key => Some(answers),
            other => {
                *left = other;
                None
            }
        };
        async move { taken }.boxed()
    }

    fn leave_probes<'a>(&'a self, key: &'a PlanKey, answers: &'a ProbeAnswers) -> BoxFuture<'a, ()> {
        *self.0.lock().expect("probes") = Some((key.clone(), answers.clone()));
        async {}.boxed()
    }

    fn add_probes<'a>(&'a self, key: &'a PlanKey, answers: &'a ProbeAnswers) -> BoxFuture<'a, bool> {
        let mut left = self.0.lock().expect("probes");
        let there = matches!(&*left, Some((k, _)) if k == key);
        if there {
            *left = Some((key.clone(), answers.clone()));
        }
        async move { there }.boxed()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_after_its_estimate_asks_google_only_what_the_estimate_did_not() {
    let (sim, client) = simulator(PlacesSim::builder()).await;
    let world = World::new(DEFAULT_SEED);
    // A city the estimate cannot probe whole within its bound, so the search has its own
    // probes to make as well.
    let city = world
        .cities()
        .iter()
        .max_by_key(|c| world.places_for(c.name, "dentist").len())
        .expect("a city");
    let truth: BTreeSet<String> = world
        .places_for(city.name, "dentist")
        .into_iter()
        .map(|p| p.id)
        .collect();
    let search = valid_search(
        "dentist",
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
    let prices = PriceTable::default();
    let run = |memory: &'static ProbesOnly| {
        let plan = SearchPlan {
            search: &search,
            lead_budget: 100_000,
            prices,
            concurrency: 4,
            spend_cap: None,
            excluded: HashSet::new(),
            fetch_missing: false,
            plan_memory: Some(memory),
        };
        let upstream = &upstream;
        async move {
            let mut sink = Sink::new(None);
            search::run(upstream, &plan, &mut sink, &Unlimited, &NoAreaCache, Resume::fresh())
                .await
                .expect("search");
            sink.sent.into_iter().map(|l| l.place_id).collect::<Vec<_>>()
        }
    };

    // Without an estimate before it: every probe is the search's own.
    let alone: &'static ProbesOnly = Box::leak(Box::default());
    let sent_alone = run(alone).await;
    let probes_alone = sim.stats().billable(Sku::TextSearchEssentialsIdsOnly);

    let excluded = HashSet::new();
    let estimate_with = |memory: &'static ProbesOnly, keeps_place_ids: bool| {
        let known = WorkspaceKnows {
            excluded: &excluded,
            memory: Some(memory),
            keeps_place_ids,
        };
        let (upstream, search) = (&upstream, &search);
        async move {
            let limits = EstimateLimits::default();
            search::estimate(
                upstream,
                search,
                &prices,
                &NoAreaCache,
                limits,
                known,
                &mut Requests::default(),
            )
            .await
            .expect("estimate")
        }
    };

    // The estimate, then the search.
    sim.reset();
    let memory: &'static ProbesOnly = Box::leak(Box::default());
    let estimate = estimate_with(memory, true).await;
    assert!(!estimate.exact, "the estimate stopped at its bound: {estimate:?}");
    assert!(estimate.unfinished.is_some(), "where its probes stopped is said");
    let estimated = sim.stats().billable(Sku::TextSearchEssentialsIdsOnly);
    assert!(
        estimated > 0 && estimated < probes_alone,
        "{estimated} of {probes_alone}"
    );
    sim.reset();
    let sent_after = run(memory).await;
    let probes_after = sim.stats().billable(Sku::TextSearchEssentialsIdsOnly);

    eprintln!(
        "{} dentists of {}: a search alone makes {probes_alone} IDs-only requests; after its estimate \
         ({estimated}), {probes_after}",
        truth.len(),
        city.name
    );
    assert_eq!(
        probes_after + estimated,
        probes_alone,
        "no rectangle asked twice: {probes_after} after an estimate of {estimated}, {probes_alone} alone"
    );
    for sent in [&sent_alone, &sent_after] {
        let unique: BTreeSet<String> = sent.iter().cloned().collect();
        assert_eq!(unique.len(), sent.len(), "no place sent twice");
        assert_eq!(unique, truth, "every place");
    }

    // A workspace that keeps no place ids leaves nothing, and its search makes the
    // estimate's probes again: they are in its forecast.
    let none: &'static ProbesOnly = Box::leak(Box::default());
    let kept_nothing = estimate_with(none, false).await;
    assert!(none.0.lock().expect("probes").is_none());
    assert_eq!(kept_nothing.unfinished, None, "nothing left to go on from");
    assert_eq!(
        u64::from(kept_nothing.requests.ids_only),
        u64::from(estimate.requests.ids_only) + estimated,
        "{kept_nothing:?} against {estimate:?}"
    );

    // Its probes go on after it answers (while the user reads it) until the area is all
    // probed: the search then asks Google for no rectangle at all, and sends the same.
    sim.reset();
    let memory: &'static ProbesOnly = Box::leak(Box::default());
    let unfinished = estimate_with(memory, true).await.unfinished.expect("unfinished");
    let estimated = sim.stats().billable(Sku::TextSearchEssentialsIdsOnly);
    let forever = tokio::time::Instant::now() + std::time::Duration::from_secs(3600);
    let kept = search::keep_probing(&upstream, &search, unfinished.clone(), memory, forever).await;
    assert_eq!(kept.ended, search::ProbingEnded::Finished, "{kept:?}");
    assert_eq!(
        estimated + u64::from(kept.requests),
        probes_alone,
        "the estimate and its probes after it ask what the search alone asks: {estimated} + {kept:?}"
    );
    sim.reset();
    let sent_after_reading = run(memory).await;
    assert_eq!(
        sim.stats().billable(Sku::TextSearchEssentialsIdsOnly),
        0,
        "the search probes nothing"
    );
    let unique: BTreeSet<String> = sent_after_reading.iter().cloned().collect();
    assert_eq!(
        (unique.len(), &unique),
        (sent_after_reading.len(), &truth),
        "every place, once"
    );

    // A search that takes the answers stops them at their next write (within a few
    // hundred milliseconds), and one taken before the first probe (a program that
    // searches at once) leaves none.
    // (Google at 200 ms a request here, so that the round is still in flight.)
    let (_slow_sim, slow_client) = simulator(PlacesSim::builder().latency(std::time::Duration::from_millis(200))).await;
    let slow = Upstream {
        client: &slow_client,
        ..upstream
    };
    leave(memory, &unfinished);
    let probing = search::keep_probing(&slow, &search, unfinished.clone(), memory, forever);
    let taking = async {
        tokio::time::sleep(search::FIRST_PROBE_AFTER + std::time::Duration::from_millis(1)).await;
        memory.take_probes(&unfinished.key).await
    };
    let (kept, taken) = futures_util::join!(probing, taking);
    assert!(taken.is_some());
    assert_eq!(kept.ended, search::ProbingEnded::Taken, "{kept:?}");
    assert!(
        (1..=20).contains(&kept.requests),
        "the probes in flight, and those of the next moment: {kept:?}"
    );
    leave(memory, &unfinished);
    assert!(memory.take_probes(&unfinished.key).await.is_some());
    let kept = search::keep_probing(&upstream, &search, unfinished.clone(), memory, forever).await;
    assert_eq!((kept.ended, kept.requests), (search::ProbingEnded::Taken, 0));
    // So does its time bound, before asking anything.
    leave(memory, &unfinished);
    let now = tokio::time::Instant::now();
    let kept = search::keep_probing(&upstream, &search, unfinished, memory, now).await;
    assert_eq!((kept.ended, kept.requests), (search::ProbingEnded::TimedOut, 0));
}

/// Leaves `unfinished`'s answers in `memory`, as its estimate did.
fn leave(memory: &ProbesOnly, unfinished: &search::Unfinished) {
    *memory.0.lock().expect("probes") = Some((unfinished.key.clone(), unfinished.answers.clone()));
}
