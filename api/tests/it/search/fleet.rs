//! The worker fleet: a killed worker's search is finished by another, each lead once; and
//! workers sharing a key together stay under that key's rate limit.

use std::{collections::HashSet, time::Duration};

use leadgen_testkit::places_sim::PlacesSim;
use serde_json::Value;

use super::env::{KEY, Mode, SearchEnv};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_worker_s_search_completes_on_another_with_each_lead_once() {
    // Slow pages, so the kill lands mid-search.
    let sim = PlacesSim::builder().latency(Duration::from_millis(700));
    let env = SearchEnv::start(Mode::Distributed, sim, 1, vec![]).await;
    let city = env.dense_city("restaurant", 60);

    let search = env.stream("restaurant", &city);
    // Kill the only worker once it has fetched the first page, mid-way through the second.
    let kill = async {
        for _ in 0..100 {
            if env.sim.stats().requests_for(KEY) >= 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(env.sim.stats().requests_for(KEY) >= 2, "the search started");
        // The second page's request is in flight: its answer is lost with the worker.
        let in_flight = env.sim.stats().in_flight_requests;
        env.kill_worker(0);
        let killed_at = std::time::Instant::now();
        env.spawn_worker().await;
        (in_flight, killed_at)
    };
    let ((status, events), (in_flight_at_kill, killed_at)) = tokio::join!(search, kill);
    assert_eq!(status, 200);
    let events: Vec<Value> = events.into_iter().map(|(_, e)| e).collect();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().expect("type")).collect();
    assert_eq!(types.first(), Some(&"start"));
    assert_eq!(types.last(), Some(&"complete"), "{types:?}");
    assert_eq!(
        types.iter().filter(|t| **t == "start").count(),
        1,
        "one start, though the job ran twice"
    );
    let found: Vec<&Value> = events.iter().filter(|e| e["type"] == "business_found").collect();
    assert_eq!(found.len(), 60, "each lead exactly once");
    let ids: HashSet<&str> = found
        .iter()
        .map(|e| e["lead"]["placeId"].as_str().expect("id"))
        .collect();
    assert_eq!(ids.len(), 60);
    for (i, e) in found.iter().enumerate() {
        assert_eq!(e["found"], i as u64 + 1);
    }
    let stats = env.sim.stats();
    assert!(stats.requests_for(KEY) > 3, "the job really ran twice");
    // Resumed from its checkpoint: the first page was not asked for again; only the page
    // whose answer died with the worker was.
    assert!(
        stats.repeated_requests <= in_flight_at_kill,
        "{} repeated requests, {in_flight_at_kill} in flight at the kill",
        stats.repeated_requests
    );
    assert_eq!(stats.billable_requests, 3 + stats.repeated_requests, "{stats:?}");
    assert!(
        killed_at.elapsed() < Duration::from_secs(12),
        "taken over and finished well within the relay's patience"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_workers_sharing_a_key_stay_under_its_rate_limit() {
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder(),
        3,
        vec![("LEADGEN_PLACES_RPS", "5".into())],
    )
    .await;
    assert_eq!(env.worker_count(), 3);
    let cities: Vec<String> = env
        .sim
        .cities()
        .iter()
        .map(|c| c.name.to_string())
        .filter(|c| env.sim.world().places_for(c, "restaurant").len() >= 60)
        .collect();
    assert!(!cities.is_empty());
    // Nine 3-page searches at once: 27 calls with one key, which must take at least 5.2 s.
    let searches = (0..9).map(|i| env.stream("restaurant", &cities[i % cities.len()]));
    let results = futures_util::future::join_all(searches).await;
    for (status, events) in &results {
        assert_eq!(*status, 200);
        assert_eq!(events.last().expect("events").1["type"], "complete");
    }
    let arrivals = env.sim.requests_for(KEY);
    assert_eq!(arrivals.len(), 27);
    let span = (*arrivals.last().expect("last") - arrivals[0]).as_secs_f64();
    let rate = (arrivals.len() - 1) as f64 / span;
    assert!(
        rate <= 5.0 * 1.05,
        "average {rate:.2}/s over {span:.2}s exceeds 5/s + 5%"
    );
    // Over any 5 s the limit allows 25 calls (+5%: 26); over any 1 s, 5 plus one at the
    // window's closing edge.
    let peak_5s = env.sim.max_requests_in_window(KEY, Duration::from_secs(5));
    assert!(peak_5s <= 26, "{peak_5s} calls in 5 s");
    let peak_1s = env.sim.max_requests_in_window(KEY, Duration::from_secs(1));
    assert!(peak_1s <= 6, "{peak_1s} calls in 1 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_told_to_stop_finishes_its_running_search_first() {
    let sim = PlacesSim::builder().latency(Duration::from_millis(500));
    let env = SearchEnv::start(Mode::Distributed, sim, 0, vec![]).await;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    env.spawn_worker_until(async move {
        let _ = stopped.await;
    })
    .await;
    let city = env.dense_city("restaurant", 60);
    let search = env.stream("restaurant", &city);
    let shut_down = async {
        for _ in 0..100 {
            if env.sim.stats().requests_for(KEY) >= 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = stop.send(()); // SIGTERM, as far as the worker is concerned
    };
    let ((status, events), ()) = tokio::join!(search, shut_down);
    assert_eq!(status, 200);
    let last = &events.last().expect("events").1;
    assert_eq!(
        last["type"], "complete",
        "the running search was finished, not dropped: {last}"
    );
    assert_eq!(last["results"].as_array().expect("results").len(), 60);
    assert_eq!(
        env.sim.stats().requests_for(KEY),
        3,
        "finished by the stopping worker alone"
    );
}
