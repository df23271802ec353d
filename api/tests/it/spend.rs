//! Spend for agencies (issue #28 item 7): client labels (validated, stored, filtered),
//! a month's searches, leads and cost by member and by client, and the owner's monthly
//! spend cap (only an owner sets it; validated; shown with the month's spend). Each case
//! on SQLite and on Postgres. The cap's effect on running searches is in
//! `search::spend` (it needs the Places simulator).

use leadgen_core::{
    ids::{SearchId, UserId, WorkspaceId},
    search::SearchStatus,
    spend::ClientLabel,
    store::{LookupKind, SearchRecord},
    workspace::Role,
};
use serde_json::{Value, json};

use crate::{both_backends, support::TestApp};

/// One call in `workspace` (the shared helper, with a typed id).
async fn call(
    app: &TestApp,
    method: &str,
    path: &str,
    token: &str,
    workspace: Option<&WorkspaceId>,
    body: Option<Value>,
) -> (u16, Value) {
    super::workspaces::call(app, method, path, token, workspace.map(WorkspaceId::as_str), body).await
}

/// This month (UTC), as searches record it.
pub fn this_month() -> String {
    leadgen_core::usage::periods(chrono::Utc::now()).month
}

/// A finished search of `user` in `workspace`, as the worker leaves one: `leads`
/// delivered, `cost` dollars on the key, for `client`.
pub async fn finished_search(
    app: &TestApp,
    workspace: &WorkspaceId,
    user: &UserId,
    month: &str,
    client: Option<&str>,
    leads: i64,
    cost: f64,
) -> SearchId {
    let store = &app.state.store;
    let id = SearchId::time_ordered();
    store
        .create_search(&SearchRecord {
            id: id.clone(),
            user_id: user.clone(),
            workspace_id: workspace.clone(),
            business_type: "dentist".into(),
            status: "queued".into(),
            lead_budget: leads,
            leads_delivered: None,
            day: format!("{month}-01"),
            month: month.into(),
        })
        .await
        .expect("search");
    if let Some(client) = client {
        store
            .label_search_client(workspace, &id, &ClientLabel::parse(client).expect("label"))
            .await
            .expect("client");
    }
    assert!(
        store
            .settle_search(workspace, &id, SearchStatus::Complete, leads)
            .await
            .expect("settle")
    );
    store
        .record_search_cost(workspace, &id, "quick", 1, cost)
        .await
        .expect("cost");
    id
}

fn cents(v: &Value) -> i64 {
    (v.as_f64().unwrap_or_else(|| panic!("a number: {v}")) * 100.0).round() as i64
}

/// (searches, leads, cents) of a figures object.
fn figures(v: &Value) -> (i64, i64, i64) {
    (
        v["searches"].as_i64().expect("searches"),
        v["leads"].as_i64().expect("leads"),
        cents(&v["costUsd"]),
    )
}

async fn team(app: &TestApp) -> (WorkspaceId, (UserId, String), (UserId, String)) {
    let (ada_id, ada) = app.sign_in("ada").await;
    let (ben_id, ben) = app.sign_in("ben").await;
    let (status, created) = call(
        app,
        "POST",
        "/api/workspaces",
        &ada,
        None,
        Some(json!({"name": "Acme Agency"})),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let team = WorkspaceId::from(created["id"].as_str().expect("id").to_owned());
    app.state
        .store
        .add_member(&team, &ben_id, Role::Member)
        .await
        .expect("ben joins");
    (team, (ada_id, ada), (ben_id, ben))
}

both_backends!(
    usage_totals_by_member_and_by_client_and_the_history_filters_by_client,
    |backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (team, (ada_id, ada), (ben_id, ben)) = team(&app).await;
        let month = "2026-10";
        // Ada: two searches for one client, typed in two cases; Ben: one for another
        // client, one for none, and one in another month.
        let acme_1 = finished_search(&app, &team, &ada_id, month, Some("Acme"), 10, 0.10).await;
        let acme_2 = finished_search(&app, &team, &ada_id, month, Some("  ACME "), 5, 0.05).await;
        let bolt = finished_search(&app, &team, &ben_id, month, Some("Bolt"), 20, 0.20).await;
        finished_search(&app, &team, &ben_id, month, None, 3, 0.03).await;
        finished_search(&app, &team, &ben_id, "2026-09", Some("Bolt"), 7, 0.07).await;
        // Ada's personal workspace: the same client, none of the team's business.
        let personal = WorkspaceId::personal(&ada_id);
        finished_search(&app, &personal, &ada_id, month, Some("Acme"), 99, 9.99).await;

        // Ben, a member, reads the team's breakdown.
        let (status, breakdown) = call(
            &app,
            "GET",
            &format!("/api/leads/usage/breakdown?month={month}"),
            &ben,
            Some(&team),
            None,
        )
        .await;
        assert_eq!(status, 200, "{breakdown}");
        assert_eq!(breakdown["month"], month);
        assert_eq!(figures(&breakdown["total"]), (4, 38, 38));
        let members: Vec<(String, (i64, i64, i64))> = breakdown["members"]
            .as_array()
            .expect("members")
            .iter()
            .map(|m| (m["email"].as_str().expect("email").to_owned(), figures(m)))
            .collect();
        assert_eq!(
            members,
            vec![
                ("ben@example.com".to_owned(), (2, 23, 23)),
                ("ada@example.com".to_owned(), (2, 15, 15)),
            ],
            "most expensive first"
        );
        assert_eq!(breakdown["members"][0]["userId"], ben_id.as_str());
        let clients: Vec<(Value, (i64, i64, i64))> = breakdown["clients"]
            .as_array()
            .expect("clients")
            .iter()
            .map(|c| (c["client"].clone(), figures(c)))
            .collect();
        assert_eq!(
            clients,
            vec![
                (json!("Bolt"), (1, 20, 20)),
                (json!("ACME"), (2, 15, 15)),
                (Value::Null, (1, 3, 3)),
            ],
            "labels differing in case are one client; null is no client"
        );
        assert_eq!(breakdown["monthlySpendCapUsd"], Value::Null);

        // Another month has its own figures; this month has none yet.
        let (_, september) = call(
            &app,
            "GET",
            "/api/leads/usage/breakdown?month=2026-09",
            &ben,
            Some(&team),
            None,
        )
        .await;
        assert_eq!(figures(&september["total"]), (1, 7, 7));
        let (_, now) = call(&app, "GET", "/api/leads/usage/breakdown", &ada, Some(&team), None).await;
        assert_eq!(now["month"], this_month());
        assert_eq!(figures(&now["total"]), (0, 0, 0));
        for bad in ["2026-13", "2026-1", "november", "2026-10-01"] {
            let (status, body) = call(
                &app,
                "GET",
                &format!("/api/leads/usage/breakdown?month={bad}"),
                &ada,
                Some(&team),
                None,
            )
            .await;
            assert_eq!(status, 400, "{bad}: {body}");
            assert!(body["message"].as_str().expect("message").contains("YYYY-MM"), "{body}");
        }

        // The history filters by client, in any case, and says who started each search.
        let (status, history) = call(&app, "GET", "/api/leads/searches?client=acme", &ben, Some(&team), None).await;
        assert_eq!(status, 200, "{history}");
        let ids: Vec<&str> = history["searches"]
            .as_array()
            .expect("searches")
            .iter()
            .map(|s| s["id"].as_str().expect("id"))
            .collect();
        assert_eq!(
            ids,
            vec![acme_2.as_str(), acme_1.as_str()],
            "newest first, the team's only"
        );
        let first = &history["searches"][0];
        assert_eq!(first["client"], "ACME");
        assert_eq!(first["startedBy"]["userId"], ada_id.as_str());
        assert_eq!(first["startedBy"]["email"], "ada@example.com");
        let (_, history) = call(&app, "GET", "/api/leads/searches?client=BOLT", &ada, Some(&team), None).await;
        let listed: Vec<&str> = history["searches"]
            .as_array()
            .expect("searches")
            .iter()
            .map(|s| s["id"].as_str().expect("id"))
            .collect();
        assert_eq!(listed.len(), 2, "both months' Bolt searches");
        assert!(listed.contains(&bolt.as_str()));
        assert!(
            history["searches"]
                .as_array()
                .expect("searches")
                .iter()
                .all(|s| s["startedBy"]["email"] == "ben@example.com")
        );
        let (_, none) = call(
            &app,
            "GET",
            "/api/leads/searches?client=Nobody",
            &ada,
            Some(&team),
            None,
        )
        .await;
        assert_eq!(none["searches"], json!([]));
        let (status, blank) = call(&app, "GET", "/api/leads/searches?client=%20", &ada, Some(&team), None).await;
        assert_eq!(status, 400, "{blank}");

        // The picker's labels: the team's, one per client.
        let (status, clients) = call(&app, "GET", "/api/leads/clients", &ben, Some(&team), None).await;
        assert_eq!(status, 200, "{clients}");
        assert_eq!(clients["clients"], json!(["ACME", "Bolt"]));
        let (_, mine) = call(&app, "GET", "/api/leads/clients", &ada, None, None).await;
        assert_eq!(mine["clients"], json!(["Acme"]), "the personal workspace's own");
    }
);

both_backends!(
    a_search_s_client_label_is_checked_before_anything,
    |backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (_, token) = app.sign_in("ada").await;
        let long = "x".repeat(81);
        for (client, says) in [
            (json!("   "), "client cannot be blank"),
            (json!(long), "client has at most 80 characters"),
            (json!("Acme\nDental"), "client cannot hold control characters"),
            (json!(42), "must be text"),
        ] {
            for path in ["/api/leads/search", "/api/leads/search-stream", "/api/leads/estimate"] {
                let (status, body) = call(
                    &app,
                    "POST",
                    path,
                    &token,
                    None,
                    Some(json!({"businessType": "dentist", "location": "Austin, TX", "client": client})),
                )
                .await;
                assert_eq!(status, 400, "{path} {client}: {body}");
                assert!(
                    body["message"].as_str().expect("message").contains(says),
                    "{path} {client}: {body}"
                );
            }
        }
        // A good label passes validation (and stops at the missing key, before any search).
        let (status, body) = call(
            &app,
            "POST",
            "/api/leads/search",
            &token,
            None,
            Some(json!({"businessType": "dentist", "location": "Austin, TX", "client": &"é".repeat(80)})),
        )
        .await;
        assert_eq!((status, body["error"].as_str()), (400, Some("no_api_key")), "{body}");
    }
);

both_backends!(only_an_owner_sets_the_monthly_spend_cap, |backend| async move {
    let app = TestApp::start(backend, vec![]).await;
    let (team, (ada_id, ada), (ben_id, ben)) = team(&app).await;
    let (carl_id, carl) = app.sign_in("carl").await;
    app.state
        .store
        .add_member(&team, &carl_id, Role::Admin)
        .await
        .expect("carl");
    finished_search(&app, &team, &ben_id, &this_month(), None, 10, 1.25).await;
    let path = format!("/api/workspaces/{team}");

    let (status, set) = call(
        &app,
        "PATCH",
        &path,
        &ada,
        None,
        Some(json!({"monthlySpendCapUsd": 250.5})),
    )
    .await;
    assert_eq!(status, 200, "{set}");
    assert_eq!(set["monthlySpendCapUsd"], 250.5);
    assert_eq!(set["name"], "Acme Agency", "the name is left as it was");
    assert_eq!(cents(&set["monthSpendUsd"]), 125);

    // Admins and members may not; the cap stays.
    for (who, token) in [("admin", &carl), ("member", &ben)] {
        let (status, body) = call(
            &app,
            "PATCH",
            &path,
            token,
            None,
            Some(json!({"monthlySpendCapUsd": null})),
        )
        .await;
        assert_eq!(
            (status, body["error"].as_str()),
            (403, Some("role_required")),
            "{who}: {body}"
        );
    }
    // Every member sees it, with the month's spend.
    let (_, listed) = call(&app, "GET", "/api/workspaces", &ben, None, None).await;
    let seen = listed["workspaces"]
        .as_array()
        .expect("workspaces")
        .iter()
        .find(|w| w["id"] == team.as_str())
        .expect("the team")
        .clone();
    assert_eq!(seen["monthlySpendCapUsd"], 250.5);
    assert_eq!(cents(&seen["monthSpendUsd"]), 125);
    let (_, breakdown) = call(&app, "GET", "/api/leads/usage/breakdown", &ben, Some(&team), None).await;
    assert_eq!(breakdown["monthlySpendCapUsd"], 250.5);

    // Refused values change nothing.
    for bad in [
        json!(0),
        json!(-3),
        json!(0.001),
        json!(5e-324),
        json!(10.005),
        json!(100_000.01),
        json!("10"),
    ] {
        let (status, body) = call(
            &app,
            "PATCH",
            &path,
            &ada,
            None,
            Some(json!({"monthlySpendCapUsd": bad})),
        )
        .await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    // No field: nothing changes (a PATCH of nothing), and the workspace is answered.
    let (status, body) = call(&app, "PATCH", &path, &ada, None, Some(json!({}))).await;
    assert_eq!(status, 200, "nothing to change: {body}");
    assert_eq!(body["monthlySpendCapUsd"], 250.5, "unchanged: {body}");
    // A bad name with a good cap changes neither.
    let (status, _) = call(
        &app,
        "PATCH",
        &path,
        &ada,
        None,
        Some(json!({"name": " ", "monthlySpendCapUsd": 5})),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(app.state.store.spend_cap_cents(&team).await.expect("cap"), Some(25_050));

    // Both at once, then null clears the cap.
    let (status, both) = call(
        &app,
        "PATCH",
        &path,
        &ada,
        None,
        Some(json!({"name": "Acme EU", "monthlySpendCapUsd": 100})),
    )
    .await;
    assert_eq!(status, 200, "{both}");
    assert_eq!(
        (both["name"].as_str(), both["monthlySpendCapUsd"].as_f64()),
        (Some("Acme EU"), Some(100.0))
    );
    let (status, cleared) = call(
        &app,
        "PATCH",
        &path,
        &ada,
        None,
        Some(json!({"monthlySpendCapUsd": null})),
    )
    .await;
    assert_eq!(status, 200, "{cleared}");
    assert_eq!(cleared["monthlySpendCapUsd"], Value::Null);
    assert_eq!(app.state.store.spend_cap_cents(&team).await.expect("cap"), None);
    // A personal workspace's owner may cap it too.
    let (status, own) = call(
        &app,
        "PATCH",
        &format!("/api/workspaces/{}", WorkspaceId::personal(&ada_id)),
        &ada,
        None,
        Some(json!({"monthlySpendCapUsd": 20})),
    )
    .await;
    assert_eq!((status, own["monthlySpendCapUsd"].as_f64()), (200, Some(20.0)), "{own}");
});

/// A queued search of `user` in `workspace`.
async fn queued_search(app: &TestApp, workspace: &WorkspaceId, user: &UserId) -> SearchId {
    let id = SearchId::time_ordered();
    app.state
        .store
        .create_search(&SearchRecord {
            id: id.clone(),
            user_id: user.clone(),
            workspace_id: workspace.clone(),
            business_type: "cafe".into(),
            status: "queued".into(),
            lead_budget: 60,
            leads_delivered: None,
            day: format!("{}-01", this_month()),
            month: this_month(),
        })
        .await
        .expect("search");
    id
}

both_backends!(
    a_member_cancels_their_own_searches_an_admin_anyone_s,
    |backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (team, (ada_id, _ada), (ben_id, ben)) = team(&app).await;
        let (carl_id, carl) = app.sign_in("carl").await;
        app.state
            .store
            .add_member(&team, &carl_id, Role::Admin)
            .await
            .expect("carl");
        let adas = queued_search(&app, &team, &ada_id).await;
        let bens = queued_search(&app, &team, &ben_id).await;
        let cancel = |id: &SearchId| format!("/api/leads/searches/{id}/cancel");

        let (status, body) = call(&app, "POST", &cancel(&adas), &ben, Some(&team), None).await;
        assert_eq!((status, body["error"].as_str()), (403, Some("role_required")), "{body}");
        let (status, body) = call(&app, "POST", &cancel(&bens), &ben, Some(&team), None).await;
        assert_eq!(status, 200, "their own: {body}");
        let (status, body) = call(&app, "POST", &cancel(&adas), &carl, Some(&team), None).await;
        assert_eq!(status, 200, "an admin, anyone's: {body}");
    }
);

both_backends!(
    lookups_outside_searches_count_in_the_month_by_member_and_by_client,
    |backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (team, (ada_id, ada), (ben_id, _ben)) = team(&app).await;
        let store = &app.state.store;
        let month = "2026-10";
        finished_search(&app, &team, &ada_id, month, Some("Acme"), 10, 0.10).await;
        let acme = ClientLabel::parse("acme").expect("label");
        // Ada estimated for Acme; Ben only located places for the map (he ran no search);
        // a lookup the cache answered cost nothing and is not recorded.
        for (user, kind, client, cost) in [
            (&ada_id, LookupKind::Estimate, Some(&acme), 0.042),
            (&ben_id, LookupKind::Locate, None, 0.032),
            (&ben_id, LookupKind::Locate, None, 0.032),
            (&ben_id, LookupKind::Locate, None, 0.0),
        ] {
            store
                .record_lookup_cost(&team, user, month, kind, client, cost)
                .await
                .expect("lookup");
        }
        // Another month's and another workspace's lookups are not this month's.
        store
            .record_lookup_cost(&team, &ada_id, "2026-09", LookupKind::Locate, None, 5.0)
            .await
            .expect("lookup");
        store
            .record_lookup_cost(
                &WorkspaceId::personal(&ada_id),
                &ada_id,
                month,
                LookupKind::Locate,
                None,
                7.0,
            )
            .await
            .expect("lookup");

        let spent = store.month_spend_usd(&team, month, None).await.expect("spend");
        assert!((spent - (0.10 + 0.042 + 0.064)).abs() < 1e-9, "{spent}");
        let (status, breakdown) = call(
            &app,
            "GET",
            &format!("/api/leads/usage/breakdown?month={month}"),
            &ada,
            Some(&team),
            None,
        )
        .await;
        assert_eq!(status, 200, "{breakdown}");
        assert_eq!(figures(&breakdown["total"]), (1, 10, 21), "{breakdown}");
        assert_eq!(cents(&breakdown["total"]["lookupsUsd"]), 11, "{breakdown}");
        let rows = |list: &str, name: &str| -> Vec<(Value, (i64, i64, i64), i64)> {
            breakdown[list]
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| (r[name].clone(), figures(r), cents(&r["lookupsUsd"])))
                .collect()
        };
        assert_eq!(
            rows("members", "email"),
            vec![
                (json!("ada@example.com"), (1, 10, 14), 4),
                (json!("ben@example.com"), (0, 0, 6), 6),
            ],
            "a member with only lookups has a row"
        );
        assert_eq!(
            rows("clients", "client"),
            vec![(json!("Acme"), (1, 10, 14), 4), (Value::Null, (0, 0, 6), 6)],
            "an estimate is its client's"
        );
    }
);
