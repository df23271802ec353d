//! Automatic delivery of finished full searches (#26 item 2): the user's choice, a real
//! SMTP server (aiosmtpd) receiving the CSV, the history saying how it went, and the
//! refusals.

use std::time::Duration;

use leadgen_testkit::{places_sim::PlacesSim, smtp::SmtpServer};
use serde_json::{Value, json};

use super::env::SearchEnv;
use crate::both_modes;

async fn put_delivery(env: &SearchEnv, body: Value) -> (u16, Value) {
    let resp = env
        .app
        .client
        .put("/api/user/delivery")
        .header("authorization", format!("Bearer {}", env.token))
        .body_json(&body)
        .send()
        .await;
    let status = resp.0.status().as_u16();
    let text = resp.0.into_body().into_string().await.expect("body");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The history entry of `search_id` once its delivery is no longer pending.
async fn settled_delivery(env: &SearchEnv, search_id: &str) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (status, entry) = env
            .app
            .get(&format!("/api/leads/searches/{search_id}"), Some(&env.token))
            .await;
        assert_eq!(status, 200, "{entry}");
        let delivery = &entry["delivery"];
        if delivery["status"] != "pending" && !delivery.is_null() {
            return entry;
        }
        assert!(std::time::Instant::now() < deadline, "delivery still pending: {entry}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The CSV attached to a raw message (as the Maildir holds it, lines ending in `\n`):
/// its file name and its text (lettre sends it base64).
fn attached_csv(message: &str) -> (String, String) {
    let message = message.replace("\r\n", "\n");
    let part = message
        .split("\n--")
        .find(|part| part.contains("Content-Type: text/csv"))
        .unwrap_or_else(|| panic!("a text/csv part in {message}"));
    let (head, body) = part.split_once("\n\n").expect("the part's head and body");
    let name = head
        .split("filename")
        .nth(1)
        .and_then(|rest| rest.split('"').nth(1))
        .unwrap_or_else(|| panic!("a file name in {head}"))
        .to_owned();
    let body: String = body.lines().map(str::trim).collect();
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(body)
        .expect("base64 body");
    (name, String::from_utf8(bytes).expect("utf-8 csv"))
}

both_modes!(a_full_search_is_mailed_as_csv_to_its_owner, |mode| async move {
    let smtp = SmtpServer::start().await;
    let env = SearchEnv::start(
        mode,
        PlacesSim::builder(),
        1,
        vec![
            ("LEADGEN_SMTP_URL", smtp.url()),
            ("LEADGEN_MAIL_FROM", "Leadgen <noreply@leads.example>".into()),
        ],
    )
    .await;
    let (status, settings) = put_delivery(&env, json!({"kind": "email"})).await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(settings["kind"], "email");
    assert_eq!(settings["email"], "searcher@example.com");
    assert_eq!(settings["emailAvailable"], true);
    let (_, read_back) = env.app.get("/api/user/delivery", Some(&env.token)).await;
    assert_eq!(read_back["kind"], "email", "the choice is kept");

    // A quick search is not delivered: only full ones.
    let (_, quick) = env.stream("bakery", "Boston").await;
    let quick_id = quick[0].1["searchId"].as_str().expect("search id").to_owned();

    let (status, events) = env
        .stream_body(json!({"businessType": "bakery", "location": "Boston", "coverage": "full"}))
        .await;
    assert_eq!(status, 200);
    let complete = &events.last().expect("events").1;
    assert_eq!(complete["type"], "complete", "{complete}");
    let results = complete["results"].as_array().expect("results");
    assert!(!results.is_empty());
    let search_id = events[0].1["searchId"].as_str().expect("search id");

    let entry = settled_delivery(&env, search_id).await;
    assert_eq!(entry["delivery"]["status"], "sent", "{entry}");
    assert_eq!(entry["delivery"]["kind"], "email");
    assert_eq!(entry["delivery"]["detail"], "emailed to searcher@example.com");
    // The audit log has the export, made by the worker on the searcher's behalf.
    let (_, listed) = env.app.get("/api/workspaces", Some(&env.token)).await;
    let workspace = listed["workspaces"][0]["id"].as_str().expect("workspace id").to_owned();
    let (status, log) = env
        .app
        .get(&format!("/api/workspaces/{workspace}/audit-events"), Some(&env.token))
        .await;
    assert_eq!(status, 200, "{log}");
    let exports: Vec<&Value> = log["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["action"] == "export_made")
        .collect();
    assert_eq!(exports.len(), 1, "{log}");
    assert_eq!(exports[0]["actor"]["email"], "searcher@example.com");
    assert_eq!(exports[0]["details"]["to"], "email");
    assert_eq!(exports[0]["details"]["rows"], results.len());
    assert_eq!(exports[0]["details"]["searchId"], search_id);
    assert_eq!(exports[0]["details"]["automatic"], true);

    let messages = smtp.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(messages.len(), 1, "one message, for the full search only");
    let message = &messages[0];
    assert!(message.contains("To: searcher@example.com"), "{message}");
    assert!(message.contains("From: Leadgen <noreply@leads.example>"), "{message}");
    assert!(
        message.contains(&format!(
            "Subject: Your Leadgen search: Bakery in Boston ({} leads)",
            results.len()
        )),
        "{message}"
    );
    let (name, csv) = attached_csv(message);
    assert!(
        name.starts_with("leads-bakery-boston-") && name.ends_with(".csv"),
        "{name}"
    );
    let mut lines = csv.trim_start_matches('\u{feff}').split("\r\n");
    assert!(lines.next().expect("header").starts_with("\"Name\",\"Address\""));
    let mailed_ids: Vec<String> = lines
        .map(|row| row.rsplit(',').next().expect("place id").trim_matches('"').to_owned())
        .collect();
    let result_ids: Vec<String> = results
        .iter()
        .map(|r| r["placeId"].as_str().expect("placeId").to_owned())
        .collect();
    assert_eq!(mailed_ids, result_ids, "every lead, in order, one row each");

    let (_, quick_entry) = env
        .app
        .get(&format!("/api/leads/searches/{quick_id}"), Some(&env.token))
        .await;
    assert!(quick_entry.get("delivery").is_none(), "{quick_entry}");
});

both_modes!(choices_the_server_cannot_honour_are_refused, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
    let (status, body) = put_delivery(&env, json!({"kind": "email"})).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"], "email_unavailable");
    let (status, body) = put_delivery(&env, json!({"kind": "sheets"})).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"], "spreadsheet_required");
    assert_eq!(body["message"], "Choose the spreadsheet full searches go to.");
    let (status, body) = put_delivery(&env, json!({"kind": "fax"})).await;
    assert_eq!(status, 400, "{body}");
    let (_, settings) = env.app.get("/api/user/delivery", Some(&env.token)).await;
    assert_eq!(settings["kind"], "none", "nothing was saved: {settings}");
    assert_eq!(settings["emailAvailable"], false);
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_search_goes_to_a_new_tab_of_the_chosen_spreadsheet() {
    const CLIENT_ID: &str = "leadgen-test-client.apps.googleusercontent.com";
    const CLIENT_SECRET: &str = "leadgen-test-secret";
    let google = leadgen_testkit::google_sim::GoogleSim::builder()
        .client(CLIENT_ID, CLIENT_SECRET)
        .start(std::net::SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("google fake");
    let env = SearchEnv::start(
        crate::search::env::Mode::Embedded,
        PlacesSim::builder(),
        1,
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
    // The search env's user, with a Sheets grant for their Google identity.
    let (user_id, _) = env.app.sign_in("searcher").await;
    let refresh = google.grant_sheets("searcher@example.com");
    env.app
        .state
        .sheets
        .store_grant(&user_id, &secrecy::SecretString::from(refresh))
        .await
        .expect("grant");
    let sheet = google.create_spreadsheet("searcher@example.com", "Client leads", &["Sheet1"]);
    let someone_elses = google.create_spreadsheet("rival@example.com", "Not yours", &["Sheet1"]);

    let (status, refused) = put_delivery(&env, json!({"kind": "sheets", "spreadsheetId": someone_elses})).await;
    assert_eq!(
        status, 404,
        "a spreadsheet the user's Google account cannot open: {refused}"
    );
    let (status, settings) = put_delivery(&env, json!({"kind": "sheets", "spreadsheetId": sheet})).await;
    assert_eq!(status, 200, "{settings}");
    assert_eq!(settings["spreadsheetName"], "Client leads");

    let (status, events) = env
        .stream_body(json!({"businessType": "bakery", "location": "Boston", "coverage": "full"}))
        .await;
    assert_eq!(status, 200);
    let results = events.last().expect("events").1["results"]
        .as_array()
        .expect("results")
        .clone();
    let search_id = events[0].1["searchId"].as_str().expect("search id");
    let entry = settled_delivery(&env, search_id).await;
    assert_eq!(entry["delivery"]["status"], "sent", "{entry}");
    let snapshot = google.spreadsheet(&sheet).expect("spreadsheet");
    let tab = snapshot
        .tabs
        .iter()
        .find(|t| t.title.starts_with("Bakery Boston "))
        .unwrap_or_else(|| {
            panic!(
                "a new tab in {:?}",
                snapshot.tabs.iter().map(|t| &t.title).collect::<Vec<_>>()
            )
        });
    assert_eq!(
        entry["delivery"]["detail"],
        format!("added to \"Client leads\", tab \"{}\"", tab.title)
    );
    assert_eq!(tab.rows[0][..4], ["Name", "Address", "Phone", "Website"]);
    let names: Vec<&str> = tab.rows[1..].iter().map(|row| row[0].as_str()).collect();
    let expected: Vec<&str> = results.iter().map(|r| r["name"].as_str().expect("name")).collect();
    assert_eq!(names, expected, "every lead, in order");
    assert!(
        snapshot.tabs.iter().any(|t| t.title == "Sheet1" && t.rows.is_empty()),
        "the other tab is untouched"
    );
}
