//! The place memory's setting and "forget everything" (issue #29) through the API: who
//! may change or forget it (an admin; a member gets 403, a non-member 404), that the
//! workspace answer shows it, and that both are in the activity log. Each case on SQLite
//! and on Postgres. What searches record and exclude is in `search::memory`.

use leadgen_core::{ids::WorkspaceId, search::Exclude, workspace::Role};
use serde_json::json;

use crate::{both_backends, support::TestApp};

both_backends!(
    an_admin_turns_the_memory_off_and_forgets_it_members_and_others_may_not,
    |backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (_, owner) = app.sign_in("pm-owner").await;
        let (admin_id, admin) = app.sign_in("pm-admin").await;
        let (member_id, member) = app.sign_in("pm-member").await;
        let (_, stranger) = app.sign_in("pm-stranger").await;
        let call = |method, path: String, token: String, body| {
            let app = &app;
            async move { crate::workspaces::call(app, method, &path, &token, None, body).await }
        };
        let (status, created) = call(
            "POST",
            "/api/workspaces".into(),
            owner.clone(),
            Some(json!({"name": "Memo"})),
        )
        .await;
        assert_eq!(status, 200, "{created}");
        assert_eq!(created["placeMemory"], true, "on by default");
        let team = WorkspaceId::from(created["id"].as_str().expect("id").to_owned());
        let store = &app.state.store;
        store.add_member(&team, &admin_id, Role::Admin).await.expect("admin");
        store.add_member(&team, &member_id, Role::Member).await.expect("member");
        let ids: Vec<String> = ["ChIJa", "ChIJb", "ChIJc"].map(String::from).to_vec();
        store.remember_places(&team, &ids).await.expect("remember");
        let path = format!("/api/workspaces/{team}");
        let forget = format!("{path}/place-memory");

        // A member may neither change nor forget it; a stranger does not see the workspace.
        let (status, body) = call(
            "PATCH",
            path.clone(),
            member.clone(),
            Some(json!({"placeMemory": false})),
        )
        .await;
        assert_eq!(status, 403, "{body}");
        assert_eq!(body["error"], "role_required", "{body}");
        let (status, body) = call("DELETE", forget.clone(), member.clone(), None).await;
        assert_eq!((status, body["error"].as_str()), (403, Some("role_required")), "{body}");
        let (status, _) = call("DELETE", forget.clone(), stranger.clone(), None).await;
        assert_eq!(status, 404);
        let (status, _) = call(
            "PATCH",
            path.clone(),
            stranger.clone(),
            Some(json!({"placeMemory": false})),
        )
        .await;
        assert_eq!(status, 404);
        assert_eq!(
            store.excluded_places(&team, Exclude::Seen).await.expect("kept").len(),
            3
        );

        // An admin turns it off (but may not rename: that stays an owner's).
        let (status, body) = call("PATCH", path.clone(), admin.clone(), Some(json!({"name": "Renamed"}))).await;
        assert_eq!(status, 403, "{body}");
        let (status, body) = call(
            "PATCH",
            path.clone(),
            admin.clone(),
            Some(json!({"placeMemory": false})),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["placeMemory"], false);
        assert_eq!(body["name"], "Memo");
        assert!(!store.place_memory_enabled(&team).await.expect("setting"));
        let (_, listed) = call("GET", "/api/workspaces".into(), member.clone(), None).await;
        let seen_by_member = listed["workspaces"]
            .as_array()
            .expect("list")
            .iter()
            .find(|w| w["id"] == team.as_str())
            .expect("team listed")
            .clone();
        assert_eq!(seen_by_member["placeMemory"], false, "every member sees the setting");

        // ...and forgets it: the answer says how many.
        let (status, body) = call("DELETE", forget.clone(), admin.clone(), None).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["forgotten"], 3);
        let (status, body) = call("DELETE", forget.clone(), owner.clone(), None).await;
        assert_eq!((status, body["forgotten"].as_u64()), (200, Some(0)));

        // Both are in the activity log.
        let (status, log) = call("GET", format!("{path}/audit-events"), owner.clone(), None).await;
        assert_eq!(status, 200, "{log}");
        let actions: Vec<(String, String)> = log["events"]
            .as_array()
            .expect("events")
            .iter()
            .map(|e| {
                (
                    e["action"].as_str().unwrap_or_default().to_owned(),
                    e["target"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        assert!(
            actions.contains(&("place_memory_changed".into(), "off".into())),
            "{actions:?}"
        );
        let forgotten: Vec<&serde_json::Value> = log["events"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| e["action"] == "place_memory_forgotten")
            .collect();
        assert_eq!(forgotten.len(), 2, "{log}");
        assert!(forgotten.iter().any(|e| e["details"]["places"] == 3), "{log}");
    }
);
