//! The monthly spend cap on a running search (issue #28 item 7), end to end in both modes:
//! a search that would pass what the cap leaves stops with what it has (`spend_cap`, a
//! notice naming the cap, the history saying so), one that cannot afford a single request
//! stops before any, and once the cap is reached a new search is refused before Google is
//! asked anything; the estimate warns. A search's client label is stored with it.

use leadgen_core::ids::{UserId, WorkspaceId};
use leadgen_testkit::places_sim::{City, PlacesSim, Sku};
use serde_json::{Value, json};

use super::env::{SearchEnv, last_of};
use crate::{
    both_modes,
    spend::{finished_search, this_month},
};

/// Google's list price of a Text Search Enterprise request, US dollars.
const ENTERPRISE: f64 = 0.035;

fn area_of(city: &City) -> Value {
    let v = city.viewport;
    json!({
        "low": {"latitude": v.low.latitude, "longitude": v.low.longitude},
        "high": {"latitude": v.high.latitude, "longitude": v.high.longitude},
    })
}

fn leads_in(events: &[(u64, Value)]) -> usize {
    events.iter().filter(|(_, e)| e["type"] == "business_found").count()
}

async fn set_cap(env: &SearchEnv, workspace: &WorkspaceId, usd: f64) {
    let resp = env
        .app
        .client
        .patch(format!("/api/workspaces/{workspace}"))
        .header("authorization", format!("Bearer {}", env.token))
        .body_json(&json!({"monthlySpendCapUsd": usd}))
        .send()
        .await;
    let status = resp.0.status().as_u16();
    let body = resp.0.into_body().into_string().await.expect("body");
    assert_eq!(status, 200, "{body}");
}

both_modes!(
    a_monthly_spend_cap_stops_a_search_and_then_refuses_the_next,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let (_, listed) = env.app.get("/api/workspaces", Some(&env.token)).await;
        let workspace = WorkspaceId::from(listed["workspaces"][0]["id"].as_str().expect("id").to_owned());
        let user = UserId::from(workspace.as_str().to_owned());
        let city = env
            .sim
            .cities()
            .iter()
            .find(|c| (61..=200).contains(&env.sim.world().places_for(c.name, "restaurant").len()))
            .expect("a city with more than 60 restaurants");
        // Earlier this month the workspace spent $0.03; a cap of $0.13 leaves $0.10: two
        // lead pages ($0.07) fit, a third would pass it.
        finished_search(&env.app, &workspace, &user, &this_month(), None, 1, 0.03).await;
        set_cap(&env, &workspace, 0.13).await;

        let (status, events) = env
            .stream_body(json!({
                "businessType": "restaurant", "coverage": "full", "area": area_of(city),
                "client": " Bright Smile "
            }))
            .await;
        assert_eq!(status, 200, "{events:?}");
        let complete = last_of(&events, "complete");
        assert_eq!(complete["stopReason"], "spend_cap", "{complete}");
        let notice = complete["notice"].as_str().expect("notice");
        assert!(notice.contains("monthly spend cap of $0.13"), "{notice}");
        let billed = env.sim.stats().billable(Sku::TextSearchEnterprise);
        assert!(billed >= 1, "it found what it could before the cap");
        assert!(billed as f64 * ENTERPRISE <= 0.10 + 1e-9, "{billed} lead pages billed");
        assert!(leads_in(&events) > 0);
        let search_id = events[0].1["searchId"].as_str().expect("search id").to_owned();

        // The history says why, and for whom and by whom it ran.
        let (_, entry) = env
            .app
            .get(&format!("/api/leads/searches/{search_id}"), Some(&env.token))
            .await;
        assert_eq!(entry["stopReason"], "spend_cap", "{entry}");
        assert_eq!(entry["client"], "Bright Smile");
        assert_eq!(entry["startedBy"]["userId"], user.as_str());
        let (_, clients) = env.app.get("/api/leads/clients", Some(&env.token)).await;
        assert_eq!(clients["clients"], json!(["Bright Smile"]));

        // A cap that leaves less than one request: the next search stops before any.
        let (_, me) = env.app.get("/api/workspaces", Some(&env.token)).await;
        let spent = me["workspaces"][0]["monthSpendUsd"].as_f64().expect("spend");
        assert!(spent > 0.03 + 1e-9, "the capped search's cost counts: {spent}");
        set_cap(&env, &workspace, (spent * 100.0).ceil() / 100.0 + 0.01).await;
        env.sim.reset();
        let (status, events) = env
            .stream_body(json!({"businessType": "restaurant", "location": city.name}))
            .await;
        assert_eq!(status, 200);
        assert_eq!(last_of(&events, "complete")["stopReason"], "spend_cap");
        assert_eq!(leads_in(&events), 0);
        assert_eq!(env.sim.stats().billable(Sku::TextSearchEnterprise), 0);

        // The estimate says the cap would stop a search.
        let (status, estimate) = env
            .app
            .post(
                "/api/leads/estimate",
                Some(&env.token),
                Some(json!({"businessType": "restaurant", "coverage": "full", "area": area_of(city)})),
            )
            .await;
        assert_eq!(status, 200, "{estimate}");
        assert!(estimate["spendCapLeftUsd"].as_f64().expect("left") < ENTERPRISE);
        assert!(
            estimate["spendCapWarning"]
                .as_str()
                .expect("a warning")
                .contains("would stop there"),
            "{estimate}"
        );

        // Once the month's spend reaches the cap, a search is refused before Google is asked.
        set_cap(&env, &workspace, (spent * 100.0).floor() / 100.0).await;
        env.sim.reset();
        for path in ["/api/leads/search", "/api/leads/search-stream"] {
            let (status, body) = env
                .app
                .post(
                    path,
                    Some(&env.token),
                    Some(json!({"businessType": "restaurant", "location": city.name})),
                )
                .await;
            assert_eq!(
                (status, body["error"].as_str()),
                (403, Some("spend_cap_reached")),
                "{path}: {body}"
            );
            assert!(
                body["message"].as_str().expect("message").contains("monthly spend cap"),
                "{body}"
            );
        }
        assert_eq!(env.sim.stats().search_text_requests, 0, "Google was asked nothing");
        let (_, history) = env.app.get("/api/leads/searches", Some(&env.token)).await;
        assert_eq!(
            history["searches"].as_array().expect("searches").len(),
            3,
            "the refused searches left no entry"
        );
    }
);

// Searches running at once share the cap (docs/decisions.md, "Spend for agencies"): what
// another search of the workspace spends while one runs lowers what is left to it at its
// next page. Here the other search's spend lands while the first page is at Google (the
// simulator holds each answer 400 ms): the cap left three lead pages when the search
// started, the other search then took two of them, so it stops after its first page. A
// cap read only at the start (as before) would have let it fetch all three.
both_modes!(searches_running_at_once_share_the_monthly_cap, |mode| async move {
    let sim = PlacesSim::builder().latency(std::time::Duration::from_millis(400));
    let env = SearchEnv::start(mode, sim, 1, vec![]).await;
    let (_, listed) = env.app.get("/api/workspaces", Some(&env.token)).await;
    let workspace = WorkspaceId::from(listed["workspaces"][0]["id"].as_str().expect("id").to_owned());
    let user = UserId::from(workspace.as_str().to_owned());
    let city = env
        .sim
        .cities()
        .iter()
        .find(|c| env.sim.world().places_for(c.name, "restaurant").len() > 60)
        .expect("a city with more than 60 restaurants (three pages of a quick search)");
    // $0.11 leaves three lead pages ($0.105), not four.
    set_cap(&env, &workspace, 0.11).await;

    let meanwhile = async {
        // The first page's request has reached Google: another search of the workspace
        // records what it has spent so far, two pages' worth.
        while env.sim.stats().search_text_requests == 0 {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        finished_search(&env.app, &workspace, &user, &this_month(), None, 1, 2.0 * ENTERPRISE).await;
    };
    let ((status, events), ()) = tokio::join!(
        env.stream_body(json!({"businessType": "restaurant", "location": city.name})),
        meanwhile
    );
    assert_eq!(status, 200, "{events:?}");
    let complete = last_of(&events, "complete");
    assert_eq!(complete["stopReason"], "spend_cap", "{complete}");
    assert_eq!(
        env.sim.stats().billable(Sku::TextSearchEnterprise),
        1,
        "one page, then the cap the other search left stopped it"
    );
    assert_eq!(leads_in(&events), 20);
});
