//! Contact enrichment in the pipeline as users deploy it: release builds, one `leadgen-api`
//! process and a separate `leadgen-worker` process, Postgres and Redis, the Places
//! simulator at 300 ms a page with its websites on the fake web (testkit `fake_web`,
//! in this process). Needs Postgres and Redis (like the tests):
//!
//!     cargo bench -p leadgen-api --bench enrich
//!
//! Prints a Markdown report (copied into docs/benchmarks.md): for 60-lead searches in
//! different cities, each run plain and enriched (alternating which goes first), the time
//! from the request to `complete`, the time enrichment added, and the share of leads with
//! a website whose site gave an email. BENCH_QUICK=1 runs 4 cities instead of 12.
//!
//! Every site of the fake web shares one host, so the crawler's per-host limit (4 requests
//! at a time, per worker process) applies to a whole search's sites at once: on the real
//! web, where each business has its own host, sites are read with more parallelism.

#[path = "common/mod.rs"]
mod common;

use std::{
    net::SocketAddr,
    time::{Duration, Instant},
};

use common::{percentile, quick, stack_with, start_api, start_worker};
use futures_util::StreamExt;
use leadgen_testkit::{fake_web::FakeWeb, places_sim::PlacesSim};
use serde_json::{Value, json};

/// Google's page latency in the simulator.
const PAGE_LATENCY: Duration = Duration::from_millis(300);

/// One streamed search to its end: time to `complete`, and the `complete` event.
async fn timed_search(http: &reqwest::Client, base: &str, token: &str, city: &str, enrich: bool) -> (Duration, Value) {
    let started = Instant::now();
    let mut body = json!({"businessType": "restaurant", "location": city});
    if enrich {
        body["enrich"] = json!(true);
    }
    let resp = http
        .post(format!("{base}/api/leads/search-stream"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("send");
    assert!(resp.status().is_success(), "{}", resp.status());
    let mut stream = resp.bytes_stream();
    let mut buffer = String::new();
    while let Some(chunk) = stream.next().await {
        buffer.push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            let Some(data) = frame.lines().find_map(|l| l.strip_prefix("data:")) else {
                continue;
            };
            let event: Value = serde_json::from_str(data.trim()).expect("event");
            match event["type"].as_str() {
                Some("complete") => return (started.elapsed(), event),
                Some("error") => panic!("search failed: {event}"),
                _ => {}
            }
        }
    }
    panic!("the stream ended without complete");
}

fn main() {
    leadgen_core::install_crypto_provider();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let web = FakeWeb::start(SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .expect("fake web");
        let s = stack_with(
            PlacesSim::builder().fake_web(web.base_url.clone()),
            PAGE_LATENCY,
            1,
            0,
            false,
            vec![("LEADGEN_OUTBOUND_ALLOWED_HOSTS", web.host_port())],
        )
        .await;
        let (_api, base) = start_api(&s).await;
        let _worker = start_worker(&s, 16).await;
        let http = reqwest::Client::new();
        let token = &s.tokens[0];
        let cities: Vec<String> = s
            .sim
            .cities()
            .iter()
            .map(|c| c.name.to_string())
            .filter(|name| s.sim.world().places_for(name, "restaurant").len() >= 60)
            .take(if quick() { 5 } else { 13 })
            .collect();
        let (warm, cities) = cities.split_first().expect("a city with 60 restaurants");
        // Warm-up: connections, the fake web's robots.txt in the crawler's cache.
        timed_search(&http, &base, token, warm, false).await;
        timed_search(&http, &base, token, warm, true).await;

        let (mut plain, mut enriched, mut added) = (Vec::new(), Vec::new(), Vec::new());
        let (mut with_site, mut with_email) = (0, 0);
        for (i, city) in cities.iter().enumerate() {
            let (p, e) = if i % 2 == 0 {
                let p = timed_search(&http, &base, token, city, false).await;
                (p, timed_search(&http, &base, token, city, true).await)
            } else {
                let e = timed_search(&http, &base, token, city, true).await;
                (timed_search(&http, &base, token, city, false).await, e)
            };
            let results = e.1["results"].as_array().expect("results");
            assert_eq!(results.len(), 60, "a 60-lead search in {city}");
            for lead in results {
                if lead["website"].as_str().is_some_and(|w| !w.is_empty()) {
                    with_site += 1;
                    if lead["contacts"]["emails"].as_array().is_some_and(|a| !a.is_empty()) {
                        with_email += 1;
                    }
                }
            }
            let extra = e.0.as_secs_f64() - p.0.as_secs_f64();
            eprintln!(
                "{city}: plain {:.2} s, enriched {:.2} s, added {extra:.2} s",
                p.0.as_secs_f64(),
                e.0.as_secs_f64()
            );
            plain.push(p.0.as_secs_f64());
            enriched.push(e.0.as_secs_f64());
            added.push(extra);
        }
        for v in [&mut plain, &mut enriched, &mut added] {
            v.sort_by(f64::total_cmp);
        }
        let stats = web.stats();
        println!(
            "\n{} searches of 60 restaurants each way, simulator {} ms a page, 1 worker process (16 slots)\n\n\
             | measure | p50 | max |\n|---|---|---|\n\
             | plain search, request to `complete` | {:.2} s | {:.2} s |\n\
             | enriched search, request to `complete` | {:.2} s | {:.2} s |\n\
             | time enrichment added (same city, enriched minus plain) | {:.2} s | {:.2} s |\n\n\
             Leads with a website whose site gave an email: {with_email} of {with_site} ({:.0}%). \
             Requests to the fake web: {}; to its refused-address trap: {}.",
            cities.len(),
            PAGE_LATENCY.as_millis(),
            percentile(&plain, 0.5),
            plain.last().copied().unwrap_or_default(),
            percentile(&enriched, 0.5),
            enriched.last().copied().unwrap_or_default(),
            percentile(&added, 0.5),
            added.last().copied().unwrap_or_default(),
            100.0 * f64::from(with_email) / f64::from(with_site.max(1)),
            stats.requests,
            stats.trap_hits,
        );
    });
}
