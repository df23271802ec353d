//! Saved searches (issue #29 items 3 and 4) through the API, and the scheduler's ticks on
//! the app's store: CRUD in a workspace, validation messages, who may change what, a
//! non-member's 404, the minimum interval, running one by hand, and the scheduler starting
//! each due run once (racing ticks, a missed window, pacing), each on SQLite and Postgres.

use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use leadgen_core::{
    audit::Action,
    ids::{SavedSearchId, SearchId, UserId, WorkspaceId},
    store::SavedSearchFields,
    time::now_unix,
    workspace::Role,
};
use leadgen_worker::jobs::schedule::{Pacing, RunDeps, start_run, tick};
use serde_json::{Value, json};

use crate::{both_backends, support::TestApp};

const PATH: &str = "/api/leads/saved-searches";
const KEY: &str = "AIzaSyTest0123456789abcdefghijklmnopqr";

async fn call(
    app: &TestApp,
    method: &str,
    path: &str,
    token: &str,
    workspace: &WorkspaceId,
    body: Option<Value>,
) -> (u16, Value) {
    super::workspaces::call(app, method, path, token, Some(workspace.as_str()), body).await
}

/// An app whose searches cannot reach Google (nothing listens on port 9).
async fn app(backend: crate::support::Backend, min_interval: Option<&str>) -> TestApp {
    let mut vars = vec![("LEADGEN_PLACES_BASE_URL", "http://127.0.0.1:9".to_owned())];
    if let Some(minutes) = min_interval {
        vars.push(("LEADGEN_MONITOR_MIN_INTERVAL_MINUTES", minutes.to_owned()));
    }
    TestApp::start(backend, vars).await
}

/// A team: Ada owns it; Ben and Dee are members.
async fn team(app: &TestApp) -> (WorkspaceId, String, (UserId, String), String) {
    let (_, ada) = app.sign_in("saved-ada").await;
    let (ben_id, ben) = app.sign_in("saved-ben").await;
    let (dee_id, dee) = app.sign_in("saved-dee").await;
    let (status, created) = super::workspaces::call(
        app,
        "POST",
        "/api/workspaces",
        &ada,
        None,
        Some(json!({"name": "Monitors"})),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    let team = WorkspaceId::from(created["id"].as_str().expect("id").to_owned());
    for member in [&ben_id, &dee_id] {
        app.state
            .store
            .add_member(&team, member, Role::Member)
            .await
            .expect("joins");
    }
    (team, ada, (ben_id, ben), dee)
}

fn body(name: &str, cron: &str, zone: &str) -> Value {
    json!({
        "name": name,
        "search": {"businessType": "dentist", "location": "Houston, TX", "coverage": "full"},
        "schedule": {"cron": cron, "timeZone": zone},
        "onlyNew": true,
        "delivery": {"webhook": true, "email": true},
    })
}

fn message(body: &Value) -> &str {
    body["message"].as_str().unwrap_or_else(|| panic!("an error: {body}"))
}

both_backends!(saved_searches_crud_roles_and_validation, |backend| async move {
    let app = app(backend, None).await;
    let (team, ada, (ben_id, ben), dee) = team(&app).await;

    // Ben, a member, saves a weekly search.
    let (status, saved) = call(
        &app,
        "POST",
        PATH,
        &ben,
        &team,
        Some(body("Dentists", "0 9 * * 1", "Europe/Paris")),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let id = saved["id"].as_str().expect("id").to_owned();
    assert_eq!(saved["name"], "Dentists");
    assert_eq!(saved["search"]["businessType"], "dentist");
    assert_eq!(saved["search"]["coverage"], "full");
    assert_eq!(
        saved["schedule"],
        json!({"cron": "0 9 * * 1", "timeZone": "Europe/Paris"})
    );
    assert_eq!(
        (saved["onlyNew"].clone(), saved["paused"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(saved["delivery"]["email"], true);
    assert_eq!(saved["delivery"]["webhook"], true);
    assert_eq!(saved["createdBy"], ben_id.as_str());
    assert_eq!(saved["lastSearchId"], Value::Null);
    let next = chrono::DateTime::parse_from_rfc3339(saved["nextRunAt"].as_str().expect("next run")).expect("rfc3339");
    assert!(next.timestamp() > now_unix() && next.timestamp() <= now_unix() + 7 * 86_400);
    assert_eq!(
        next.with_timezone(&chrono::FixedOffset::east_opt(0).expect("utc"))
            .format("%a")
            .to_string(),
        "Mon"
    );

    // Every member lists and reads it.
    let (status, list) = call(&app, "GET", PATH, &dee, &team, None).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["savedSearches"].as_array().expect("list").len(), 1);
    let (status, got) = call(&app, "GET", &format!("{PATH}/{id}"), &ada, &team, None).await;
    assert_eq!((status, got["id"].as_str()), (200, Some(id.as_str())));

    // A non-member: the workspace is not theirs (404), and their own has no such id.
    let (eve_id, eve) = app.sign_in("saved-eve").await;
    let (status, _) = call(&app, "GET", &format!("{PATH}/{id}"), &eve, &team, None).await;
    assert_eq!(status, 404);
    let (status, _) = call(&app, "GET", PATH, &eve, &team, None).await;
    assert_eq!(status, 404);
    let eve_ws = WorkspaceId::personal(&eve_id);
    let (status, missing) = call(&app, "GET", &format!("{PATH}/{id}"), &eve, &eve_ws, None).await;
    assert_eq!(status, 404, "{missing}");
    assert_eq!(message(&missing), "No saved search of this workspace has that id.");

    // Validation says what is wrong.
    for (request, expected) in [
        (body("Too often", "* * * * *", "UTC"), "at least 1 hour apart"),
        (body("Half-hourly", "0,30 * * * *", "UTC"), "every 30 minutes"),
        (body("Four fields", "0 9 * *", "UTC"), "five fields"),
        (body("Bad minute", "61 9 * * 1", "UTC"), "not a valid cron expression"),
        (body("Nowhere", "0 9 * * 1", "Mars/Olympus"), "not an IANA time zone"),
        (body(" ", "0 9 * * 1", "UTC"), "The name must be 1 to 100 characters"),
    ] {
        let (status, refused) = call(&app, "POST", PATH, &ben, &team, Some(request)).await;
        assert_eq!(status, 400, "{refused}");
        assert!(message(&refused).contains(expected), "{expected}: {refused}");
    }
    let mut stranger = body("Stranger", "0 9 * * 1", "UTC");
    stranger["delivery"]["email"] = json!("someone@elsewhere.example");
    let (status, refused) = call(&app, "POST", PATH, &ben, &team, Some(stranger)).await;
    assert_eq!(status, 400, "{refused}");
    assert!(message(&refused).contains("member of this workspace"), "{refused}");
    let mut member = body("To Ada", "0 9 * * 1", "UTC");
    member["delivery"]["email"] = json!("saved-ada@example.com");
    member["delivery"]["sheet"] =
        json!({"spreadsheetId": "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms", "tab": "Weekly"});
    let (status, to_ada) = call(&app, "POST", PATH, &ben, &team, Some(member)).await;
    assert_eq!(status, 200, "{to_ada}");
    assert_eq!(to_ada["delivery"]["email"], "saved-ada@example.com");
    assert_eq!(to_ada["delivery"]["sheet"]["tab"], "Weekly");
    let mut untitled = body("Untitled tab", "0 9 * * 1", "UTC");
    untitled["delivery"]["sheet"] = json!({"spreadsheetId": "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms"});
    let (status, untitled) = call(&app, "POST", PATH, &ben, &team, Some(untitled)).await;
    assert_eq!(status, 200, "{untitled}");
    assert_eq!(
        untitled["delivery"]["sheet"]["tab"], "Untitled tab",
        "the tab defaults to the name"
    );
    let mut no_type = body("No type", "0 9 * * 1", "UTC");
    no_type["search"] = json!({"location": "Houston, TX"});
    let (status, refused) = call(&app, "POST", PATH, &ben, &team, Some(no_type)).await;
    assert_eq!(status, 400, "{refused}");
    // No schedule: run only by hand.
    let mut manual = body("Manual", "0 9 * * 1", "UTC");
    manual["schedule"] = Value::Null;
    let (status, manual) = call(&app, "POST", PATH, &dee, &team, Some(manual)).await;
    assert_eq!(status, 200, "{manual}");
    assert_eq!(
        (manual["schedule"].clone(), manual["nextRunAt"].clone()),
        (Value::Null, Value::Null)
    );

    // Dee, another member, may not change or delete Ben's; Ada (owner) may.
    let mut paused = body("Dentists, paused", "0 9 * * 1", "Europe/Paris");
    paused["paused"] = json!(true);
    let (status, refused) = call(&app, "PUT", &format!("{PATH}/{id}"), &dee, &team, Some(paused.clone())).await;
    assert_eq!(status, 403, "{refused}");
    assert_eq!(refused["error"], "not_creator");
    let (status, _) = call(&app, "DELETE", &format!("{PATH}/{id}"), &dee, &team, None).await;
    assert_eq!(status, 403);
    let (status, updated) = call(&app, "PUT", &format!("{PATH}/{id}"), &ada, &team, Some(paused)).await;
    assert_eq!(status, 200, "{updated}");
    assert_eq!(updated["name"], "Dentists, paused");
    assert_eq!(
        (updated["paused"].clone(), updated["nextRunAt"].clone()),
        (json!(true), Value::Null)
    );
    // Ben changes his own back on.
    let (status, resumed) = call(
        &app,
        "PUT",
        &format!("{PATH}/{id}"),
        &ben,
        &team,
        Some(body("Dentists", "0 9 * * 1", "Europe/Paris")),
    )
    .await;
    assert_eq!(status, 200, "{resumed}");
    assert!(resumed["nextRunAt"].is_string());

    let (status, _) = call(&app, "DELETE", &format!("{PATH}/{id}"), &ben, &team, None).await;
    assert_eq!(status, 204);
    let (status, _) = call(&app, "GET", &format!("{PATH}/{id}"), &ben, &team, None).await;
    assert_eq!(status, 404);

    // Audited: made, changed, deleted.
    let page = app
        .state
        .store
        .list_audit_events(&team, None, 100)
        .await
        .expect("audit");
    let actions: Vec<Action> = page.events.iter().map(|e| e.action).collect();
    for action in [
        Action::SavedSearchCreated,
        Action::SavedSearchUpdated,
        Action::SavedSearchDeleted,
    ] {
        assert!(actions.contains(&action), "{action:?} in {actions:?}");
    }
});

both_backends!(the_minimum_interval_is_a_setting, |backend| async move {
    let app = app(backend, Some("1")).await;
    let (team, _, (_, ben), _) = team(&app).await;
    let (status, saved) = call(
        &app,
        "POST",
        PATH,
        &ben,
        &team,
        Some(body("Every minute", "* * * * *", "UTC")),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let next = chrono::DateTime::parse_from_rfc3339(saved["nextRunAt"].as_str().expect("next")).expect("rfc3339");
    assert!(next.timestamp() - now_unix() <= 60, "the next minute");
});

both_backends!(running_a_saved_search_queues_a_linked_search, |backend| async move {
    let app = app(backend, None).await;
    let (team, _, (_, ben), dee) = team(&app).await;
    let (_, saved) = call(
        &app,
        "POST",
        PATH,
        &ben,
        &team,
        Some(body("Dentists", "0 9 * * 1", "UTC")),
    )
    .await;
    let id = saved["id"].as_str().expect("id").to_owned();
    let (status, refused) = call(&app, "POST", &format!("{PATH}/{id}/run"), &dee, &team, None).await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["error"], "no_api_key");

    app.state.keys.save(&team, KEY).await.expect("key");
    // Any member runs it (Dee did not make it).
    let (status, run) = call(&app, "POST", &format!("{PATH}/{id}/run"), &dee, &team, None).await;
    assert_eq!(status, 202, "{run}");
    let search_id = SearchId::from(run["searchId"].as_str().expect("search id").to_owned());
    let summary = app
        .state
        .store
        .search_summary(&team, &search_id)
        .await
        .expect("summary")
        .expect("in the history");
    assert_eq!(summary.business_type, "dentist");
    assert_eq!(summary.background, 1);
    let (_, after) = call(&app, "GET", &format!("{PATH}/{id}"), &ben, &team, None).await;
    assert_eq!(after["lastSearchId"], search_id.as_str());
    assert!(after["lastRunAt"].is_string());
    let runs = app
        .state
        .store
        .saved_search_runs(&team, &SavedSearchId::from(id.clone()), 10)
        .await
        .expect("runs");
    assert_eq!(runs, std::slice::from_ref(&search_id));
    let (status, _) = call(
        &app,
        "POST",
        &format!("{PATH}/{}/run", SavedSearchId::random().as_str()),
        &dee,
        &team,
        None,
    )
    .await;
    assert_eq!(status, 404);
    let page = app
        .state
        .store
        .list_audit_events(&team, None, 100)
        .await
        .expect("audit");
    let run_event = page
        .events
        .iter()
        .find(|e| e.action == Action::SavedSearchRun)
        .expect("the run is audited");
    assert_eq!(run_event.target, id);
    assert_eq!(run_event.details["searchId"], search_id.as_str());
    assert_eq!(run_event.details["scheduled"], false);
});

/// A saved search of `workspace` made by `user`, every minute, due at `due`.
async fn due_saved_search(
    app: &TestApp,
    workspace: &WorkspaceId,
    user: &UserId,
    name: &str,
    due: i64,
) -> SavedSearchId {
    app.state
        .store
        .create_saved_search(
            workspace,
            user,
            &SavedSearchFields {
                name,
                request: r#"{"businessType":"dentist","location":"Houston, TX"}"#,
                search: r#"{"business_type":"dentist","location":"Houston, TX"}"#,
                client: None,
                schedule: Some(("* * * * *", "UTC")),
                only_new: false,
                delivery: "{}",
                paused: false,
                next_run_at: Some(due),
            },
        )
        .await
        .expect("saved")
        .id
}

async fn runs_of(app: &TestApp, workspace: &WorkspaceId, id: &SavedSearchId) -> usize {
    app.state
        .store
        .saved_search_runs(workspace, id, 100)
        .await
        .expect("runs")
        .len()
}

both_backends!(racing_schedulers_start_a_due_run_once, |backend| async move {
    let app = app(backend, Some("1")).await;
    let (team, _, (ben_id, _), _) = team(&app).await;
    app.state.keys.save(&team, KEY).await.expect("key");
    let now = now_unix();
    let id = due_saved_search(&app, &team, &ben_id, "Racer", now - 20).await;
    let state = &app.state;
    let deps = RunDeps {
        store: &state.store,
        keys: &state.keys,
        usage: &state.usage,
        searches: &state.queues.search,
    };
    // Four schedulers (as four workers' ticks) at once.
    let ticks = (0..4).map(|_| {
        tick(&state.store, now, Pacing::default(), |saved| async move {
            start_run(&deps, &saved, None).await
        })
    });
    let outcomes = futures_util::future::join_all(ticks).await;
    let started: usize = outcomes.iter().map(|o| o.as_ref().expect("tick").started.len()).sum();
    assert_eq!(started, 1, "{outcomes:?}");
    assert_eq!(runs_of(&app, &team, &id).await, 1, "one search in the history");
    let after = state.store.saved_search(&team, &id).await.expect("get").expect("found");
    let next = after.next_run_at.expect("next run");
    assert!(next > now && next <= now + 60, "the next minute after now");
    // A scheduled run is audited without an actor.
    let page = state.store.list_audit_events(&team, None, 100).await.expect("audit");
    let run = page
        .events
        .iter()
        .find(|e| e.action == Action::SavedSearchRun)
        .expect("audited");
    assert!(run.actor.is_none());
    assert_eq!(run.details["scheduled"], true);
});

both_backends!(a_missed_window_runs_once, |backend| async move {
    let app = app(backend, Some("1")).await;
    let (team, _, (ben_id, _), _) = team(&app).await;
    let now = now_unix();
    // Due an hour ago, every minute: 60 windows were missed while nothing was up.
    let id = due_saved_search(&app, &team, &ben_id, "Missed", now - 3_600).await;
    let starts = Arc::new(AtomicUsize::new(0));
    let start = |_saved| {
        let starts = starts.clone();
        async move {
            starts.fetch_add(1, Ordering::SeqCst);
            Ok(SearchId::random())
        }
    };
    let first = tick(&app.state.store, now, Pacing::default(), start)
        .await
        .expect("tick");
    assert_eq!(first.started.len(), 1);
    // Another tick at the same moment: nothing more is due.
    let again = tick(&app.state.store, now, Pacing::default(), start)
        .await
        .expect("tick");
    assert!(again.started.is_empty(), "{again:?}");
    assert_eq!(starts.load(Ordering::SeqCst), 1, "once, not once per missed minute");
    let next = app
        .state
        .store
        .saved_search(&team, &id)
        .await
        .expect("get")
        .expect("found")
        .next_run_at
        .expect("next");
    assert!(next > now && next <= now + 60, "from now, not from the missed run");
});

both_backends!(due_runs_are_paced_per_workspace, |backend| async move {
    let app = app(backend, Some("1")).await;
    let (team, _, (ben_id, _), _) = team(&app).await;
    let (solo_id, _) = app.sign_in("saved-solo").await;
    let solo = WorkspaceId::personal(&solo_id);
    let now = now_unix();
    // 25 due at the same minute on the team's key, 3 on another workspace's.
    for i in 0..25 {
        due_saved_search(&app, &team, &ben_id, &format!("Team {i}"), now - 5).await;
    }
    for i in 0..3 {
        due_saved_search(&app, &solo, &solo_id, &format!("Solo {i}"), now - 5).await;
    }
    let pacing = Pacing {
        per_workspace: 10,
        scan: 500,
    };
    let started_for = Arc::new(std::sync::Mutex::new(Vec::<WorkspaceId>::new()));
    let start = |saved: leadgen_core::store::SavedSearchRecord| {
        let started_for = started_for.clone();
        async move {
            started_for.lock().expect("lock").push(saved.workspace_id.clone());
            Ok(SearchId::random())
        }
    };
    let count = |ws: &WorkspaceId| started_for.lock().expect("lock").iter().filter(|w| *w == ws).count();
    let first = tick(&app.state.store, now, pacing, start).await.expect("tick");
    assert_eq!((first.started.len(), first.deferred), (13, 15));
    assert_eq!(
        (count(&team), count(&solo)),
        (10, 3),
        "the other workspace is not held up"
    );
    let second = tick(&app.state.store, now, pacing, start).await.expect("tick");
    assert_eq!((second.started.len(), second.deferred), (10, 5));
    let third = tick(&app.state.store, now, pacing, start).await.expect("tick");
    assert_eq!((third.started.len(), third.deferred), (5, 0));
    assert_eq!(count(&team), 25, "each team run started once, over three ticks");
});

both_backends!(
    a_history_filter_holding_nul_answers_an_empty_page,
    |backend| async move {
        // Postgres refuses NUL in text: this was a 500 (schemathesis), it is no match.
        let app = app(backend, None).await;
        let (_, token) = app.sign_in("saved-nul").await;
        let (status, page) = app
            .get("/api/leads/searches?businessType=%00dentist", Some(&token))
            .await;
        assert_eq!(status, 200, "{page}");
        assert_eq!(page["searches"], json!([]));
    }
);
