//! Invitations and the audit log (issue #28 items 3, 5 and 6): an admin invites an email
//! with a role, the link (also mailed, to a real SMTP server) joins the person whose
//! verified email it is, once; anyone else is refused; an expired link says so; roles
//! limit who invites whom. Admins revoke any member's token. The audit log records each
//! action, newest first, paged, for admins only. Each case on SQLite and on Postgres.

use std::time::Duration;

use leadgen_core::{ids::WorkspaceId, user::ProviderIdentity, workspace::Role};
use leadgen_testkit::{places_sim::PlacesSim, smtp::SmtpServer};
use serde_json::{Value, json};
use sqlx::Connection;

use crate::{
    both_backends, both_modes,
    search::{
        env::{Mode, SearchEnv},
        no_lead_at_rest::all_stored_text,
    },
    support::{Backend, TestApp},
    workspaces::call,
};

/// Runs one statement on the app's database, behind the store's back.
async fn execute(app: &TestApp, sql: &'static str) {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&app._db.url).await.expect("connect");
    sqlx::query(sql).execute(&mut conn).await.expect("execute");
}

/// A shared workspace of `owner`'s: its id.
async fn team(app: &TestApp, owner: &str) -> String {
    let (status, created) = call(
        app,
        "POST",
        "/api/workspaces",
        owner,
        None,
        Some(json!({"name": "Acme"})),
    )
    .await;
    assert_eq!(status, 200, "{created}");
    created["id"].as_str().expect("id").to_owned()
}

async fn invite(app: &TestApp, team: &str, who: &str, email: &str, role: &str) -> (u16, Value) {
    call(
        app,
        "POST",
        &format!("/api/workspaces/{team}/invitations"),
        who,
        None,
        Some(json!({"email": email, "role": role})),
    )
    .await
}

/// The token of an invitation's link.
fn token_of(created: &Value) -> String {
    let link = created["link"].as_str().expect("link");
    link.rsplit('/').next().expect("token").to_owned()
}

/// A user signed in through a provider that did not vouch for their email.
async fn sign_in_unverified(app: &TestApp, subject: &str, email: &str) -> String {
    let user = app
        .state
        .store
        .upsert_user_on_sign_in(&ProviderIdentity {
            issuer: "https://id.example".into(),
            subject: subject.into(),
            email: email.into(),
            name: None,
            picture: None,
            email_verified: false,
        })
        .await
        .expect("user");
    leadgen_api::auth::start_session(&app.state, &user.id)
        .await
        .expect("session")
}

/// A received message's text with its transfer encoding undone (quoted-printable soft
/// breaks, or base64), so a link split across lines reads whole.
fn readable(message: &str) -> String {
    let unfolded = message.replace("=\r\n", "").replace("=\n", "").replace("=3D", "=");
    if !message.contains("Content-Transfer-Encoding: base64") {
        return unfolded;
    }
    use base64::Engine;
    let body = message
        .split("\n\n")
        .nth(1)
        .or_else(|| message.split("\r\n\r\n").nth(1))
        .unwrap_or("");
    let compact: String = body
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("--"))
        .collect();
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(compact)
        .unwrap_or_default();
    format!("{unfolded}\n{}", String::from_utf8_lossy(&decoded))
}

both_backends!(
    an_invitation_joins_its_verified_address_once,
    |backend: Backend| async move {
        let smtp = SmtpServer::start().await;
        let app = TestApp::start(
            backend,
            vec![
                ("LEADGEN_SMTP_URL", smtp.url()),
                ("LEADGEN_MAIL_FROM", "Leadgen <noreply@leads.example>".into()),
            ],
        )
        .await;
        let (_, ada) = app.sign_in("ada").await;
        let (ben_id, ben) = app.sign_in("ben").await;
        let (_, carl) = app.sign_in("carl").await;
        let team = team(&app, &ada).await;

        let (status, created) = invite(&app, &team, &ada, " Ben@Example.com ", "member").await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(
            (created["email"].as_str(), created["role"].as_str()),
            (Some("Ben@Example.com"), Some("member"))
        );
        assert_eq!(created["invitedBy"]["email"], "ada@example.com");
        assert_eq!(created["mailed"], true, "{created}");
        let link = created["link"].as_str().expect("link").to_owned();
        assert!(link.starts_with("http://127.0.0.1:8080/invitations/"), "{link}");
        let token = token_of(&created);
        assert_eq!(token.len(), 43, "32 bytes, base64url");
        let created_at =
            chrono::DateTime::parse_from_rfc3339(created["createdAt"].as_str().expect("at")).expect("time");
        let expires_at =
            chrono::DateTime::parse_from_rfc3339(created["expiresAt"].as_str().expect("at")).expect("time");
        assert_eq!((expires_at - created_at).num_days(), 7);

        // The mail: to the invited address, naming the workspace and the inviter, with the link.
        let messages = smtp.wait_for(1, Duration::from_secs(10)).await;
        assert_eq!(messages.len(), 1);
        let message = readable(&messages[0]);
        assert!(message.contains("To: Ben@Example.com"), "{message}");
        assert!(
            message.contains("Subject: ada invited you to join Acme on Leadgen"),
            "{message}"
        );
        assert!(message.contains(&link), "the link is in the mail: {message}");

        // Only the token's hash is stored; the list never shows it.
        let stored = all_stored_text(
            match backend {
                Backend::Sqlite => Mode::Embedded,
                Backend::Postgres => Mode::Distributed,
            },
            &app._db.url,
        )
        .await;
        assert!(!stored.contains(&token), "the token is not at rest");
        let (status, listed) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{team}/invitations"),
            &ada,
            None,
            None,
        )
        .await;
        assert_eq!(status, 200, "{listed}");
        let pending = listed["invitations"].as_array().expect("list");
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0]["id"], created["id"]);
        assert!(!listed.to_string().contains(&token));

        // The landing page's view, to anyone signed in with the link.
        let (status, preview) = call(&app, "GET", &format!("/api/invitations/{token}"), &ben, None, None).await;
        assert_eq!(status, 200, "{preview}");
        assert_eq!(
            (
                preview["workspaceName"].as_str(),
                preview["role"].as_str(),
                preview["email"].as_str()
            ),
            (Some("Acme"), Some("member"), Some("Ben@Example.com"))
        );
        assert_eq!(preview["invitedBy"]["name"], "ada");

        // Someone else is refused, told which address it is for; it stays usable.
        let accept = format!("/api/invitations/{token}/accept");
        let (status, refused) = call(&app, "POST", &accept, &carl, None, None).await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (403, Some("invitation_email")),
            "{refused}"
        );
        let message = refused["message"].as_str().expect("message");
        assert!(
            message.contains("Ben@Example.com") && message.contains("carl@example.com"),
            "{message}"
        );
        // So is the right address when the provider did not verify it.
        let unverified = sign_in_unverified(&app, "ben-elsewhere", "ben@example.com").await;
        let (status, refused) = call(&app, "POST", &accept, &unverified, None, None).await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (403, Some("invitation_email")),
            "{refused}"
        );
        assert!(
            refused["message"].as_str().expect("message").contains("not verified"),
            "{refused}"
        );

        // The invited person joins (case does not matter), once.
        let (status, joined) = call(&app, "POST", &accept, &ben, None, None).await;
        assert_eq!(status, 200, "{joined}");
        assert_eq!(
            (
                joined["id"].as_str(),
                joined["role"].as_str(),
                joined["personal"].as_bool()
            ),
            (Some(team.as_str()), Some("member"), Some(false))
        );
        let team_id = WorkspaceId::from(team.as_str());
        assert_eq!(
            app.state.store.member_role(&team_id, &ben_id).await.expect("role"),
            Some(Role::Member)
        );
        let (status, _) = call(&app, "POST", &accept, &ben, None, None).await;
        assert_eq!(status, 404, "a link works once");
        let (status, _) = call(&app, "GET", &format!("/api/invitations/{token}"), &ben, None, None).await;
        assert_eq!(status, 404);
        let (_, listed) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{team}/invitations"),
            &ada,
            None,
            None,
        )
        .await;
        assert_eq!(listed["invitations"].as_array().map(Vec::len), Some(0));

        // A member already: refused, saying so.
        let (status, refused) = invite(&app, &team, &ada, "BEN@example.com", "admin").await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (409, Some("already_member")),
            "{refused}"
        );
        // Not an address: 400.
        let (status, refused) = invite(&app, &team, &ada, "not an address", "member").await;
        assert_eq!(status, 400, "{refused}");

        // A second invitation of one address replaces the first.
        let (_, first) = invite(&app, &team, &ada, "dora@example.com", "member").await;
        let (status, second) = invite(&app, &team, &ada, "dora@example.com", "admin").await;
        assert_eq!(status, 201, "{second}");
        let (_, listed) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{team}/invitations"),
            &ada,
            None,
            None,
        )
        .await;
        let pending = listed["invitations"].as_array().expect("list");
        assert_eq!(pending.len(), 1, "{listed}");
        assert_eq!(
            (pending[0]["id"].clone(), pending[0]["role"].as_str()),
            (second["id"].clone(), Some("admin"))
        );
        let (_, dora) = app.sign_in("dora").await;
        let (status, _) = call(
            &app,
            "GET",
            &format!("/api/invitations/{}", token_of(&first)),
            &dora,
            None,
            None,
        )
        .await;
        assert_eq!(status, 404, "the replaced link no longer works");

        // Revoked: the link stops working; revoking again is 404.
        let revoke = format!(
            "/api/workspaces/{team}/invitations/{}",
            second["id"].as_str().expect("id")
        );
        let (status, _) = call(&app, "DELETE", &revoke, &ada, None, None).await;
        assert_eq!(status, 204);
        let (status, _) = call(&app, "DELETE", &revoke, &ada, None, None).await;
        assert_eq!(status, 404);
        let (status, _) = call(
            &app,
            "POST",
            &format!("/api/invitations/{}/accept", token_of(&second)),
            &dora,
            None,
            None,
        )
        .await;
        assert_eq!(status, 404, "a revoked link does not join");
        assert_eq!(
            app.state.store.member_role(&team_id, &ben_id).await.expect("role"),
            Some(Role::Member)
        );
    }
);

both_backends!(
    an_expired_invitation_says_so_and_roles_limit_who_invites_whom,
    |backend: Backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (_, ada) = app.sign_in("ada").await;
        let (ben_id, ben) = app.sign_in("ben").await;
        let (carl_id, carl) = app.sign_in("carl").await;
        let (_, stranger) = app.sign_in("stranger").await;
        let team = team(&app, &ada).await;
        let team_id = WorkspaceId::from(team.as_str());
        app.state
            .store
            .add_member(&team_id, &ben_id, Role::Member)
            .await
            .expect("ben");
        app.state
            .store
            .add_member(&team_id, &carl_id, Role::Admin)
            .await
            .expect("carl");

        // Without SMTP the invitation stands, not mailed.
        let (status, created) = invite(&app, &team, &carl, "dora@example.com", "admin").await;
        assert_eq!((status, created["mailed"].as_bool()), (201, Some(false)), "{created}");

        // Roles: a member invites nobody; an admin no owner; an owner an owner.
        let (status, refused) = invite(&app, &team, &ben, "eve@example.com", "member").await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (403, Some("role_required")),
            "{refused}"
        );
        let (status, refused) = invite(&app, &team, &carl, "eve@example.com", "owner").await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (403, Some("role_required")),
            "{refused}"
        );
        let (status, _) = invite(&app, &team, &ada, "eve@example.com", "owner").await;
        assert_eq!(status, 201);
        let (status, _) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{team}/invitations"),
            &ben,
            None,
            None,
        )
        .await;
        assert_eq!(status, 403, "a member does not list invitations");
        // A stranger learns nothing.
        let (status, _) = invite(&app, &team, &stranger, "eve@example.com", "member").await;
        assert_eq!(status, 404);
        let (status, _) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{team}/invitations"),
            &stranger,
            None,
            None,
        )
        .await;
        assert_eq!(status, 404);

        // Expired: 410 for the preview and the accept; it joins nobody; the list leaves it out.
        let (_, dora) = app.sign_in("dora").await;
        execute(
            &app,
            "UPDATE workspace_invitations SET expires_at = 1 WHERE email_key = 'dora@example.com'",
        )
        .await;
        let token = token_of(&created);
        let (status, gone) = call(&app, "GET", &format!("/api/invitations/{token}"), &dora, None, None).await;
        assert_eq!(
            (status, gone["error"].as_str()),
            (410, Some("invitation_expired")),
            "{gone}"
        );
        let (status, gone) = call(
            &app,
            "POST",
            &format!("/api/invitations/{token}/accept"),
            &dora,
            None,
            None,
        )
        .await;
        assert_eq!(
            (status, gone["error"].as_str()),
            (410, Some("invitation_expired")),
            "{gone}"
        );
        let (_, listed) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{team}/invitations"),
            &ada,
            None,
            None,
        )
        .await;
        let emails: Vec<&str> = listed["invitations"]
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|i| i["email"].as_str())
            .collect();
        assert_eq!(emails, ["eve@example.com"]);
        // Pruned a month after it expired.
        assert_eq!(app.state.store.prune_invitations().await.expect("prune"), 1);
        let (status, _) = call(&app, "GET", &format!("/api/invitations/{token}"), &dora, None, None).await;
        assert_eq!(status, 404);
        // An API token cannot accept (a session is needed).
        let (status, made) = call(
            &app,
            "POST",
            "/api/user/tokens",
            &dora,
            None,
            Some(json!({"name": "t", "scopes": ["usage:read"]})),
        )
        .await;
        assert_eq!(status, 200, "{made}");
        let (status, refused) = call(
            &app,
            "POST",
            "/api/invitations/whatever/accept",
            made["token"].as_str().expect("token"),
            None,
            None,
        )
        .await;
        assert_eq!((status, refused["error"].as_str()), (403, Some("session_required")));
    }
);

both_backends!(
    admins_revoke_any_members_token_and_see_whose_it_is,
    |backend: Backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (_, ada) = app.sign_in("ada").await;
        let (ben_id, ben) = app.sign_in("ben").await;
        let (carl_id, carl) = app.sign_in("carl").await;
        let team = team(&app, &ada).await;
        let team_id = WorkspaceId::from(team.as_str());
        app.state
            .store
            .add_member(&team_id, &ben_id, Role::Member)
            .await
            .expect("ben");
        app.state
            .store
            .add_member(&team_id, &carl_id, Role::Admin)
            .await
            .expect("carl");
        let make = |who: String, name: &'static str| {
            let (app, team) = (&app, team.clone());
            async move {
                let (status, made) = call(
                    app,
                    "POST",
                    "/api/user/tokens",
                    &who,
                    Some(&team),
                    Some(json!({"name": name, "scopes": ["usage:read"]})),
                )
                .await;
                assert_eq!(status, 200, "{made}");
                made
            }
        };
        let bens = make(ben.clone(), "ben's crm").await;
        let adas = make(ada.clone(), "ada's sync").await;
        assert_eq!(bens["info"]["owner"]["email"], "ben@example.com");

        // A member lists their own; an admin every member's, each with its owner.
        let (_, own) = call(&app, "GET", "/api/user/tokens", &ben, Some(&team), None).await;
        let own = own["tokens"].as_array().expect("tokens").clone();
        assert_eq!(own.len(), 1);
        assert_eq!(own[0]["owner"]["userId"], ben_id.as_str());
        let (_, all) = call(&app, "GET", "/api/user/tokens", &carl, Some(&team), None).await;
        let mut owners: Vec<&str> = all["tokens"]
            .as_array()
            .expect("tokens")
            .iter()
            .filter_map(|t| t["owner"]["email"].as_str())
            .collect();
        owners.sort_unstable();
        assert_eq!(owners, ["ada@example.com", "ben@example.com"]);

        // A member cannot revoke another's; an admin can, and it stops working at once.
        let adas_path = format!("/api/user/tokens/{}", adas["info"]["id"].as_str().expect("id"));
        let (status, _) = call(&app, "DELETE", &adas_path, &ben, Some(&team), None).await;
        assert_eq!(status, 404, "not the member's to revoke");
        let bens_path = format!("/api/user/tokens/{}", bens["info"]["id"].as_str().expect("id"));
        let (status, _) = call(&app, "DELETE", &bens_path, &carl, Some(&team), None).await;
        assert_eq!(status, 204);
        let (status, _) = call(
            &app,
            "GET",
            "/api/leads/usage",
            bens["token"].as_str().expect("token"),
            None,
            None,
        )
        .await;
        assert_eq!(status, 401, "revoked");
        // Not in another workspace: the admin's own personal one holds none of the team's.
        let (status, _) = call(&app, "DELETE", &adas_path, &carl, None, None).await;
        assert_eq!(status, 404);

        // The audit log says who revoked whose.
        let (_, log) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{team}/audit-events"),
            &ada,
            None,
            None,
        )
        .await;
        let revoked = log["events"]
            .as_array()
            .expect("events")
            .iter()
            .find(|e| e["action"] == "token_revoked")
            .cloned()
            .expect("a token_revoked event");
        assert_eq!(revoked["actor"]["email"], "carl@example.com");
        assert_eq!(revoked["details"]["ownerId"], ben_id.as_str());
        assert_eq!(revoked["target"], "ben's crm");
    }
);

both_backends!(
    the_audit_log_tells_who_did_what_newest_first,
    |backend: Backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (ada_id, ada) = app.sign_in("ada").await;
        let (_, ben) = app.sign_in("ben").await;
        let (carl_id, carl) = app.sign_in("carl").await;
        let (_, stranger) = app.sign_in("stranger").await;
        let team = team(&app, &ada).await;
        let team_id = WorkspaceId::from(team.as_str());
        let events_path = format!("/api/workspaces/{team}/audit-events");

        // Actions, one after another.
        call(
            &app,
            "PATCH",
            &format!("/api/workspaces/{team}"),
            &ada,
            None,
            Some(json!({"name": "Acme EU"})),
        )
        .await;
        call(
            &app,
            "POST",
            "/api/user/api-key",
            &ada,
            Some(&team),
            Some(json!({"api_key": "AIzaSyA_team_0123456789abcdefghijklmnop"})),
        )
        .await;
        let (_, invited) = invite(&app, &team, &ada, "ben@example.com", "member").await;
        let (status, _) = call(
            &app,
            "POST",
            &format!("/api/invitations/{}/accept", token_of(&invited)),
            &ben,
            None,
            None,
        )
        .await;
        assert_eq!(status, 200);
        let (_, revoked) = invite(&app, &team, &ada, "zed@example.com", "member").await;
        call(
            &app,
            "DELETE",
            &format!(
                "/api/workspaces/{team}/invitations/{}",
                revoked["id"].as_str().expect("id")
            ),
            &ada,
            None,
            None,
        )
        .await;
        app.state
            .store
            .add_member(&team_id, &carl_id, Role::Member)
            .await
            .expect("carl");
        let carl_path = format!("/api/workspaces/{team}/members/{carl_id}");
        call(&app, "PATCH", &carl_path, &ada, None, Some(json!({"role": "admin"}))).await;
        let (status, hook) = call(
            &app,
            "POST",
            "/api/user/webhooks",
            &carl,
            Some(&team),
            Some(json!({"url": "https://hooks.example.com/secret-path?k=1", "events": ["search.completed"]})),
        )
        .await;
        assert_eq!(status, 200, "{hook}");
        call(
            &app,
            "DELETE",
            &format!("/api/user/webhooks/{}", hook["webhook"]["id"].as_str().expect("id")),
            &carl,
            Some(&team),
            None,
        )
        .await;
        let (_, token) = call(
            &app,
            "POST",
            "/api/user/tokens",
            &carl,
            Some(&team),
            Some(json!({"name": "carl's", "scopes": ["usage:read"]})),
        )
        .await;
        call(
            &app,
            "DELETE",
            &format!("/api/user/tokens/{}", token["info"]["id"].as_str().expect("id")),
            &carl,
            Some(&team),
            None,
        )
        .await;
        call(
            &app,
            "POST",
            "/api/user/api-key",
            &ada,
            Some(&team),
            Some(json!({"api_key": ""})),
        )
        .await;
        let ben_id = app
            .state
            .store
            .list_members(&team_id)
            .await
            .expect("members")
            .into_iter()
            .find(|m| m.email == "ben@example.com")
            .expect("ben")
            .user_id;
        call(
            &app,
            "DELETE",
            &format!("/api/workspaces/{team}/members/{ben_id}"),
            &carl,
            None,
            None,
        )
        .await;
        let (status, _) = call(&app, "DELETE", &carl_path, &carl, None, None).await;
        assert_eq!(status, 204, "carl leaves");

        // Newest first, each with its actor.
        let (status, log) = call(&app, "GET", &events_path, &ada, None, None).await;
        assert_eq!(status, 200, "{log}");
        let events = log["events"].as_array().expect("events").clone();
        let actions: Vec<&str> = events.iter().filter_map(|e| e["action"].as_str()).collect();
        assert_eq!(
            actions,
            [
                "member_left",
                "member_removed",
                "key_removed",
                "token_revoked",
                "token_created",
                "webhook_deleted",
                "webhook_created",
                "member_role_changed",
                "invitation_revoked",
                "invitation_created",
                "invitation_accepted",
                "invitation_created",
                "key_saved",
                "workspace_renamed",
                "workspace_created",
            ]
        );
        assert!(log["nextCursor"].is_null(), "one page");
        let by_action = |action: &str| events.iter().find(|e| e["action"] == action).cloned().expect(action);
        assert_eq!(by_action("workspace_created")["actor"]["userId"], ada_id.as_str());
        assert_eq!(by_action("workspace_renamed")["details"]["from"], "Acme");
        assert_eq!(by_action("invitation_accepted")["actor"]["email"], "ben@example.com");
        assert_eq!(by_action("invitation_accepted")["details"]["role"], "member");
        let role = by_action("member_role_changed");
        assert_eq!(
            (
                role["target"].as_str(),
                role["details"]["from"].as_str(),
                role["details"]["to"].as_str()
            ),
            (Some("carl@example.com"), Some("member"), Some("admin"))
        );
        assert_eq!(
            by_action("webhook_created")["target"],
            "hooks.example.com",
            "the host only"
        );
        assert_eq!(by_action("member_removed")["target"], "ben@example.com");
        assert_eq!(by_action("member_left")["actor"]["email"], "carl@example.com");
        assert!(!log.to_string().contains("secret-path"), "never a webhook URL's path");
        assert!(!log.to_string().contains("mnop"), "never the key");

        // Paged: 4 at a time, the cursor going back in time, no event twice.
        let mut seen = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let path = match &cursor {
                Some(c) => format!("{events_path}?limit=4&before={c}"),
                None => format!("{events_path}?limit=4"),
            };
            let (status, page) = call(&app, "GET", &path, &ada, None, None).await;
            assert_eq!(status, 200, "{page}");
            let ids: Vec<String> = page["events"]
                .as_array()
                .expect("events")
                .iter()
                .map(|e| e["id"].as_str().expect("id").to_owned())
                .collect();
            assert!(ids.len() <= 4);
            seen.extend(ids);
            match page["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        let all: Vec<String> = events
            .iter()
            .map(|e| e["id"].as_str().expect("id").to_owned())
            .collect();
        assert_eq!(seen, all, "the pages, in order, are the whole log");
        for bad in ["?limit=0", "?limit=101", "?before=not-a-cursor"] {
            let (status, _) = call(&app, "GET", &format!("{events_path}{bad}"), &ada, None, None).await;
            assert_eq!(status, 400, "{bad}");
        }

        // Admins only; a stranger learns nothing; another workspace's log shows none of it.
        app.state
            .store
            .add_member(&team_id, &carl_id, Role::Member)
            .await
            .expect("carl again");
        let (status, refused) = call(&app, "GET", &events_path, &carl, None, None).await;
        assert_eq!((status, refused["error"].as_str()), (403, Some("role_required")));
        let (status, _) = call(&app, "GET", &events_path, &stranger, None, None).await;
        assert_eq!(status, 404);
        let (_, personal) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{ada_id}/audit-events"),
            &ada,
            None,
            None,
        )
        .await;
        assert_eq!(personal["events"].as_array().map(Vec::len), Some(0), "{personal}");

        // Pruned past the retention.
        execute(
            &app,
            "UPDATE audit_events SET at = 1 WHERE action = 'workspace_created'",
        )
        .await;
        assert_eq!(app.state.store.prune_audit_events(365).await.expect("prune"), 1);
        let (_, log) = call(&app, "GET", &events_path, &ada, None, None).await;
        assert!(!log.to_string().contains("workspace_created"));
    }
);

both_modes!(
    a_search_started_is_in_the_audit_log_without_its_leads,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let (_, me) = env.app.get("/api/auth/me", Some(&env.token)).await;
        let me = me["user"]["id"]
            .as_str()
            .or(me["id"].as_str())
            .expect("my id")
            .to_owned();
        let city = env.dense_city("cafe", 3);
        let (status, events) = env.stream("cafe", &city).await;
        assert_eq!(status, 200);
        let search_id = events[0].1["searchId"].as_str().expect("search id").to_owned();
        let complete = &events.last().expect("events").1;
        assert_eq!(complete["type"], "complete", "{complete}");

        let (status, log) = env
            .app
            .get(&format!("/api/workspaces/{me}/audit-events"), Some(&env.token))
            .await;
        assert_eq!(status, 200, "{log}");
        let started = log["events"]
            .as_array()
            .expect("events")
            .iter()
            .find(|e| e["action"] == "search_started")
            .cloned()
            .expect("a search_started event");
        assert_eq!(started["target"], search_id.as_str());
        assert_eq!(started["actor"]["userId"], me.as_str());
        assert_eq!(
            (
                started["details"]["type"].as_str(),
                started["details"]["location"].as_str(),
                started["details"]["coverage"].as_str()
            ),
            (Some("cafe"), Some(city.as_str()), Some("quick")),
            "{started}"
        );
        assert!(started["details"]["leadBudget"].as_u64().is_some(), "{started}");
        // Never a lead: none of the names the search found is in the log.
        let text = log.to_string();
        for lead in complete["results"].as_array().expect("results") {
            let name = lead["name"].as_str().expect("name");
            assert!(!text.contains(name), "the log holds the lead {name}");
        }
    }
);

both_backends!(
    a_mail_server_that_refuses_does_not_fail_the_invitation,
    |backend: Backend| async move {
        // Nothing listens on the discard port: the mail cannot go.
        let app = TestApp::start(backend, vec![("LEADGEN_SMTP_URL", "smtp://127.0.0.1:9".into())]).await;
        let (_, ada) = app.sign_in("ada").await;
        let team = team(&app, &ada).await;
        let (status, created) = invite(&app, &team, &ada, "ben@example.com", "member").await;
        assert_eq!((status, created["mailed"].as_bool()), (201, Some(false)), "{created}");
        let (_, ben) = app.sign_in("ben").await;
        let (status, _) = call(
            &app,
            "POST",
            &format!("/api/invitations/{}/accept", token_of(&created)),
            &ben,
            None,
            None,
        )
        .await;
        assert_eq!(status, 200, "the link works all the same");
        let (_, log) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{team}/audit-events"),
            &ada,
            None,
            None,
        )
        .await;
        let made = log["events"]
            .as_array()
            .expect("events")
            .iter()
            .find(|e| e["action"] == "invitation_created")
            .cloned()
            .expect("invitation_created");
        assert_eq!(made["details"]["mailed"], false);
    }
);

both_backends!(a_link_clicked_twice_at_once_joins_once, |backend: Backend| async move {
    let app = TestApp::start(backend, vec![]).await;
    let (_, ada) = app.sign_in("ada").await;
    let (_, ben) = app.sign_in("ben").await;
    let team = team(&app, &ada).await;
    let (_, created) = invite(&app, &team, &ada, "ben@example.com", "admin").await;
    let accept = format!("/api/invitations/{}/accept", token_of(&created));
    let (a, b) = tokio::join!(
        call(&app, "POST", &accept, &ben, None, None),
        call(&app, "POST", &accept, &ben, None, None)
    );
    let mut statuses = [a.0, b.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 404], "{a:?} {b:?}");
    let (_, log) = call(
        &app,
        "GET",
        &format!("/api/workspaces/{team}/audit-events"),
        &ada,
        None,
        None,
    )
    .await;
    let accepted = log["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["action"] == "invitation_accepted")
        .count();
    assert_eq!(accepted, 1);
});

/// A removed member's running search stops, and the team's history keeps it, cancelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_members_running_search_is_cancelled_and_kept() {
    let env = SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder().latency(Duration::from_millis(200)),
        1,
        vec![],
    )
    .await;
    let ada = env.token.clone();
    let (ben_id, ben) = env.app.sign_in("ben").await;
    let team = team(&env.app, &ada).await;
    let team_id = WorkspaceId::from(team.as_str());
    env.app
        .state
        .store
        .add_member(&team_id, &ben_id, Role::Member)
        .await
        .expect("ben");
    let (status, saved) = call(
        &env.app,
        "POST",
        "/api/user/api-key",
        &ada,
        Some(&team),
        Some(json!({"api_key": "AIzaSyA_team_0123456789abcdefghijklmnop"})),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let city = env
        .sim
        .cities()
        .iter()
        .find(|c| (61..=200).contains(&env.sim.world().places_for(c.name, "restaurant").len()))
        .expect("a city with more than 60 restaurants");
    let v = city.viewport;
    let body = json!({
        "businessType": "restaurant",
        "coverage": "full",
        "background": true,
        "area": {
            "low": {"latitude": v.low.latitude, "longitude": v.low.longitude},
            "high": {"latitude": v.high.latitude, "longitude": v.high.longitude},
        },
    });
    // Ben starts it in the team, and leaves the stream: it goes on in the background.
    let response = env
        .app
        .client
        .post("/api/leads/search-stream")
        .header("authorization", format!("Bearer {ben}"))
        .header("Leadgen-Workspace", &team)
        .body_json(&body)
        .send()
        .await;
    assert_eq!(response.0.status().as_u16(), 200);
    drop(response);
    let running_id = {
        let mut found = None;
        for _ in 0..100 {
            let (_, page) = call(
                &env.app,
                "GET",
                "/api/leads/searches?status=running",
                &ada,
                Some(&team),
                None,
            )
            .await;
            if let Some(id) = page["searches"][0]["id"].as_str() {
                found = Some(id.to_owned());
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        found.expect("ben's search runs in the team")
    };

    let (status, _) = call(
        &env.app,
        "DELETE",
        &format!("/api/workspaces/{team}/members/{ben_id}"),
        &ada,
        None,
        None,
    )
    .await;
    assert_eq!(status, 204);
    let mut entry = Value::Null;
    for _ in 0..150 {
        let (_, now) = call(
            &env.app,
            "GET",
            &format!("/api/leads/searches/{running_id}"),
            &ada,
            Some(&team),
            None,
        )
        .await;
        if now["status"] == "cancelled" {
            entry = now;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(entry["status"], "cancelled", "the history keeps it, cancelled: {entry}");
    let (_, log) = call(
        &env.app,
        "GET",
        &format!("/api/workspaces/{team}/audit-events"),
        &ada,
        None,
        None,
    )
    .await;
    let removed = log["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["action"] == "member_removed")
        .cloned()
        .expect("member_removed");
    assert_eq!(removed["details"]["searchesCancelled"], 1, "{removed}");
}

both_backends!(
    a_personal_workspace_takes_no_invitations,
    |backend: Backend| async move {
        let app = TestApp::start(backend, vec![]).await;
        let (ada_id, ada) = app.sign_in("ada").await;
        // A personal workspace's id is its person's id.
        let ada_id = ada_id.as_str();
        let (status, refused) = invite(&app, ada_id, &ada, "ben@example.com", "member").await;
        assert_eq!(
            (status, refused["error"].as_str()),
            (403, Some("personal_workspace")),
            "{refused}"
        );
        let (status, listed) = call(
            &app,
            "GET",
            &format!("/api/workspaces/{ada_id}/invitations"),
            &ada,
            None,
            None,
        )
        .await;
        assert_eq!(status, 200, "{listed}");
        assert_eq!(listed["invitations"], json!([]), "nothing was made");
        // A workspace made to be shared takes them.
        let team = team(&app, &ada).await;
        let (status, created) = invite(&app, &team, &ada, "ben@example.com", "member").await;
        assert_eq!(status, 201, "{created}");
    }
);
