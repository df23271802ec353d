//! Export to Google Sheets against the Google fake (`leadgen_testkit::google_sim`): the
//! grant, new and existing sheets and tabs, batching and retries, re-authentication, and
//! other users' sheets. Cells are read back from the fake.

use std::net::SocketAddr;

use leadgen_testkit::google_sim::GoogleSim;
use secrecy::SecretString;
use serde_json::{Value, json};

use crate::{
    both_backends,
    search::{env::Mode, no_lead_at_rest::all_stored_text},
    support::{Backend, TestApp},
};

const CLIENT_ID: &str = "leadgen-test-client.apps.googleusercontent.com";
const CLIENT_SECRET: &str = "leadgen-test-secret";

struct SheetsEnv {
    google: GoogleSim,
    app: TestApp,
}

impl SheetsEnv {
    async fn start(backend: Backend) -> Self {
        let google = GoogleSim::builder()
            .client(CLIENT_ID, CLIENT_SECRET)
            .start(SocketAddr::from(([127, 0, 0, 1], 0)))
            .await
            .expect("google fake");
        let app = TestApp::start(
            backend,
            vec![
                ("LEADGEN_OIDC_CLIENT_ID", CLIENT_ID.into()),
                ("LEADGEN_OIDC_CLIENT_SECRET", CLIENT_SECRET.into()),
                // Never contacted here: the grant is stored as the callback would.
                ("LEADGEN_OIDC_ISSUER", "http://127.0.0.1:9".into()),
                ("LEADGEN_GOOGLE_TOKEN_URL", google.token_url()),
                ("LEADGEN_SHEETS_BASE_URL", google.sheets_base_url()),
                ("LEADGEN_DRIVE_BASE_URL", google.drive_base_url()),
            ],
        )
        .await;
        Self { google, app }
    }

    /// Signs in `who` and stores a Sheets grant for their Google identity `who@...`.
    async fn user_with_grant(&self, who: &str) -> (leadgen_core::ids::UserId, String, String) {
        let (user_id, token) = self.app.sign_in(who).await;
        let refresh = self.google.grant_sheets(&identity(who));
        self.app
            .state
            .sheets
            .store_grant(&user_id, &SecretString::from(refresh.clone()))
            .await
            .expect("store grant");
        (user_id, token, refresh)
    }
}

fn identity(who: &str) -> String {
    format!("{who}@example.com")
}

fn leads(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({
                "name": format!("Business {i:03}"),
                "address": format!("{i} Main St, Austin, TX"),
                // Some leads have no phone or website: those cells stay empty.
                "phone": if i % 3 == 0 { Value::Null } else { json!(format!("(512) 555-{i:04}")) },
                "website": if i % 4 == 0 { json!("") } else { json!(format!("https://b{i}.example")) },
                "placeId": format!("place-{i}"),
                "rating": 4.5,
            })
        })
        .collect()
}

fn rows_of(leads: &[Value]) -> Vec<Vec<String>> {
    leads
        .iter()
        .map(|l| {
            ["name", "address", "phone", "website"]
                .iter()
                .map(|f| l[*f].as_str().unwrap_or("").to_owned())
                .collect()
        })
        .collect()
}

fn header() -> Vec<String> {
    ["Name", "Address", "Phone", "Website"].map(String::from).to_vec()
}

/// Cells as the fake keeps them: trailing empty cells are not stored.
fn trimmed(rows: Vec<Vec<String>>) -> Vec<Vec<String>> {
    rows.into_iter()
        .map(|mut r| {
            while r.last().is_some_and(String::is_empty) {
                r.pop();
            }
            r
        })
        .collect()
}

fn same_cells(actual: Vec<Vec<String>>, expected: Vec<Vec<String>>) {
    assert_eq!(trimmed(actual), trimmed(expected));
}

both_backends!(a_new_sheet_gets_the_default_name_and_the_header, |backend| async move {
    let env = SheetsEnv::start(backend).await;
    let (user_id, token, _) = env.user_with_grant("ana").await;
    let (status, connected) = env.app.get("/api/leads/sheets/auth-status", Some(&token)).await;
    assert_eq!(status, 200, "{connected}");
    assert_eq!(connected["authenticated"], true);
    assert_eq!(connected["hasRefreshToken"], true);
    assert_eq!(connected["needsReauth"], false);

    let leads = leads(7);
    let (status, body) = env
        .app
        .post(
            "/api/leads/export-to-sheets",
            Some(&token),
            Some(json!({"leads": leads, "sheetName": "  ", "businessType": "dentist", "location": "Austin, TX"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let id = body["spreadsheetId"].as_str().expect("id");
    assert_eq!(body["sheetName"], "Austin, TX dentist Leads");
    assert_eq!(body["rowsWritten"], 7);
    assert!(body["sheetUrl"].as_str().expect("url").contains(id));
    assert!(body["message"].as_str().expect("message").contains("7 leads"));
    // The audit log of the workspace it was made from (the personal one: no header)
    // records the export, without a lead (checked below with the whole database).
    let (_, log) = env
        .app
        .get(&format!("/api/workspaces/{user_id}/audit-events"), Some(&token))
        .await;
    let export = &log["events"][0];
    assert_eq!(
        (
            export["action"].as_str(),
            export["target"].as_str(),
            export["details"]["rows"].as_u64()
        ),
        (Some("export_made"), Some(id), Some(7)),
        "{log}"
    );
    assert_eq!(export["actor"]["userId"], user_id.as_str());

    let sheet = env.google.spreadsheet(id).expect("created at Google");
    assert_eq!(sheet.title, "Austin, TX dentist Leads");
    assert_eq!(sheet.owner, identity("ana"));
    let tab = &sheet.tabs[0].title;
    let mut expected = vec![header()];
    expected.extend(rows_of(&leads));
    same_cells(env.google.values(id, tab).expect("cells"), expected);

    // The new sheet is in the user's list; no lead is in our database.
    let (status, list) = env.app.get("/api/leads/sheets", Some(&token)).await;
    assert_eq!(status, 200, "{list}");
    assert!(list["sheets"].as_array().expect("sheets").iter().any(|s| s["id"] == id));
    let mode = match backend {
        Backend::Sqlite => Mode::Embedded,
        Backend::Postgres => Mode::Distributed,
    };
    let stored = all_stored_text(mode, &env.app._db.url).await;
    for lead in &leads {
        for field in ["name", "address", "phone"] {
            if let Some(text) = lead[field].as_str() {
                assert!(!stored.contains(text), "{field} '{text}' of a lead is stored");
            }
        }
    }
    let _ = user_id;
});

both_backends!(
    an_enriched_search_exports_emails_and_profiles_after_the_four_columns,
    |backend| async move {
        let env = SheetsEnv::start(backend).await;
        let (_user_id, token, _) = env.user_with_grant("eve").await;
        let mut leads = leads(3);
        leads[0]["contacts"] = json!({
            "emails": ["hello@b0.example", "events@b0.example"],
            "socials": {"facebook": "https://www.facebook.com/b0", "tiktok": "https://www.tiktok.com/@b0"},
            "contactPage": "https://b0.example/contact"
        });
        leads[1]["contacts"] = json!({"emails": [], "socials": {}});
        // leads[2]: no contacts at all (its site was not read in time): empty cells.
        let export = |leads: &[Value], enriched: Option<bool>| {
            let mut body = json!({"leads": leads, "businessType": "cafe", "location": "Austin"});
            if let Some(enriched) = enriched {
                body["enriched"] = json!(enriched);
            }
            body
        };
        let (status, body) = env
            .app
            .post(
                "/api/leads/export-to-sheets",
                Some(&token),
                Some(export(&leads, Some(true))),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let id = body["spreadsheetId"].as_str().expect("id");
        let tab = env.google.spreadsheet(id).expect("sheet").tabs[0].title.clone();
        let mut expected = vec![
            [
                "Name",
                "Address",
                "Phone",
                "Website",
                "Email",
                "Facebook",
                "Instagram",
                "LinkedIn",
                "X",
                "YouTube",
                "TikTok",
            ]
            .map(String::from)
            .to_vec(),
        ];
        let mut rows = rows_of(&leads);
        rows[0].extend(
            [
                "hello@b0.example, events@b0.example",
                "https://www.facebook.com/b0",
                "",
                "",
                "",
                "",
                "https://www.tiktok.com/@b0",
            ]
            .map(String::from),
        );
        expected.extend(rows);
        same_cells(env.google.values(id, &tab).expect("cells"), expected);

        // Not enriched (absent or false): exactly the four columns, contacts sent or not.
        for enriched in [None, Some(false)] {
            let (status, body) = env
                .app
                .post(
                    "/api/leads/export-to-sheets",
                    Some(&token),
                    Some(export(&leads, enriched)),
                )
                .await;
            assert_eq!(status, 200, "{body}");
            let id = body["spreadsheetId"].as_str().expect("id");
            let tab = env.google.spreadsheet(id).expect("sheet").tabs[0].title.clone();
            let mut expected = vec![header()];
            expected.extend(rows_of(&leads));
            same_cells(env.google.values(id, &tab).expect("cells"), expected);
        }

        // An absurd address is refused like any other over-long cell.
        leads[1]["contacts"]["emails"] = json!(["x".repeat(3_000)]);
        let (status, body) = env
            .app
            .post(
                "/api/leads/export-to-sheets",
                Some(&token),
                Some(export(&leads, Some(true))),
            )
            .await;
        assert_eq!(status, 400, "{body}");
        assert!(
            body["message"].as_str().expect("message").contains("Lead 2: Email"),
            "{body}"
        );
    }
);

#[tokio::test]
async fn an_existing_sheet_takes_rows_in_its_first_tab_and_a_new_tab_gets_the_header() {
    let env = SheetsEnv::start(Backend::Sqlite).await;
    let (_, token, _) = env.user_with_grant("ben").await;
    let id = env
        .google
        .create_spreadsheet(&identity("ben"), "Agency pipeline", &["Clients", "Archive"]);
    let url = format!("https://docs.google.com/spreadsheets/d/{id}/edit#gid=0");

    // Validate by URL: id, name and tabs come back and the sheet joins the list.
    let (status, valid) = env
        .app
        .post(
            "/api/leads/sheets/validate",
            Some(&token),
            Some(json!({"spreadsheetId": url})),
        )
        .await;
    assert_eq!(status, 200, "{valid}");
    assert_eq!(valid["id"], id.as_str());
    assert_eq!(valid["name"], "Agency pipeline");
    assert_eq!(valid["worksheets"], json!([{"name": "Clients"}, {"name": "Archive"}]));
    let (_, list) = env.app.get("/api/leads/sheets", Some(&token)).await;
    assert!(
        list["sheets"]
            .as_array()
            .expect("sheets")
            .iter()
            .any(|s| s["id"] == id.as_str())
    );

    let first = leads(3);
    let (status, body) = env
        .app
        .post(
            "/api/leads/export-to-sheets",
            Some(&token),
            Some(json!({"leads": first, "sheetId": id, "worksheetName": "", "businessType": "cafe", "location": "Austin"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["worksheetName"], "Clients");
    same_cells(env.google.values(&id, "Clients").expect("cells"), rows_of(&first));
    assert_eq!(
        env.google.values(&id, "Archive").expect("cells"),
        Vec::<Vec<String>>::new()
    );

    // A second export appends below; a named tab that does not exist is created with the header.
    let second = leads(2);
    let (status, _) = env
        .app
        .post(
            "/api/leads/export-to-sheets",
            Some(&token),
            Some(json!({"leads": second, "sheetId": id, "businessType": "cafe", "location": "Austin"})),
        )
        .await;
    assert_eq!(status, 200);
    let mut both = rows_of(&first);
    both.extend(rows_of(&second));
    same_cells(env.google.values(&id, "Clients").expect("cells"), both);

    let (status, body) = env
        .app
        .post(
            "/api/leads/export-to-sheets",
            Some(&token),
            Some(json!({"leads": second, "sheetId": id, "worksheetName": "November 'leads'", "businessType": "cafe", "location": "Austin"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let mut expected = vec![header()];
    expected.extend(rows_of(&second));
    same_cells(env.google.values(&id, "November 'leads'").expect("new tab"), expected);
    let (status, tabs) = env
        .app
        .get(&format!("/api/leads/sheets/{id}/worksheets"), Some(&token))
        .await;
    assert_eq!(status, 200, "{tabs}");
    assert_eq!(
        tabs["worksheets"],
        json!([{"name": "Clients"}, {"name": "Archive"}, {"name": "November 'leads'"}])
    );
}

#[tokio::test]
async fn five_hundred_rows_go_in_batches_and_passing_failures_are_retried() {
    let env = SheetsEnv::start(Backend::Sqlite).await;
    let (_, token, _) = env.user_with_grant("cy").await;
    let leads = leads(500);
    // Google answers the next two calls with 503: the export retries and succeeds.
    env.google.fail_next(2, 503);
    let (status, body) = env
        .app
        .post(
            "/api/leads/export-to-sheets",
            Some(&token),
            Some(json!({"leads": leads, "sheetName": "Big", "businessType": "plumber", "location": "Denver"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["rowsWritten"], 500);
    let id = body["spreadsheetId"].as_str().expect("id");
    let sizes = env.google.append_sizes(id);
    assert!(sizes.len() >= 3, "batched: {sizes:?}");
    assert!(
        sizes.iter().all(|s| *s <= 250),
        "each batch within the limit: {sizes:?}"
    );
    assert_eq!(sizes.iter().sum::<usize>(), 501, "header and every row once: {sizes:?}");
    let mut expected = vec![header()];
    expected.extend(rows_of(&leads));
    same_cells(env.google.values(id, "Sheet1").expect("cells"), expected);
    let failed = env.google.requests().iter().filter(|r| r.status == 503).count();
    assert_eq!(failed, 2, "the two failures were answered and retried");
}

#[tokio::test]
async fn a_revoked_grant_needs_reauthentication() {
    let env = SheetsEnv::start(Backend::Sqlite).await;
    let (_, token, refresh) = env.user_with_grant("di").await;
    let (_, before) = env.app.get("/api/leads/sheets/auth-status", Some(&token)).await;
    assert_eq!(before["authenticated"], true);

    env.google.revoke(&refresh);
    env.google.expire_access_tokens();
    let (status, after) = env.app.get("/api/leads/sheets/auth-status", Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(after["authenticated"], false);
    assert_eq!(after["hasRefreshToken"], true);
    assert_eq!(after["needsReauth"], true);

    let (status, body) = env.app.get("/api/leads/sheets", Some(&token)).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["needsReauth"], true);
    assert_eq!(body["error"], "needs_reauth");
    let (status, body) = env
        .app
        .post(
            "/api/leads/export-to-sheets",
            Some(&token),
            Some(json!({"leads": leads(1), "businessType": "cafe", "location": "Austin"})),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["needsReauth"], true);
}

#[tokio::test]
async fn no_grant_or_a_grant_without_sheets_scopes_asks_for_consent() {
    let env = SheetsEnv::start(Backend::Sqlite).await;
    let (_, token) = env.app.sign_in("ed").await;
    let (status, body) = env.app.get("/api/leads/sheets/auth-status", Some(&token)).await;
    assert_eq!(status, 200);
    assert_eq!(body["hasRefreshToken"], false);
    assert_eq!(body["needsReauth"], true);
    let (status, body) = env.app.get("/api/leads/sheets", Some(&token)).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["needsReauth"], true);

    // A grant that only covers sign-in (the user unticked Sheets on the consent screen).
    let (user_id, token) = env.app.sign_in("fay").await;
    let refresh = env.google.grant(&identity("fay"), &["openid", "email"]);
    env.app
        .state
        .sheets
        .store_grant(&user_id, &SecretString::from(refresh))
        .await
        .expect("grant");
    let (status, body) = env
        .app
        .post(
            "/api/leads/export-to-sheets",
            Some(&token),
            Some(json!({"leads": leads(1), "businessType": "cafe", "location": "Austin"})),
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["needsReauth"], true);
    assert!(env.google.spreadsheets_owned_by(&identity("fay")).is_empty());
}

#[tokio::test]
async fn another_users_sheet_is_refused() {
    let env = SheetsEnv::start(Backend::Sqlite).await;
    let (_, owner_token, _) = env.user_with_grant("gus").await;
    let (_, other_token, _) = env.user_with_grant("hal").await;
    let (status, body) = env
        .app
        .post(
            "/api/leads/export-to-sheets",
            Some(&owner_token),
            Some(json!({"leads": leads(2), "businessType": "cafe", "location": "Austin"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let id = body["spreadsheetId"].as_str().expect("id").to_owned();
    let before = env.google.values(&id, "Sheet1").expect("cells");

    let (status, body) = env
        .app
        .post(
            "/api/leads/export-to-sheets",
            Some(&other_token),
            Some(json!({"leads": leads(5), "sheetId": id, "businessType": "cafe", "location": "Austin"})),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    assert!(
        body["message"].as_str().expect("message").contains("cannot open"),
        "{body}"
    );
    assert!(body.get("needsReauth").is_none(), "not a consent problem: {body}");
    assert_eq!(
        env.google.values(&id, "Sheet1").expect("cells"),
        before,
        "nothing written"
    );

    for path in [format!("/api/leads/sheets/{id}/worksheets")] {
        let (status, _) = env.app.get(&path, Some(&other_token)).await;
        assert_eq!(status, 404, "{path}");
    }
    let (status, _) = env
        .app
        .post(
            "/api/leads/sheets/validate",
            Some(&other_token),
            Some(json!({"spreadsheetId": id})),
        )
        .await;
    assert_eq!(status, 404);
    let (_, list) = env.app.get("/api/leads/sheets", Some(&other_token)).await;
    assert!(
        !list["sheets"]
            .as_array()
            .expect("sheets")
            .iter()
            .any(|s| s["id"] == id.as_str()),
        "{list}"
    );
}

#[tokio::test]
async fn bad_requests_get_specific_errors() {
    let env = SheetsEnv::start(Backend::Sqlite).await;
    let (_, token, _) = env.user_with_grant("ivy").await;
    let cases = [
        (
            json!({"leads": [], "businessType": "cafe", "location": "Austin"}),
            "no leads",
        ),
        (
            json!({"leads": leads(1), "sheetId": "not a sheet/../x", "businessType": "cafe", "location": "Austin"}),
            "not a spreadsheet id",
        ),
        (
            json!({"leads": [{"name": "", "address": "x"}], "businessType": "cafe", "location": "Austin"}),
            "name is empty",
        ),
        (
            json!({"leads": leads(1), "worksheetName": "x".repeat(101), "businessType": "cafe", "location": "Austin"}),
            "at most 100",
        ),
    ];
    for (body, want) in cases {
        let (status, answer) = env
            .app
            .post("/api/leads/export-to-sheets", Some(&token), Some(body))
            .await;
        assert_eq!(status, 400, "{answer}");
        assert!(
            answer["message"].as_str().expect("message").contains(want),
            "{want}: {answer}"
        );
    }
    let (status, answer) = env
        .app
        .post(
            "/api/leads/sheets/validate",
            Some(&token),
            Some(json!({"spreadsheetId": "https://example.com/x"})),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    let (status, _) = env.app.get("/api/leads/sheets", None).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn the_grant_is_sealed_at_rest() {
    let env = SheetsEnv::start(Backend::Sqlite).await;
    let (_, _, refresh) = env.user_with_grant("jo").await;
    let stored = all_stored_text(Mode::Embedded, &env.app._db.url).await;
    assert!(!stored.contains(&refresh), "the refresh token is stored in plain text");
    assert!(
        !stored.contains(&refresh[4..refresh.len() - 4]),
        "a readable part of it is stored"
    );
}
