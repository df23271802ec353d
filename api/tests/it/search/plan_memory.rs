//! An area's plan remembered (issue #30 item 2) end to end: a second full search of the
//! same query and area runs from the first one's plan (far fewer IDs-only probes, no more
//! lead pages, the same leads), finds what opened in between, falls back to planning
//! where a remembered rectangle now holds more than Google lists, and with
//! `LEADGEN_PLAN_MEMORY_DAYS=0` behaves as before; an estimate's probes, left for its
//! search, and going on after it answered. The completeness meter is off here, so
//! that no place is found by id at the end: what the pages list is what the search finds.

use std::{collections::BTreeSet, time::Duration};

use leadgen_core::ids::WorkspaceId;
use leadgen_testkit::places_sim::{City, PlacesSim, PlacesSimBuilder, SimStats, Sku};
use serde_json::{Value, json};

use super::env::{Mode, SearchEnv, found_ids, last_of};
use crate::both_modes;

/// The city's viewport as a request's `area`.
fn area_of(city: &City) -> Value {
    let v = city.viewport;
    json!({
        "low": {"latitude": v.low.latitude, "longitude": v.low.longitude},
        "high": {"latitude": v.high.latitude, "longitude": v.high.longitude},
    })
}

/// The city (of the simulator's default world) holding the most restaurants, up to 200.
fn city() -> &'static City {
    let world = leadgen_testkit::places_sim::World::new(leadgen_testkit::places_sim::DEFAULT_SEED);
    world
        .cities()
        .iter()
        .filter(|c| (100..=200).contains(&world.places_for(c.name, "restaurant").len()))
        .max_by_key(|c| world.places_for(c.name, "restaurant").len())
        .expect("a city with 100 to 200 restaurants")
}

fn restaurants(env: &SearchEnv, city: &City) -> Vec<String> {
    env.sim
        .world()
        .places_for(city.name, "restaurant")
        .into_iter()
        .map(|p| p.id)
        .collect()
}

async fn start(mode: Mode, sim: PlacesSimBuilder, days: &str) -> SearchEnv {
    SearchEnv::start(
        mode,
        sim,
        1,
        vec![
            ("LEADGEN_COMPLETENESS", "off".to_owned()),
            ("LEADGEN_PLAN_MEMORY_DAYS", days.to_owned()),
        ],
    )
    .await
}

/// Runs the full search of `city`'s restaurants; answers the leads found and what Google
/// was asked (the simulator's counters are reset first).
async fn search(env: &SearchEnv, city: &City) -> (BTreeSet<String>, SimStats, Value) {
    env.sim.reset();
    let (status, events) = env
        .stream_body(json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)}))
        .await;
    assert_eq!(status, 200);
    let ids = found_ids(&events);
    let unique: BTreeSet<String> = ids.iter().cloned().collect();
    assert_eq!(unique.len(), ids.len(), "no lead twice");
    let complete = last_of(&events, "complete").clone();
    assert!(complete.get("stopReason").is_none(), "{complete}");
    (unique, env.sim.stats(), complete)
}

async fn plans_remembered(env: &SearchEnv) -> i64 {
    let workspace = env.workspace().await;
    env.app.state.store.area_plan_count(&workspace).await.expect("count")
}

both_modes!(a_second_full_search_runs_from_the_first_s_plan, |mode| async move {
    let env = start(mode, PlacesSim::builder(), "30").await;
    let city = city();
    let truth: BTreeSet<String> = restaurants(&env, city).into_iter().collect();
    let (first, before, _) = search(&env, city).await;
    assert_eq!(first, truth, "every restaurant of {}", city.name);
    assert_eq!(plans_remembered(&env).await, 1, "the finished plan is remembered");
    let probes_before = before.billable(Sku::TextSearchEssentialsIdsOnly);
    let pages_before = before.billable(Sku::TextSearchEnterprise);

    // The estimate answers from the memory: no probe, the pages the plan takes.
    env.sim.reset();
    let (status, estimate) = env
        .app
        .post(
            "/api/leads/estimate",
            Some(&env.token),
            Some(json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)})),
        )
        .await;
    assert_eq!(status, 200, "{estimate}");
    assert_eq!(
        env.sim.stats().billable(Sku::TextSearchEssentialsIdsOnly),
        0,
        "the estimate probes nothing"
    );
    assert_eq!(estimate["estimatedLeads"].as_u64(), Some(truth.len() as u64));
    let estimated_pages = estimate["requests"]["enterprise"].as_u64().expect("pages");
    assert!(
        estimated_pages < pages_before,
        "{estimated_pages} pages, the first search's {pages_before} less its early page"
    );

    let (second, after, complete) = search(&env, city).await;
    assert_eq!(second, first, "the same leads");
    let probes_after = after.billable(Sku::TextSearchEssentialsIdsOnly);
    let pages_after = after.billable(Sku::TextSearchEnterprise);
    assert!(
        probes_after * 3 <= probes_before,
        "{probes_after} IDs-only requests, the first search made {probes_before}"
    );
    assert!(
        pages_after < pages_before,
        "{pages_after} lead pages, the first search paid {pages_before} (its early page included)"
    );
    assert_eq!(pages_after, estimated_pages, "the estimate from memory is exact");
    assert_eq!(
        complete["cost"]["requests"]["enterprise"].as_u64(),
        Some(pages_after),
        "the cost told is what Google billed"
    );
    assert_eq!(plans_remembered(&env).await, 1, "verified and kept, not added to");
});

both_modes!(a_place_opened_since_the_plan_is_still_found, |mode| async move {
    let city = city();
    let world = leadgen_testkit::places_sim::World::new(leadgen_testkit::places_sim::DEFAULT_SEED);
    let all: Vec<String> = world
        .places_for(city.name, "restaurant")
        .into_iter()
        .map(|p| p.id)
        .collect();
    let opened = all[all.len() / 2].clone();
    let env = start(mode, PlacesSim::builder().unlisted(opened.clone()), "30").await;
    let (first, ..) = search(&env, city).await;
    assert!(!first.contains(&opened), "not listed yet");
    assert_eq!(first.len(), all.len() - 1);

    assert!(env.sim.world().list(&opened), "it opens");
    let (second, ..) = search(&env, city).await;
    assert_eq!(second, all.iter().cloned().collect(), "found from memory too");
});

both_modes!(
    a_remembered_rectangle_that_now_holds_more_than_google_lists_is_planned_afresh,
    |mode| async move {
        let city = city();
        let world = leadgen_testkit::places_sim::World::new(leadgen_testkit::places_sim::DEFAULT_SEED);
        let all: Vec<String> = world
            .places_for(city.name, "restaurant")
            .into_iter()
            .map(|p| p.id)
            .collect();
        // Three in four are not listed yet: the first search finds fewer than Google's
        // 60 and remembers one rectangle, the whole area, fetched once.
        let hidden: Vec<String> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 4 != 0)
            .map(|(_, id)| id.clone())
            .collect();
        let sim = hidden
            .iter()
            .fold(PlacesSim::builder(), |sim, id| sim.unlisted(id.clone()));
        let env = start(mode, sim, "30").await;
        let (first, before, _) = search(&env, city).await;
        assert!(first.len() < 60, "{} listed", first.len());
        assert_eq!(
            before.billable(Sku::TextSearchEnterprise),
            first.len().div_ceil(20) as u64
        );

        for id in &hidden {
            assert!(env.sim.world().list(id));
        }
        // The remembered rectangle now answers at the cap: it is planned afresh.
        let (second, after, _) = search(&env, city).await;
        assert_eq!(second, all.iter().cloned().collect(), "every restaurant, past the cap");
        assert!(
            after.billable(Sku::TextSearchEssentialsIdsOnly) > 3,
            "the rectangle was probed again"
        );
        // Searched once more, the relearned plan is run from, with no place missed.
        let (third, again, _) = search(&env, city).await;
        assert_eq!(third, second);
        assert!(
            again.billable(Sku::TextSearchEssentialsIdsOnly) < after.billable(Sku::TextSearchEssentialsIdsOnly),
            "the relearned plan is used"
        );
    }
);

both_modes!(with_the_memory_off_every_search_plans_afresh, |mode| async move {
    let env = start(mode, PlacesSim::builder(), "0").await;
    let city = city();
    let (first, before, _) = search(&env, city).await;
    let (second, after, _) = search(&env, city).await;
    assert_eq!(first, second);
    assert_eq!(
        after.billable(Sku::TextSearchEssentialsIdsOnly),
        before.billable(Sku::TextSearchEssentialsIdsOnly),
        "the same probes again"
    );
    assert_eq!(
        after.billable(Sku::TextSearchEnterprise),
        before.billable(Sku::TextSearchEnterprise)
    );
    assert_eq!(plans_remembered(&env).await, 0, "nothing remembered");
});

crate::both_backends!(
    plans_past_the_window_are_pruned_for_every_workspace,
    |backend| async move {
        use leadgen_core::search::{PlanKey, tiling::Remembered};
        use sqlx::Connection;

        let app = crate::support::TestApp::start(backend, vec![]).await;
        let (ada, _) = app.sign_in("ada").await;
        let (ben, _) = app.sign_in("ben").await;
        let store = &app.state.store;
        let plan = Remembered {
            fetches: vec![],
            unfetched: vec![],
        };
        for (user, area) in [(&ada, "ada's area"), (&ben, "ben's area")] {
            let key = PlanKey {
                query: "dentists".into(),
                area: area.into(),
            };
            store
                .remember_area_plan(&WorkspaceId::personal(user), &key, &plan, 30)
                .await
                .expect("remember");
        }
        // Ben's plan was learned 31 days ago, and he has not searched since (so no search of
        // his workspace forgets it).
        sqlx::any::install_default_drivers();
        let mut conn = sqlx::AnyConnection::connect(&app._db.url).await.expect("connect");
        sqlx::query("UPDATE area_plans SET planned_at = planned_at - 31 * 86400 WHERE area_digest = 'ben''s area'")
            .execute(&mut conn)
            .await
            .expect("age ben's plan");
        let count = |user| async move {
            store
                .area_plan_count(&WorkspaceId::personal(user))
                .await
                .expect("count")
        };

        assert_eq!(store.prune_area_plans(30).await.expect("prune"), 1);
        assert_eq!(
            (count(&ada).await, count(&ben).await),
            (1, 0),
            "only the stale plan goes"
        );
        assert_eq!(store.prune_area_plans(30).await.expect("prune"), 0);
        assert_eq!(
            store.prune_area_plans(0).await.expect("prune"),
            1,
            "with the memory off, no plan is kept"
        );
        assert_eq!(count(&ada).await, 0);
    }
);

/// The full search of `business_type` in `city` after its estimate: the leads, the
/// IDs-only requests the search made, and the rectangles its planner had answered (the
/// last `progress`' `areasProbed`). Every probe Google answers takes at least one request,
/// so fewer requests than rectangles means some answers were the estimate's.
async fn estimate_then_search(env: &SearchEnv, city: &City, business_type: &str) -> (BTreeSet<String>, u64, u64) {
    let body = json!({"businessType": business_type, "coverage": "full", "area": area_of(city)});
    env.sim.reset();
    let (status, estimate) = env
        .app
        .post("/api/leads/estimate", Some(&env.token), Some(body.clone()))
        .await;
    assert_eq!(status, 200, "{estimate}");
    assert!(
        env.sim.stats().billable(Sku::TextSearchEssentialsIdsOnly) > 0,
        "the estimate probed"
    );
    env.sim.reset();
    let (status, events) = env.stream_body(body).await;
    assert_eq!(status, 200);
    let found: BTreeSet<String> = found_ids(&events).into_iter().collect();
    let probed = last_of(&events, "progress")["areasProbed"]
        .as_u64()
        .expect("areasProbed");
    (
        found,
        env.sim.stats().billable(Sku::TextSearchEssentialsIdsOnly),
        probed,
    )
}

both_modes!(
    a_full_search_after_its_estimate_asks_google_only_what_the_estimate_did_not,
    |mode| async move {
        let env = start(mode, PlacesSim::builder(), "30").await;
        let city = city();
        let truth: BTreeSet<String> = restaurants(&env, city).into_iter().collect();
        let (found, requests, probed) = estimate_then_search(&env, city, "restaurant").await;
        assert_eq!(found, truth, "every restaurant of {}", city.name);
        assert!(probed > 0);
        assert!(
            requests < probed,
            "{requests} IDs-only requests for {probed} rectangles: the estimate's answers were used"
        );

        // A workspace whose place memory is off keeps no place ids: its estimate leaves
        // nothing, and its search asks Google for every rectangle.
        let workspace = env.workspace().await;
        env.app
            .state
            .store
            .set_place_memory(&workspace, false)
            .await
            .expect("place memory off");
        let (_, requests, probed) = estimate_then_search(&env, city, "dentist").await;
        assert!(probed > 0);
        assert!(
            requests >= probed,
            "{requests} IDs-only requests for {probed} rectangles"
        );
    }
);

both_modes!(
    an_estimates_probes_go_on_while_it_is_read_and_its_search_then_probes_nothing,
    |mode| async move {
        let env = SearchEnv::start(
            mode,
            PlacesSim::builder(),
            1,
            vec![
                ("LEADGEN_COMPLETENESS", "off".to_owned()),
                ("LEADGEN_PROBE_AFTER_ESTIMATE_SECS", "20".to_owned()),
                ("LEADGEN_FREE_DAILY_LEADS", "5000".to_owned()),
                // The key's pace is not what is tested: the simulator answers at once.
                ("LEADGEN_PLACES_RPS", "1000".to_owned()),
            ],
        )
        .await;
        // The city with the most dentists (the metro's 1,500): more than the estimate
        // probes within its bound.
        let world = env.sim.world();
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
        let body = json!({"businessType": "dentist", "coverage": "full", "area": area_of(city)});
        let (status, estimate) = env
            .app
            .post("/api/leads/estimate", Some(&env.token), Some(body.clone()))
            .await;
        assert_eq!(status, 200, "{estimate}");
        assert_eq!(
            estimate["exact"], false,
            "the estimate stopped at its bound: {estimate}"
        );
        // While the user reads it, its probes go on to the end of the area.
        let waited = tokio::time::Instant::now();
        while env.app.state.probing.running() > 0 {
            assert!(waited.elapsed() < Duration::from_secs(30), "the probes end");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        env.sim.reset();
        let (status, events) = env.stream_body(body).await;
        assert_eq!(status, 200);
        let found = found_ids(&events);
        let unique: BTreeSet<String> = found.iter().cloned().collect();
        assert_eq!(unique.len(), found.len(), "no dentist twice");
        assert!(unique == truth, "every dentist: {} of {}", unique.len(), truth.len());
        assert_eq!(
            env.sim.stats().billable(Sku::TextSearchEssentialsIdsOnly),
            0,
            "the search probes nothing: the estimate's probes had answered every rectangle"
        );
        assert!(
            last_of(&events, "progress")["areasProbed"]
                .as_u64()
                .expect("areasProbed")
                > 0,
            "its planner had the answers"
        );
    }
);
