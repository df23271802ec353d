//! Delivery of what a saved search's run found new (issue #29 item 5), in both modes: a
//! real SMTP server (aiosmtpd) receives one mail whose CSV holds exactly the run's new
//! leads, a webhook receiver gets one signed `saved_search.new_places` event with the same
//! leads, the saved search says how each channel went, and a second `onlyNew` run that
//! finds nothing new sends nothing. Sheets: the run's new leads are appended to the
//! chosen tab, through the Google Sheets fake.

use std::time::Duration;

use leadgen_testkit::{places_sim::PlacesSim, smtp::SmtpServer};
use serde_json::{Value, json};

use super::env::{SearchEnv, parse_sse};
use crate::{both_modes, webhooks::Receiver};

const PATH: &str = "/api/leads/saved-searches";

async fn call(env: &SearchEnv, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    crate::workspaces::call(&env.app, method, path, &env.token, None, body).await
}

/// Runs saved search `id` now and follows the run's events to its `complete`.
async fn run(env: &SearchEnv, id: &str) -> (String, Value) {
    let (status, queued) = call(env, "POST", &format!("{PATH}/{id}/run"), None).await;
    assert_eq!(status, 202, "{queued}");
    let search_id = queued["searchId"].as_str().expect("searchId").to_owned();
    let resp = env
        .app
        .client
        .get(format!("/api/leads/searches/{search_id}/events"))
        .header("authorization", format!("Bearer {}", env.token))
        .send()
        .await;
    assert_eq!(resp.0.status().as_u16(), 200);
    let text = tokio::time::timeout(Duration::from_secs(120), resp.0.into_body().into_string())
        .await
        .expect("the run ends")
        .expect("body");
    let complete = parse_sse(&text).pop().expect("events").1;
    assert_eq!(complete["type"], "complete", "{complete}");
    (search_id, complete)
}

/// The saved search once every channel in `channels` has a settled `lastDelivery`.
async fn settled(env: &SearchEnv, id: &str, channels: &[&str]) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (status, saved) = call(env, "GET", &format!("{PATH}/{id}"), None).await;
        assert_eq!(status, 200, "{saved}");
        let done = channels.iter().all(|c| {
            let s = &saved["lastDelivery"][c]["status"];
            s == "sent" || s == "failed"
        });
        if done {
            return saved;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "deliveries still pending: {saved}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn place_ids(leads: &Value) -> Vec<String> {
    leads
        .as_array()
        .expect("leads")
        .iter()
        .map(|l| l["placeId"].as_str().expect("placeId").to_owned())
        .collect()
}

/// The place ids of the CSV attached to a raw message (the last column), in order.
fn mailed_ids(message: &str) -> Vec<String> {
    let message = message.replace("\r\n", "\n");
    let part = message
        .split("\n--")
        .find(|part| part.contains("Content-Type: text/csv"))
        .unwrap_or_else(|| panic!("a text/csv part in {message}"));
    let (_, body) = part.split_once("\n\n").expect("the part's head and body");
    let body: String = body.lines().map(str::trim).collect();
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(body)
        .expect("base64 body");
    let csv = String::from_utf8(bytes).expect("utf-8 csv");
    let mut lines = csv
        .trim_start_matches('\u{feff}')
        .split("\r\n")
        .filter(|l| !l.is_empty());
    assert!(lines.next().expect("header").starts_with("\"Name\",\"Address\""));
    lines
        .map(|row| row.rsplit(',').next().expect("place id").trim_matches('"').to_owned())
        .collect()
}

both_modes!(
    a_saved_search_run_delivers_only_its_new_leads_by_email_and_webhook,
    |mode| async move {
        let smtp = SmtpServer::start().await;
        let receiver = Receiver::start(vec![]).await;
        let env = SearchEnv::start(
            mode,
            PlacesSim::builder(),
            1,
            vec![
                ("LEADGEN_SMTP_URL", smtp.url()),
                ("LEADGEN_MAIL_FROM", "Leadgen <noreply@leads.example>".into()),
                receiver.allow(),
                ("LEADGEN_WEBHOOK_FIRST_RETRY_MS", "50".into()),
            ],
        )
        .await;
        let (hook_id, secret) = crate::webhooks::register(
            &env.app,
            &env.token,
            &receiver.url(),
            json!(["saved_search.new_places"]),
        )
        .await;

        // An ordinary (quick) search sees some of the area first: the run's new leads are
        // the rest, which only a full search finds.
        let city = env.dense_city("restaurant", 80);
        let (_, seen) = env.stream("restaurant", &city).await;
        let seen = place_ids(&seen.last().expect("events").1["results"]);
        assert!(!seen.is_empty());

        let (status, saved) = call(
            &env,
            "POST",
            PATH,
            Some(json!({
                "name": "Restaurants, new ones",
                "search": {"businessType": "restaurant", "location": city, "coverage": "full"},
                "onlyNew": true,
                "delivery": {"webhook": true, "email": true},
            })),
        )
        .await;
        assert_eq!(status, 200, "{saved}");
        assert_eq!(saved["delivery"]["notifyWhenEmpty"], false, "off by default");
        assert_eq!(saved["lastDelivery"], json!({}), "nothing delivered yet");
        let id = saved["id"].as_str().expect("id").to_owned();

        let (search_id, complete) = run(&env, &id).await;
        let new = place_ids(&complete["results"]);
        assert!(!new.is_empty(), "the full search finds more than the first page");
        assert!(new.iter().all(|p| !seen.contains(p)), "only what was not seen");

        let after = settled(&env, &id, &["email", "webhook"]).await;
        let last = &after["lastDelivery"];
        assert_eq!(last["email"]["status"], "sent", "{after}");
        assert_eq!(last["email"]["detail"], "emailed to searcher@example.com");
        assert_eq!(last["email"]["searchId"], search_id.as_str());
        assert_eq!(last["webhook"]["status"], "sent", "{after}");
        assert_eq!(last["webhook"]["detail"], "delivered to 127.0.0.1");
        assert!(last.get("sheet").is_none(), "no sheet was chosen: {after}");
        // The list answers the same.
        let (_, list) = call(&env, "GET", PATH, None).await;
        assert_eq!(list["savedSearches"][0]["lastDelivery"], *last);

        let messages = smtp.wait_for(1, Duration::from_secs(10)).await;
        assert_eq!(messages.len(), 1, "one mail");
        let message = &messages[0];
        assert!(message.contains("To: searcher@example.com"), "{message}");
        let places = if new.len() == 1 { "place" } else { "places" };
        assert!(
            message.contains(&format!(
                "Subject: Leadgen monitor \"Restaurants, new ones\": {} new {places}",
                new.len()
            )),
            "{message}"
        );
        assert_eq!(mailed_ids(message), new, "exactly the new leads, in order");

        let got = receiver.wait_for(1).await;
        assert_eq!(got.len(), 1, "one event");
        let event = crate::webhooks::verify(&secret, &got[0]).expect("a valid signature");
        assert_eq!(event["type"], "saved_search.new_places", "{event}");
        assert_eq!(event["data"]["savedSearchId"], id.as_str());
        assert_eq!(event["data"]["searchId"], search_id.as_str());
        assert_eq!(event["data"]["name"], "Restaurants, new ones");
        assert_eq!(place_ids(&event["data"]["leads"]), new);
        let log = crate::webhooks::deliveries(&env.app, &env.token, &hook_id).await;
        assert_eq!(log.len(), 1, "{log:?}");
        assert_eq!(log[0]["event"], "saved_search.new_places");

        // Again: everything was seen, nothing is new, nothing is sent.
        let (second_id, second) = run(&env, &id).await;
        assert_eq!(place_ids(&second["results"]), Vec::<String>::new());
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert_eq!(smtp.messages().len(), 1, "no second mail");
        assert_eq!(receiver.received().len(), 1, "no second event");
        let (_, unchanged) = call(&env, "GET", &format!("{PATH}/{id}"), None).await;
        assert_eq!(unchanged["lastSearchId"], second_id.as_str());
        assert_eq!(unchanged["lastDelivery"]["email"]["searchId"], search_id.as_str());
    }
);

both_modes!(notify_when_empty_mails_a_run_that_found_nothing, |mode| async move {
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
    let (_, seen) = env.stream("bakery", "Boston").await;
    assert!(!place_ids(&seen.last().expect("events").1["results"]).is_empty());
    let (status, saved) = call(
        &env,
        "POST",
        PATH,
        Some(json!({
            "name": "Bakeries, quiet weeks too",
            "search": {"businessType": "bakery", "location": "Boston"},
            "onlyNew": true,
            "delivery": {"email": "searcher@example.com", "notifyWhenEmpty": true, "webhook": true},
        })),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["delivery"]["notifyWhenEmpty"], true);
    let id = saved["id"].as_str().expect("id").to_owned();
    let (_, complete) = run(&env, &id).await;
    assert_eq!(place_ids(&complete["results"]), Vec::<String>::new());
    let after = settled(&env, &id, &["email", "webhook"]).await;
    assert_eq!(after["lastDelivery"]["email"]["status"], "sent", "{after}");
    // No endpoint subscribes: the saved search says so rather than claiming it was sent.
    assert_eq!(after["lastDelivery"]["webhook"]["status"], "failed", "{after}");
    assert_eq!(
        after["lastDelivery"]["webhook"]["detail"],
        "no webhook endpoint of this workspace subscribes to saved_search.new_places"
    );
    let messages = smtp.wait_for(1, Duration::from_secs(10)).await;
    assert!(
        messages[0].contains("Subject: Leadgen monitor \"Bakeries, quiet weeks too\": 0 new places"),
        "{}",
        messages[0]
    );
    assert_eq!(mailed_ids(&messages[0]), Vec::<String>::new(), "a CSV with no rows");
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_search_run_appends_its_new_leads_to_the_chosen_tab() {
    const CLIENT_ID: &str = "leadgen-test-client.apps.googleusercontent.com";
    const CLIENT_SECRET: &str = "leadgen-test-secret";
    let google = leadgen_testkit::google_sim::GoogleSim::builder()
        .client(CLIENT_ID, CLIENT_SECRET)
        .start(std::net::SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("google fake");
    let env = SearchEnv::start(
        super::env::Mode::Embedded,
        PlacesSim::builder(),
        1,
        vec![
            ("LEADGEN_OIDC_CLIENT_ID", CLIENT_ID.into()),
            ("LEADGEN_OIDC_CLIENT_SECRET", CLIENT_SECRET.into()),
            ("LEADGEN_OIDC_ISSUER", "http://127.0.0.1:9".into()),
            ("LEADGEN_GOOGLE_TOKEN_URL", google.token_url()),
            ("LEADGEN_SHEETS_BASE_URL", google.sheets_base_url()),
            ("LEADGEN_DRIVE_BASE_URL", google.drive_base_url()),
        ],
    )
    .await;
    let (user_id, _) = env.app.sign_in("searcher").await;
    let refresh = google.grant_sheets("searcher@example.com");
    env.app
        .state
        .sheets
        .store_grant(&user_id, &secrecy::SecretString::from(refresh))
        .await
        .expect("grant");
    let sheet = google.create_spreadsheet("searcher@example.com", "Client leads", &["Sheet1"]);
    let (status, saved) = call(
        &env,
        "POST",
        PATH,
        Some(json!({
            "name": "Bakeries in Boston",
            "search": {"businessType": "bakery", "location": "Boston"},
            "onlyNew": true,
            "delivery": {"sheet": {"spreadsheetId": sheet, "tab": "Weekly"}},
        })),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let id = saved["id"].as_str().expect("id").to_owned();
    let (_, complete) = run(&env, &id).await;
    let expected: Vec<String> = complete["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["name"].as_str().expect("name").to_owned())
        .collect();
    assert!(!expected.is_empty());
    let after = settled(&env, &id, &["sheet"]).await;
    assert_eq!(after["lastDelivery"]["sheet"]["status"], "sent", "{after}");
    assert_eq!(
        after["lastDelivery"]["sheet"]["detail"],
        "added to \"Client leads\", tab \"Weekly\""
    );
    let snapshot = google.spreadsheet(&sheet).expect("spreadsheet");
    let tab = snapshot
        .tabs
        .iter()
        .find(|t| t.title == "Weekly")
        .expect("the chosen tab");
    assert_eq!(tab.rows[0][..4], ["Name", "Address", "Phone", "Website"]);
    let names: Vec<&str> = tab.rows[1..].iter().map(|row| row[0].as_str()).collect();
    assert_eq!(names, expected, "every new lead, in order");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_webhook_is_retried_and_the_saved_search_says_it_failed() {
    let receiver = Receiver::start(vec![crate::webhooks::Answer::Status(500)]).await;
    let env = SearchEnv::start(
        super::env::Mode::Embedded,
        PlacesSim::builder(),
        1,
        vec![
            receiver.allow(),
            ("LEADGEN_WEBHOOK_FIRST_RETRY_MS", "50".into()),
            ("LEADGEN_WEBHOOK_MAX_ATTEMPTS", "2".into()),
        ],
    )
    .await;
    crate::webhooks::register(
        &env.app,
        &env.token,
        &receiver.url(),
        json!(["saved_search.new_places"]),
    )
    .await;
    let (status, saved) = call(
        &env,
        "POST",
        PATH,
        Some(json!({
            "name": "Bakeries in Boston",
            "search": {"businessType": "bakery", "location": "Boston"},
            "onlyNew": true,
            "delivery": {"webhook": true},
        })),
    )
    .await;
    assert_eq!(status, 200, "{saved}");
    let id = saved["id"].as_str().expect("id").to_owned();
    let (search_id, complete) = run(&env, &id).await;
    assert!(!place_ids(&complete["results"]).is_empty());
    let after = settled(&env, &id, &["webhook"]).await;
    let webhook = &after["lastDelivery"]["webhook"];
    assert_eq!(webhook["status"], "failed", "{after}");
    assert_eq!(webhook["searchId"], search_id.as_str());
    let detail = webhook["detail"].as_str().expect("detail");
    assert!(
        detail.starts_with("not delivered to 127.0.0.1 after 2 attempts"),
        "{detail}"
    );
    let got = receiver.received();
    assert_eq!(got.len(), 2, "tried twice");
    assert_eq!(
        got[0].headers["webhook-id"], got[1].headers["webhook-id"],
        "the same message"
    );
}
