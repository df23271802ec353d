//! Full coverage (#11) as users deploy it: release builds, one `leadgen-api` process and a
//! separate `leadgen-worker` process, Postgres and Redis, the Places simulator's metro
//! (1,500 dentists, 3,000 restaurants in Houston) at 300 ms a request, the key paced at
//! Google's default 10 requests a second. Needs Postgres and Redis (like the tests):
//!
//!     cargo bench -p leadgen-api --bench coverage
//!
//! Prints a Markdown report (copied into docs/benchmarks.md): per search, the estimate
//! (figures and time), then the search: recall against the simulator's ground truth,
//! duplicates, requests by SKU, cost per 1,000 leads at list prices, leads a minute, time
//! to the first lead and to `complete`, and the completeness meter's "found of about". A
//! ZIP code of the metro follows: its search sends the code's places only, though its
//! viewport reaches into the codes around it. BENCH_QUICK=1 runs the dentists only.
//!
//! `BENCH_READING_SECS=N` waits N seconds between each estimate and its search, as a user
//! reading the estimate before pressing Search does (default 0: pressed at once). The
//! estimate's probes go on meanwhile (`LEADGEN_PROBE_AFTER_ESTIMATE_SECS`); the search's
//! figures are timed from the press.

#[path = "common/mod.rs"]
mod common;

use std::{
    collections::BTreeSet,
    time::{Duration, Instant},
};

use common::{quick, stack, start_api, start_worker};
use futures_util::StreamExt;
use leadgen_testkit::places_sim::{METRO_CITY, Sku};
use serde_json::{Value, json};

/// Google's latency per request in the simulator.
const LATENCY: Duration = Duration::from_millis(300);
/// Google's default quota: 600 Text Search requests a minute.
const RPS: &str = "10";

/// How long the user reads each estimate before pressing Search (`BENCH_READING_SECS`).
fn reading() -> Duration {
    let secs = std::env::var("BENCH_READING_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Duration::from_secs(secs)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    leadgen_core::install_crypto_provider();
    let mut s = stack(LATENCY, 1, 0, false).await;
    for (k, v) in s.vars.iter_mut() {
        if *k == "LEADGEN_PLACES_RPS" {
            *v = RPS.into();
        }
    }
    let (_api, base) = start_api(&s).await;
    let _worker = start_worker(&s, 4).await;
    let http = reqwest::Client::new();
    let token = s.tokens[0].clone();
    let metro = s.sim.world().city(METRO_CITY).expect("metro");
    let location = format!("{}, {}", metro.name, metro.region);
    let kinds: &[(&str, &str)] = if quick() {
        &[("dentist", "dentists")]
    } else {
        &[("dentist", "dentists"), ("restaurant", "restaurants")]
    };
    println!(
        "| search | places | estimate (time) | leads | recall | dup | requests IDs-only / Pro / Enterprise | floor | cost | $ per 1,000 leads | leads/min | first lead | complete | meter |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (kind, plural) in kinds {
        let truth: BTreeSet<String> = s
            .sim
            .world()
            .truth(kind, &metro.viewport, None)
            .into_iter()
            .map(|p| p.id)
            .collect();
        // The first search plans the area; the second, identical, runs from its plan
        // (`LEADGEN_PLAN_MEMORY_DAYS`, issue #30 item 2).
        for run in ["first", "repeat"] {
            let label = format!("{plural} in {location} ({run}{})", read_note());
            measure(&s, &http, &base, &token, &location, kind, &label, &truth).await;
        }
    }
    if !quick() {
        // The metro's ZIP code with the most restaurants: truth is the places of that code.
        let world = s.sim.world();
        let restaurants = world.truth("restaurant", &metro.viewport, None);
        let zip = metro
            .zip_codes
            .iter()
            .max_by_key(|z| restaurants.iter().filter(|p| p.zip == **z).count())
            .expect("the metro has ZIP codes");
        let truth: BTreeSet<String> = restaurants
            .into_iter()
            .filter(|p| p.zip == *zip)
            .map(|p| p.id)
            .collect();
        let label = format!("restaurants in ZIP {zip} (first{})", read_note());
        measure(&s, &http, &base, &token, zip, "restaurant", &label, &truth).await;
    }
}

/// How a row says the estimate was read before the search, if it was.
fn read_note() -> String {
    match reading().as_secs() {
        0 => String::new(),
        secs => format!(", estimate read {secs} s"),
    }
}

/// Estimates, then runs, the full search of `kind` in `location`, and prints its row.
#[allow(clippy::too_many_arguments)]
async fn measure(
    s: &common::Stack,
    http: &reqwest::Client,
    base: &str,
    token: &str,
    location: &str,
    kind: &str,
    label: &str,
    truth: &BTreeSet<String>,
) {
    let body = json!({"businessType": kind, "location": location, "coverage": "full"});
    s.sim.reset();
    let started = Instant::now();
    let estimate: Value = http
        .post(format!("{base}/api/leads/estimate"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("estimate")
        .json()
        .await
        .expect("estimate json");
    let estimate_time = started.elapsed();
    tokio::time::sleep(reading()).await;

    s.sim.reset();
    let started = Instant::now();
    let response = http
        .post(format!("{base}/api/leads/search-stream"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .expect("search");
    let mut bytes = response.bytes_stream();
    let mut text = String::new();
    let mut first_lead = None;
    while let Some(chunk) = bytes.next().await {
        text.push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
        if first_lead.is_none() && text.contains("business_found") {
            first_lead = Some(started.elapsed());
        }
    }
    let complete = started.elapsed();
    let events: Vec<Value> = text
        .split("\n\n")
        .filter_map(|frame| {
            frame
                .lines()
                .find_map(|l| l.strip_prefix("data:"))
                .and_then(|d| serde_json::from_str(d.trim()).ok())
        })
        .collect();
    let ids: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "business_found")
        .filter_map(|e| e["lead"]["placeId"].as_str())
        .collect();
    let unique: BTreeSet<String> = ids.iter().map(|s| s.to_string()).collect();
    let found = unique.intersection(truth).count();
    let stats = s.sim.stats();
    let (ids_only, pro, enterprise) = (
        stats.billable(Sku::TextSearchEssentialsIdsOnly),
        stats.billable(Sku::TextSearchPro),
        stats.billable(Sku::TextSearchEnterprise),
    );
    let cost = stats.cost_usd.dollars();
    let leads = unique.len().max(1) as f64;
    let meter = events
        .iter()
        .rfind(|e| e["type"] == "complete")
        .map(|e| &e["completeness"])
        .filter(|c| !c.is_null())
        .map_or("none".to_owned(), |c| format!("{} of {}", c["found"], c["expected"]));
    println!(
        "| {label} | {} | {}, ${:.2}, {:.0} s ({:.1} s) | {} | {:.2}% | {} | {ids_only} / {pro} / {enterprise} | {} | ${cost:.2} | ${:.2} | {:.0} | {:.1} s | {:.1} s | {meter} |",
        truth.len(),
        estimate["estimatedLeads"],
        estimate["estimatedCostUsd"].as_f64().unwrap_or_default(),
        estimate["estimatedSeconds"].as_f64().unwrap_or_default(),
        estimate_time.as_secs_f64(),
        unique.len(),
        100.0 * found as f64 / truth.len() as f64,
        ids.len() - unique.len(),
        truth.len().div_ceil(20),
        cost / leads * 1_000.0,
        leads / complete.as_secs_f64() * 60.0,
        first_lead.unwrap_or_default().as_secs_f64(),
        complete.as_secs_f64(),
    );
}
