//! Contact enrichment (#14) end to end, in both modes: an enriched search's leads are read
//! on the fake web by `enrich.v1` jobs, each lead with a website gets one `lead_enriched`
//! after its `business_found`, `complete` carries every lead's contacts, a reconnecting
//! client gets the `lead_enriched` events again, and nothing of them is stored.

use std::{
    collections::{HashMap, HashSet},
    net::SocketAddr,
    time::Duration,
};

use leadgen_testkit::{fake_web::FakeWeb, places_sim::PlacesSim};
use serde_json::{Value, json};

use super::{
    env::{Mode, SearchEnv, parse_sse},
    no_lead_at_rest::all_stored_text,
};
use crate::both_modes;

/// A fake web, and a search environment whose simulator points websites at it and whose
/// crawler may reach it (it listens on loopback).
pub async fn enrich_env(mode: Mode, workers: usize) -> (FakeWeb, SearchEnv) {
    let web = FakeWeb::start(SocketAddr::from(([127, 0, 0, 1], 0)))
        .await
        .expect("fake web");
    let env = SearchEnv::start(
        mode,
        PlacesSim::builder().fake_web(web.base_url.clone()),
        workers,
        vec![("LEADGEN_OUTBOUND_ALLOWED_HOSTS", web.host_port())],
    )
    .await;
    (web, env)
}

/// What the fake web says each visited site publishes, by the site's slug.
pub async fn truth(web: &FakeWeb) -> HashMap<String, Value> {
    let body: Value = reqwest::get(format!("{}/_web/truth", web.base_url))
        .await
        .expect("truth")
        .json()
        .await
        .expect("truth json");
    body["sites"]
        .as_object()
        .expect("sites")
        .iter()
        .map(|(slug, t)| (slug.clone(), t.clone()))
        .collect()
}

/// The slug of a fake-web site's URL (`{base}/sites/{slug}/`).
pub fn slug_of(website: &str) -> String {
    let path = url::Url::parse(website).expect("website url").path().to_owned();
    path.trim_matches('/').rsplit('/').next().expect("slug").to_owned()
}

fn emails(v: &Value) -> HashSet<String> {
    v.as_array()
        .map(|a| a.iter().filter_map(|e| e.as_str()).map(str::to_lowercase).collect())
        .unwrap_or_default()
}

both_modes!(
    an_enriched_search_streams_each_sites_contacts_and_completes_with_them,
    |mode: Mode| async move {
        let (web, env) = enrich_env(mode, 1).await;
        let city = env.dense_city("restaurant", 60);
        let (status, events) = env
            .stream_body(json!({"businessType": "restaurant", "location": city, "enrich": true}))
            .await;
        assert_eq!(status, 200);
        let kinds: Vec<&str> = events.iter().map(|(_, e)| e["type"].as_str().unwrap_or("")).collect();
        assert_eq!(kinds.first(), Some(&"start"));
        assert_eq!(kinds.last(), Some(&"complete"), "{kinds:?}");

        // Each lead with a website: one lead_enriched, after its business_found.
        let mut position = HashMap::new();
        let mut websites = HashMap::new();
        for (i, (_, e)) in events.iter().enumerate() {
            if e["type"] == "business_found" {
                let id = e["lead"]["placeId"].as_str().expect("id").to_owned();
                position.insert(id.clone(), i);
                let website = e["lead"]["website"].as_str().unwrap_or_default();
                assert!(
                    e["lead"].get("contacts").is_none(),
                    "a streamed lead has no contacts yet"
                );
                if !website.is_empty() {
                    websites.insert(id, website.to_owned());
                }
            }
        }
        assert_eq!(position.len(), 60);
        assert!(websites.len() >= 30, "most simulator businesses have a website");
        let mut enriched = HashMap::new();
        for (i, (_, e)) in events.iter().enumerate() {
            if e["type"] == "lead_enriched" {
                let id = e["placeId"].as_str().expect("placeId").to_owned();
                assert!(position[&id] < i, "lead_enriched follows its business_found");
                assert!(e["socials"].is_object() && e["emails"].is_array(), "{e}");
                assert!(enriched.insert(id, e.clone()).is_none(), "one lead_enriched per lead");
            }
        }
        assert_eq!(
            enriched.keys().collect::<HashSet<_>>(),
            websites.keys().collect::<HashSet<_>>(),
            "every lead with a website, and only those, got its contacts"
        );

        // Every address each site publishes in a supported form, and nothing else.
        let truth = truth(&web).await;
        let (mut published, mut found) = (0, 0);
        for (id, website) in &websites {
            let site = &truth[&slug_of(website)];
            let want = emails(&site["emails"]);
            let got = emails(&enriched[id]["emails"]);
            assert_eq!(got, want, "site {} ({})", slug_of(website), site["kind"]);
            published += want.len();
            found += got.intersection(&want).count();
        }
        assert!(published > 20, "the fake web published {published} addresses");
        assert_eq!(found, published);
        assert_eq!(web.stats().trap_hits, 0, "no request reached a refused address");

        // `complete` carries every lead, each with its contacts (empty without a website).
        let complete = &events.last().expect("complete").1;
        let results = complete["results"].as_array().expect("results");
        assert_eq!(results.len(), 60);
        for lead in results {
            let id = lead["placeId"].as_str().expect("id");
            let contacts = &lead["contacts"];
            assert!(
                contacts.is_object(),
                "an enriched search's lead carries contacts: {lead}"
            );
            match enriched.get(id) {
                Some(event) => {
                    assert_eq!(contacts["emails"], event["emails"]);
                    assert_eq!(contacts["socials"], event["socials"]);
                    assert_eq!(contacts["status"], event["status"]);
                }
                None => assert_eq!(contacts["emails"], json!([])),
            }
            // Every lead says how its site went (#26 item 4).
            let has_website = lead["website"].as_str().is_some_and(|w| !w.is_empty());
            match contacts["status"].as_str().expect("a status") {
                "no_website" => assert!(!has_website, "{lead}"),
                "found" => assert!(
                    has_website
                        && (contacts["emails"] != json!([])
                            || contacts["contactPage"].is_string()
                            || contacts["socials"]
                                .as_object()
                                .is_some_and(|s| s.values().any(|v| v.is_string()))),
                    "{lead}"
                ),
                "none" => assert!(has_website && contacts["emails"] == json!([]), "{lead}"),
                "not_read" => assert!(
                    has_website && contacts["reason"].is_string(),
                    "a site not read says why: {lead}"
                ),
                other => panic!("unknown status {other}: {lead}"),
            }
        }

        // A client reconnecting from the first lead gets the contacts again.
        let search_id = events[0].1["searchId"].as_str().expect("search id");
        let first_found = events
            .iter()
            .find(|(_, e)| e["type"] == "business_found")
            .expect("a lead")
            .0;
        let resp = env
            .app
            .client
            .get(format!("/api/leads/searches/{search_id}/events"))
            .header("authorization", format!("Bearer {}", env.token))
            .header("last-event-id", first_found.to_string())
            .send()
            .await;
        assert_eq!(resp.0.status().as_u16(), 200);
        let text = tokio::time::timeout(Duration::from_secs(30), resp.0.into_body().into_string())
            .await
            .expect("the replay ends")
            .expect("body");
        let replayed = parse_sse(&text);
        let again: HashSet<&str> = replayed
            .iter()
            .filter(|(_, e)| e["type"] == "lead_enriched")
            .filter_map(|(_, e)| e["placeId"].as_str())
            .collect();
        assert_eq!(again.len(), enriched.len(), "the replay has every lead_enriched");
        assert_eq!(replayed.last().map(|(_, e)| e["type"].clone()), Some(json!("complete")));

        // The search's history entry says it was enriched.
        let (status, history) = env.app.get("/api/leads/searches", Some(&env.token)).await;
        assert_eq!(status, 200, "{history}");
        let entry = history["searches"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["id"] == search_id))
            .expect("the search's entry");
        assert_eq!(entry["options"]["enrich"], true, "{entry}");
    }
);

both_modes!(a_search_without_enrichment_is_as_it_was, |mode: Mode| async move {
    let (web, env) = enrich_env(mode, 1).await;
    let city = env.dense_city("restaurant", 60);
    let (status, events) = env.stream("restaurant", &city).await;
    assert_eq!(status, 200);
    assert!(events.iter().all(|(_, e)| e["type"] != "lead_enriched"));
    let complete = &events.last().expect("complete").1;
    assert!(
        complete["results"]
            .as_array()
            .expect("results")
            .iter()
            .all(|lead| lead.get("contacts").is_none()),
        "no contacts key at all"
    );
    // Give a stray job time to show itself: no site was read.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(web.stats().requests, 0, "no site was read");
});

both_modes!(nothing_of_an_enriched_search_is_stored, |mode: Mode| async move {
    let (_web, env) = enrich_env(mode, 1).await;
    let mut needles = Vec::new();
    for place_type in ["restaurant", "dentist"] {
        let city = env.dense_city(place_type, 20);
        let (_, events) = env
            .stream_body(json!({"businessType": place_type, "location": city, "enrich": true}))
            .await;
        let complete = &events.last().expect("events").1;
        assert_eq!(complete["type"], "complete", "{complete}");
        for lead in complete["results"].as_array().expect("results") {
            needles.extend(emails(&lead["contacts"]["emails"]));
            for profile in lead["contacts"]["socials"]
                .as_object()
                .into_iter()
                .flat_map(|s| s.values())
            {
                needles.extend(profile.as_str().map(str::to_owned));
            }
            needles.extend(lead["contacts"]["contactPage"].as_str().map(str::to_owned));
            needles.extend(lead["website"].as_str().filter(|w| !w.is_empty()).map(str::to_owned));
        }
    }
    assert!(needles.len() > 40, "enough to look for: {}", needles.len());
    let stored = all_stored_text(mode, &env.app._db.url).await;
    assert!(stored.contains("searcher@example.com"), "the scan does read the tables");
    assert!(
        stored.contains(r#""enrich":true"#),
        "the history's options were scanned"
    );
    let leaked: Vec<&String> = needles.iter().filter(|n| stored.contains(n.as_str())).collect();
    assert!(leaked.is_empty(), "enrichment data found at rest: {leaked:?}");
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_process_logs_nothing_of_what_sites_publish() {
    use std::sync::{Arc, Mutex};

    use crate::ops::worker_process::{Launch, WorkerProcess};

    let (web, env) = enrich_env(Mode::Distributed, 0).await;
    let log = Arc::new(Mutex::new(Vec::new()));
    let _worker = WorkerProcess::start(
        &env,
        Launch {
            extra: vec![
                ("LEADGEN_OUTBOUND_ALLOWED_HOSTS", web.host_port()),
                // Everything, our crates' debug lines included.
                ("RUST_LOG", "debug".into()),
            ],
            log: Some(log.clone()),
            ..Launch::default()
        },
    );
    let city = env.dense_city("restaurant", 60);
    let (status, events) = env
        .stream_body(json!({"businessType": "restaurant", "location": city, "enrich": true}))
        .await;
    assert_eq!(status, 200);
    let complete = &events.last().expect("events").1;
    assert_eq!(complete["type"], "complete", "{complete}");
    let mut needles = Vec::new();
    for lead in complete["results"].as_array().expect("results") {
        needles.extend(emails(&lead["contacts"]["emails"]));
        for profile in lead["contacts"]["socials"]
            .as_object()
            .into_iter()
            .flat_map(|s| s.values())
        {
            needles.extend(profile.as_str().map(str::to_owned));
        }
        needles.extend(lead["contacts"]["contactPage"].as_str().map(str::to_owned));
        needles.extend(lead["website"].as_str().filter(|w| !w.is_empty()).map(str::to_owned));
    }
    assert!(needles.len() > 40, "enough to look for: {}", needles.len());
    // Lines written after `complete` (the last jobs' ends) are in too.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let lines = log.lock().expect("log").clone();
    assert!(
        lines.iter().any(|l| l.contains("enrich")),
        "the worker did log its enrichment jobs ({} lines)",
        lines.len()
    );
    let leaked: Vec<&String> = needles
        .iter()
        .filter(|n| lines.iter().any(|l| l.contains(n.as_str())))
        .collect();
    let lines_with: Vec<&String> = leaked
        .iter()
        .filter_map(|n| lines.iter().find(|l| l.contains(n.as_str())))
        .take(3)
        .collect();
    assert!(
        leaked.is_empty(),
        "enrichment data in the worker's log: {leaked:?}, e.g. {lines_with:?}"
    );
}
