//! Full coverage (#11) end to end: recall and cost against the simulator's ground truth,
//! sparse areas, budgets, filters, the lead allowance, the estimate and bad input, in
//! both modes.

use std::collections::{BTreeSet, HashSet};

use leadgen_testkit::places_sim::{City, PlacesSim, Sku};
use serde_json::{Value, json};

use super::env::{Mode, SearchEnv, found_ids, last_of};
use crate::both_modes;

/// Google's list price of a Text Search Enterprise request, US dollars.
const ENTERPRISE: f64 = 0.035;

/// The city's viewport as a request's `area`.
fn area_of(city: &City) -> Value {
    let v = city.viewport;
    json!({
        "low": {"latitude": v.low.latitude, "longitude": v.low.longitude},
        "high": {"latitude": v.high.latitude, "longitude": v.high.longitude},
    })
}

/// A city holding more than `min` and at most `max` places of `place_type`.
fn city_with(sim: &PlacesSim, place_type: &str, min: usize, max: usize) -> &'static City {
    sim.cities()
        .iter()
        .filter(|c| {
            let n = sim.world().places_for(c.name, place_type).len();
            n > min && n <= max
        })
        .max_by_key(|c| sim.world().places_for(c.name, place_type).len())
        .unwrap_or_else(|| panic!("a city with {min}..={max} places of {place_type}"))
}

both_modes!(
    finds_every_place_in_the_area_once_for_close_to_the_floor,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 2, vec![]).await;
        let city = city_with(&env.sim, "restaurant", 60, 200);
        let truth: BTreeSet<String> = env
            .sim
            .world()
            .places_for(city.name, "restaurant")
            .into_iter()
            .map(|p| p.id)
            .collect();
        let (status, events) = env
            .stream_body(json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)}))
            .await;
        assert_eq!(status, 200);
        let ids = found_ids(&events);
        let unique: HashSet<&String> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "no lead twice");
        assert_eq!(
            ids.iter().cloned().collect::<BTreeSet<_>>(),
            truth,
            "every restaurant of {} (more than Google's 60), none from elsewhere",
            city.name
        );
        let complete = last_of(&events, "complete");
        assert_eq!(complete["results"].as_array().expect("results").len(), truth.len());
        assert!(complete.get("stopReason").is_none() && complete.get("notice").is_none());
        // What Google billed: free probes, no Pro (an explicit area needs no locate), and
        // lead pages within 2 of the floor.
        let stats = env.sim.stats();
        let enterprise = stats.billable(Sku::TextSearchEnterprise);
        let floor = truth.len().div_ceil(20) as u64;
        assert!(
            enterprise <= floor + 2,
            "{enterprise} lead pages for a floor of {floor}"
        );
        assert_eq!(stats.billable(Sku::TextSearchPro), 0);
        assert!(
            stats.billable(Sku::TextSearchEssentialsIdsOnly) > 3,
            "the area was probed"
        );
        // The cost the user is told is what Google billed, at list prices: the lead pages
        // and the completeness meter's one count of the area.
        let aggregate = stats.billable(Sku::PlacesAggregate);
        assert_eq!(aggregate, 1, "one count of the area");
        let cost = &complete["cost"];
        assert_eq!(cost["requests"]["enterprise"].as_u64(), Some(enterprise));
        assert_eq!(cost["requests"]["aggregate"].as_u64(), Some(aggregate));
        assert_eq!(cost["billableRequests"].as_u64(), Some(enterprise + aggregate));
        let usd = cost["costUsd"].as_f64().expect("costUsd");
        let count_price = leadgen_core::search::PriceTable::default().per_request(leadgen_core::search::Sku::Aggregate);
        assert!(
            (usd - (enterprise as f64 * ENTERPRISE + count_price)).abs() < 1e-9,
            "{usd}"
        );
        // Progress went along, and its last word matches the end.
        let progress = last_of(&events, "progress");
        assert_eq!(progress["leads"].as_u64(), Some(truth.len() as u64));
        assert_eq!(progress["costUsd"].as_f64(), Some(usd));
        assert_eq!(progress["estimatedCostUsd"].as_f64(), Some(usd), "exact once done");
        // Usage counts the leads delivered, nothing reserved is left over.
        let usage = &complete["usage"]["usage"];
        assert_eq!(usage["leadsToday"].as_u64(), Some(truth.len() as u64));
        assert_eq!(usage["current"].as_u64(), Some(1), "one search");

        // Same query, same area: the same set of leads.
        let (_, again) = env
            .stream_body(json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)}))
            .await;
        assert_eq!(found_ids(&again).into_iter().collect::<BTreeSet<_>>(), truth);
    }
);

both_modes!(a_sparse_area_costs_what_a_quick_search_does, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let city = city_with(&env.sim, "funeral_home", 0, 59);
    let truth = env.sim.world().places_for(city.name, "funeral_home");
    let (_, events) = env
        .stream_body(json!({"businessType": "funeral_home", "coverage": "full", "area": area_of(city)}))
        .await;
    assert_eq!(found_ids(&events).len(), truth.len());
    let stats = env.sim.stats();
    let pages = truth.len().div_ceil(20) as u64;
    assert_eq!(
        stats.billable(Sku::TextSearchEnterprise),
        pages,
        "one rectangle, fetched once: the pages of a quick search"
    );
    assert_eq!(
        stats.billable(Sku::TextSearchEssentialsIdsOnly),
        pages,
        "one free probe"
    );
});

both_modes!(a_budget_is_never_exceeded, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let city = city_with(&env.sim, "restaurant", 60, 200);
    // Two lead pages cost $0.07; a third would pass $0.10.
    let (_, events) = env
        .stream_body(json!({
            "businessType": "restaurant", "coverage": "full", "area": area_of(city), "maxCostUsd": 0.1
        }))
        .await;
    let complete = last_of(&events, "complete");
    assert_eq!(complete["stopReason"], "max_cost");
    assert!(
        complete["notice"].as_str().expect("notice").contains("$0.10"),
        "{complete}"
    );
    let billed = env.sim.stats().billable(Sku::TextSearchEnterprise);
    assert!(billed as f64 * ENTERPRISE <= 0.1, "{billed} lead pages billed");
    assert!(complete["cost"]["costUsd"].as_f64().expect("cost") <= 0.1);
    let ids = found_ids(&events);
    assert!(
        !ids.is_empty() && ids.len() <= 40,
        "{} leads for at most 2 pages",
        ids.len()
    );
    assert_eq!(
        complete["usage"]["usage"]["leadsToday"].as_u64(),
        Some(ids.len() as u64)
    );

    // A quick search keeps a budget too: one page fits $0.05, a second does not.
    env.sim.reset();
    let (_, events) = env
        .stream_body(json!({"businessType": "restaurant", "location": city.name, "maxCostUsd": 0.05}))
        .await;
    assert_eq!(last_of(&events, "complete")["stopReason"], "max_cost");
    assert_eq!(env.sim.stats().billable(Sku::TextSearchEnterprise), 1);
    assert_eq!(found_ids(&events).len(), 20);
});

both_modes!(
    filters_send_only_matching_leads_and_count_only_those,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let city = city_with(&env.sim, "restaurant", 60, 200);
        let truth: BTreeSet<String> = env
            .sim
            .world()
            .places_for(city.name, "restaurant")
            .into_iter()
            .filter(|p| {
                p.website_uri.is_none()
                    && p.national_phone_number.is_some()
                    && p.rating.is_some_and(|r| r >= 4.2)
                    && p.user_rating_count.is_some_and(|n| n >= 5)
            })
            .map(|p| p.id)
            .collect();
        assert!(!truth.is_empty(), "the city holds some matches");
        let (status, events) = env
            .stream_body(json!({
                "businessType": "restaurant", "coverage": "full", "area": area_of(city),
                "website": "without", "phone": "with", "minRating": 4.2, "minReviews": 5
            }))
            .await;
        assert_eq!(status, 200);
        let ids: BTreeSet<String> = found_ids(&events).into_iter().collect();
        assert_eq!(ids, truth, "exactly the matching places");
        let complete = last_of(&events, "complete");
        assert_eq!(
            complete["usage"]["usage"]["leadsToday"].as_u64(),
            Some(truth.len() as u64),
            "leads a filter drops do not count"
        );
    }
);

both_modes!(the_allowance_ends_a_search_with_what_fitted, |mode| async move {
    let env = SearchEnv::start(
        mode,
        PlacesSim::builder(),
        1,
        vec![("LEADGEN_FREE_DAILY_LEADS", "70".into())],
    )
    .await;
    let city = city_with(&env.sim, "restaurant", 80, 200);
    let truth = env.sim.world().places_for(city.name, "restaurant").len();
    let body = json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)});
    // Warned before it starts.
    let (status, estimate) = env
        .app
        .post("/api/leads/estimate", Some(&env.token), Some(body.clone()))
        .await;
    assert_eq!(status, 200, "{estimate}");
    assert_eq!(estimate["leadsLeftToday"].as_i64(), Some(70));
    assert_eq!(
        estimate["allowanceWarning"].as_str(),
        Some(
            format!(
                "Today's allowance leaves 70 leads: this search would stop at 70 of about {}. It resets at midnight UTC.",
                leadgen_core::usage::thousands(truth as u64)
            )
            .as_str()
        ),
        "{estimate}"
    );
    let (_, events) = env.stream_body(body).await;
    let complete = last_of(&events, "complete");
    assert_eq!(complete["stopReason"], "allowance");
    let notice = complete["notice"].as_str().expect("notice");
    let of_about: u64 = notice
        .strip_prefix("Stopped: daily limit reached (70 of about ")
        .and_then(|rest| rest.split(')').next())
        .map(|n| n.replace(',', ""))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the notice says where it stopped and of how many: {notice}"));
    assert!(of_about >= 80, "of about {of_about}: the area holds at least 80");
    assert!(notice.contains("70 leads"), "{notice}");
    // The history says it stopped, and why.
    let search_id = events[0].1["searchId"].as_str().expect("search id").to_owned();
    let (_, entry) = env
        .app
        .get(&format!("/api/leads/searches/{search_id}"), Some(&env.token))
        .await;
    assert_eq!(entry["stopReason"], "allowance", "{entry}");
    assert_eq!(entry["leads"].as_u64(), Some(70));
    assert_eq!(found_ids(&events).len(), 70, "what fitted went out");
    assert_eq!(complete["usage"]["usage"]["leadsToday"].as_u64(), Some(70));
    // Nothing left today.
    let (status, body) = env
        .app
        .post(
            "/api/leads/search-stream",
            Some(&env.token),
            Some(json!({"businessType": "cafe", "location": city.name})),
        )
        .await;
    assert_eq!(status, 429, "{body}");
});

both_modes!(the_estimate_matches_the_search, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let city = city_with(&env.sim, "restaurant", 60, 200);
    let truth = env.sim.world().places_for(city.name, "restaurant").len();
    let body = json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)});
    let (status, estimate) = env
        .app
        .post("/api/leads/estimate", Some(&env.token), Some(body.clone()))
        .await;
    assert_eq!(status, 200, "{estimate}");
    assert_eq!(estimate["estimatedLeads"].as_u64(), Some(truth as u64));
    assert_eq!(estimate["exact"], true);
    let stats = env.sim.stats();
    assert_eq!(
        stats.billable(Sku::TextSearchEnterprise) + stats.billable(Sku::TextSearchPro),
        0,
        "an estimate of an explicit area costs nothing"
    );
    // The completeness meter: one Places Aggregate call, the estimate's only cost.
    assert_eq!(estimate["completeness"]["source"], "google_aggregate", "{estimate}");
    assert_eq!(estimate["completeness"]["expected"].as_u64(), Some(truth as u64));
    assert_eq!(stats.billable(Sku::PlacesAggregate), 1);
    assert_eq!(estimate["spent"]["requests"]["aggregate"].as_u64(), Some(1));
    assert_eq!(estimate["spent"]["costUsd"].as_f64(), Some(0.01));
    assert_eq!(
        estimate["requests"]["aggregate"].as_u64(),
        Some(1),
        "the search counts its area once more, for its own meter"
    );
    assert!(estimate["estimatedSeconds"].as_f64().expect("seconds") > 0.0);
    env.sim.reset();
    let (_, events) = env.stream_body(body).await;
    let cost = &last_of(&events, "complete")["cost"];
    assert_eq!(estimate["requests"]["enterprise"], cost["requests"]["enterprise"]);
    assert_eq!(estimate["estimatedCostUsd"], cost["costUsd"]);
    // The meter is honest: Google's count is what the full search of the area found.
    let found: HashSet<String> = found_ids(&events).into_iter().collect();
    assert_eq!(
        estimate["completeness"]["expected"].as_u64(),
        Some(found.len() as u64),
        "the count equals the full search's finds"
    );
    // The estimate used no allowance.
    let (_, usage) = env.app.get("/api/leads/usage", Some(&env.token)).await;
    assert_eq!(usage["data"]["usage"]["current"].as_u64(), Some(1));

    // A quick search's estimate: one free probe of its query.
    let (status, quick) = env
        .app
        .post(
            "/api/leads/estimate",
            Some(&env.token),
            Some(json!({"businessType": "restaurant", "location": city.name})),
        )
        .await;
    assert_eq!(status, 200, "{quick}");
    assert_eq!(quick["estimatedLeads"].as_u64(), Some(60));
    assert!(
        quick["completeness"].is_null(),
        "a quick search of a named location has no known area: {quick}"
    );
    assert_eq!(quick["requests"]["enterprise"].as_u64(), Some(3));
    assert!((quick["estimatedCostUsd"].as_f64().expect("cost") - 3.0 * ENTERPRISE).abs() < 1e-9);
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_options_get_specific_errors() {
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder(), 0, vec![]).await;
    let base = json!({"businessType": "dentist", "location": "Austin, TX"});
    let with = |field: &str, value: Value| {
        let mut body = base.clone();
        body[field] = value;
        body
    };
    let cases = [
        (with("maxCostUsd", json!(-1)), "maxCostUsd must be an amount"),
        (with("minRating", json!(7)), "minRating must be between 0 and 5"),
        (with("minReviews", json!(-3)), "minReviews must be a whole number"),
        (
            with(
                "area",
                json!({"low": {"latitude": 30.5, "longitude": -97.0}, "high": {"latitude": 30.0, "longitude": -96.0}}),
            ),
            "low corner must be south-west",
        ),
        (
            with(
                "area",
                json!({"low": {"latitude": 20.0, "longitude": -100.0}, "high": {"latitude": 30.0, "longitude": -90.0}}),
            ),
            "The area is too large",
        ),
        (
            with(
                "area",
                json!({"center": {"latitude": 30.0, "longitude": -97.0}, "radiusMeters": 80000}),
            ),
            "radiusMeters must be above 0",
        ),
        (
            with("area", json!({"center": {"latitude": 30.0, "longitude": -97.0}})),
            "area must be a rectangle",
        ),
        (
            with("coverage", json!("everything")),
            "Coverage must be one of \"quick\", \"full\".",
        ),
        (
            with("website", json!("maybe")),
            "Website must be one of \"any\", \"with\", \"without\".",
        ),
        (
            json!({"businessType": "dentist", "coverage": "full"}),
            "Please select a business type and enter a location",
        ),
    ];
    for (body, expected) in cases {
        for path in ["/api/leads/search-stream", "/api/leads/estimate"] {
            let (status, answer) = env.app.post(path, Some(&env.token), Some(body.clone())).await;
            assert_eq!(status, 400, "{path} {body}: {answer}");
            let message = answer["message"].as_str().unwrap_or_default();
            assert!(message.contains(expected), "{path} {body}: {message}");
        }
    }
    assert_eq!(env.sim.stats().search_text_requests, 0, "nothing reached Google");
    let (_, usage) = env.app.get("/api/leads/usage", Some(&env.token)).await;
    assert_eq!(
        usage["data"]["usage"]["current"].as_u64(),
        Some(0),
        "nothing was counted"
    );
}

both_modes!(a_circle_keeps_only_places_inside_it, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let city = city_with(&env.sim, "restaurant", 60, 200);
    let center = city.viewport.center();
    let radius = 4_000.0;
    let truth: BTreeSet<String> = env
        .sim
        .world()
        .places_for(city.name, "restaurant")
        .into_iter()
        .filter(|p| p.location.distance_m(center) <= radius)
        .map(|p| p.id)
        .collect();
    assert!(truth.len() > 5, "the centre holds places");
    let (_, events) = env
        .stream_body(json!({
            "businessType": "restaurant", "coverage": "full",
            "area": {"center": {"latitude": center.latitude, "longitude": center.longitude}, "radiusMeters": radius}
        }))
        .await;
    let ids: BTreeSet<String> = found_ids(&events).into_iter().collect();
    assert_eq!(ids, truth, "inside the circle, not its bounding box's corners");
    assert_eq!(
        last_of(&events, "start")["location"]
            .as_str()
            .map(|l| l.starts_with("within 4000 m")),
        Some(true)
    );
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_worker_s_full_search_resumes_without_billing_a_tile_twice() {
    use futures_util::StreamExt;
    // Slow answers, so the kill lands between fetched tiles.
    let sim = PlacesSim::builder().latency(std::time::Duration::from_millis(150));
    let env = SearchEnv::start(Mode::Distributed, sim, 1, vec![]).await;
    let city = city_with(&env.sim, "restaurant", 60, 200);
    let truth: BTreeSet<String> = env
        .sim
        .world()
        .places_for(city.name, "restaurant")
        .into_iter()
        .map(|p| p.id)
        .collect();
    let body = json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)});

    // Read the stream as it comes; kill the only worker once a tile's leads arrived.
    let resp = env
        .app
        .client
        .post("/api/leads/search-stream")
        .header("authorization", format!("Bearer {}", env.token))
        .body_json(&body)
        .send()
        .await;
    assert_eq!(resp.0.status().as_u16(), 200);
    let mut chunks = resp.0.into_body().into_bytes_stream();
    let mut text = String::new();
    let mut billed_at_kill = None;
    let read = async {
        while let Some(chunk) = chunks.next().await {
            text.push_str(&String::from_utf8_lossy(&chunk.expect("chunk")));
            if billed_at_kill.is_none() && text.contains("business_found") {
                // Requests in flight are billed too (Google bills work it did), though
                // their answers die with the worker.
                let stats = env.sim.stats();
                billed_at_kill = Some(stats.billable(Sku::TextSearchEnterprise) + stats.in_flight_requests);
                env.kill_worker(0);
                env.spawn_worker().await;
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(120), read)
        .await
        .expect("the stream ends");
    let billed_at_kill = billed_at_kill.expect("leads arrived before the end");
    let events = super::env::parse_sse(&text);
    let ids = found_ids(&events);
    assert_eq!(ids.len(), truth.len(), "each lead once");
    assert_eq!(ids.into_iter().collect::<BTreeSet<_>>(), truth, "every lead");
    assert_eq!(
        events.iter().filter(|(_, e)| e["type"] == "start").count(),
        1,
        "one start though the job ran twice"
    );
    assert_eq!(
        last_of(&events, "complete")["results"].as_array().map(Vec::len),
        Some(truth.len())
    );
    let interrupted = env.sim.stats().billable(Sku::TextSearchEnterprise);

    // The same search without a kill, for what it takes.
    env.sim.reset();
    let (_, again) = env.stream_body(body).await;
    assert_eq!(found_ids(&again).len(), truth.len());
    let uninterrupted = env.sim.stats().billable(Sku::TextSearchEnterprise);
    // Pages asked twice can only be pages of tiles still in flight at the kill: at least
    // one tile (one page or more) was done and its leads sent, and it was not fetched
    // again (if it had been, everything billed before the kill would be billed twice).
    assert!(
        interrupted - uninterrupted < billed_at_kill,
        "{interrupted} lead pages with a kill, {uninterrupted} without, {billed_at_kill} billed at the kill"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_metro_by_name_every_dentist_near_the_floor_and_located_once() {
    // A fast key, so 1,500 places take seconds here (the benchmark measures at 10/s).
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder().rpm_quota(1_000_000),
        1,
        vec![
            ("LEADGEN_PLACES_RPS", "400".into()),
            // A whole metro in one go: past the free plan's 1,000 leads a day.
            ("LEADGEN_FREE_DAILY_LEADS", "0".into()),
        ],
    )
    .await;
    let metro = env
        .sim
        .world()
        .city(leadgen_testkit::places_sim::METRO_CITY)
        .expect("the metro");
    let truth: BTreeSet<String> = env
        .sim
        .world()
        .truth("dentist", &metro.viewport, None)
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert!(truth.len() >= 1_000, "a dense metro");
    let location = format!("{}, {}", metro.name, metro.region);

    let (status, estimate) = env
        .app
        .post(
            "/api/leads/estimate",
            Some(&env.token),
            Some(json!({"businessType": "dentist", "location": location, "coverage": "full"})),
        )
        .await;
    assert_eq!(status, 200, "{estimate}");
    let estimated = estimate["estimatedLeads"].as_f64().expect("leads");
    let n = truth.len() as f64;
    // Google's count of the metro stands in for the regions the probes did not reach
    // (issue #30 item 4: within 10%).
    assert_eq!(estimate["completeness"]["expected"].as_f64(), Some(n), "{estimate}");
    assert!(
        (estimated / n - 1.0).abs() <= 0.10,
        "estimated {estimated} for {n} dentists"
    );
    assert_eq!(env.sim.stats().billable(Sku::TextSearchPro), 1, "located once");
    assert_eq!(estimate["exact"], false, "a metro is past the estimate's probing bound");
    // Answered within 3 s at Google's default 10 requests a second: at most 20 probes.
    let probes = env.sim.stats().billable(Sku::TextSearchEssentialsIdsOnly);
    assert!(probes <= 20, "{probes} probe requests");
    let estimated_cost = estimate["estimatedCostUsd"].as_f64().expect("cost");

    env.sim.reset();
    let (_, events) = env
        .stream_body(json!({"businessType": "dentist", "location": location, "coverage": "full"}))
        .await;
    let ids = found_ids(&events);
    let unique: BTreeSet<String> = ids.iter().cloned().collect();
    assert_eq!(unique.len(), ids.len(), "no lead twice");
    assert!(unique.is_subset(&truth), "nothing outside the area or of another type");
    let recall = unique.len() as f64 / n;
    assert!(recall >= 0.99, "recall {recall:.4} ({} of {n})", unique.len());
    let stats = env.sim.stats();
    assert_eq!(stats.billable(Sku::TextSearchPro), 0, "the area came from the cache");
    let enterprise = stats.billable(Sku::TextSearchEnterprise) as f64;
    let floor = (n / 20.0).ceil();
    let usd_per_1000 = enterprise * ENTERPRISE / unique.len() as f64 * 1_000.0;
    eprintln!(
        "metro: {} of {n} dentists, {enterprise} lead pages (floor {floor}), ${usd_per_1000:.3} per 1,000 leads, {} free probe requests",
        unique.len(),
        stats.billable(Sku::TextSearchEssentialsIdsOnly)
    );
    assert!(usd_per_1000 <= 2.0, "${usd_per_1000:.3} per 1,000 leads");
    let complete = last_of(&events, "complete");
    assert_eq!(complete["results"].as_array().map(Vec::len), Some(unique.len()));
    let cost = complete["cost"]["costUsd"].as_f64().expect("the search's cost");
    eprintln!(
        "metro estimate: {estimated} leads, ${estimated_cost} in {probes} probe requests; the search: {} leads, ${cost}",
        unique.len()
    );
    assert!(
        (estimated_cost / cost - 1.0).abs() <= 0.10,
        "estimated ${estimated_cost} for a search that cost ${cost}"
    );
}

both_modes!(a_place_google_cannot_find_gets_a_clear_message, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let (status, events) = env
        .stream_body(json!({"businessType": "dentist", "location": "Atlantis", "coverage": "full"}))
        .await;
    assert_eq!(status, 200);
    let error = last_of(&events, "error");
    assert!(
        error["message"]
            .as_str()
            .expect("message")
            .contains("We could not find \"Atlantis\""),
        "{error}"
    );
    let (status, answer) = env
        .app
        .post(
            "/api/leads/estimate",
            Some(&env.token),
            Some(json!({"businessType": "dentist", "location": "Atlantis", "coverage": "full"})),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(answer["error"], "invalid_location");
});
