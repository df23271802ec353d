//! An API process stops (a rolling restart, a deploy) while searches that do not run in
//! the background stream through it, with real `leadgen-api` and `leadgen-worker`
//! processes on Postgres and Redis (#31 item 5's last gap):
//!
//! - each answer names its search in `X-Search-Id` before any event, even while the
//!   search waits in the queue with no worker running;
//! - on SIGTERM the stopping API ends each stream with `reconnect` (no event number), its
//!   clients reconnect to the other API with `Last-Event-ID`, and every search completes
//!   with each lead exactly once, the ones still queued at the stop included (their
//!   clients know them only by the header);
//! - a search whose client does not come back is cancelled once the grace period
//!   (`LEADGEN_RECONNECT_GRACE_SECS`, short here) is over.

use std::time::{Duration, Instant};

use futures_util::future::join_all;
use leadgen_core::{session::SessionKeys, store::Store, user::ProviderIdentity};
use serde_json::{Value, json};

use super::{
    upgrade::{ApiProcess, Deployment, this_api},
    worker_process::{Launch, Target, WorkerProcess, assert_leads_once, worker_binary},
};
use crate::{
    search::env::{KEY, parse_sse},
    support::TEST_JWT_SECRET,
};

/// How long a stopped API's searches wait for their clients. Long enough for a client to
/// reconnect on a busy machine; short enough that the abandoned search is still waiting
/// in the queue when it runs out (the API stops a page into the searches ahead of it,
/// which take three pages).
const GRACE_SECS: &str = "3";
/// Google (the simulator) answers a page in this long; a quick search asks three pages.
const PAGE: Duration = Duration::from_secs(3);

/// A user and a session straight in the database (no identity provider runs here).
async fn sign_in(database_url: &str) -> String {
    let store = Store::connect(database_url).await.expect("store");
    let user = store
        .upsert_user_on_sign_in(&ProviderIdentity {
            issuer: "https://id.example".into(),
            subject: "roller".into(),
            email: "roller@example.com".into(),
            name: Some("roller".into()),
            picture: None,
            email_verified: true,
        })
        .await
        .expect("user");
    let keys = SessionKeys::new(
        &secrecy::SecretBox::new(Box::new(TEST_JWT_SECRET.as_bytes().to_vec())),
        Duration::from_secs(3600),
    );
    let (token, claims) = keys.issue(&user.id).expect("token");
    store.create_session(&claims).await.expect("session");
    store.close().await;
    token
}

/// How a stream ended.
#[derive(Debug, PartialEq)]
enum End {
    /// `complete` or `error`.
    Outcome,
    /// `reconnect`, naming this search.
    Reconnect(String),
    /// The connection closed without either.
    Dropped,
}

/// Reads `response`'s frames into `events` (those with a number) until the stream ends.
async fn read(mut response: reqwest::Response, events: &mut Vec<(u64, Value)>) -> End {
    let mut buffer = String::new();
    loop {
        let chunk = match response.chunk().await {
            Ok(Some(chunk)) => chunk,
            Ok(None) | Err(_) => return End::Dropped,
        };
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            let Some((id, event)) = parse_sse(&frame).pop() else {
                continue;
            };
            if event["type"] == "reconnect" {
                assert!(
                    !frame.contains("id:"),
                    "`reconnect` is not one of the search's numbered events: {frame}"
                );
                return End::Reconnect(event["searchId"].as_str().expect("searchId").to_owned());
            }
            let outcome = event["type"] == "complete" || event["type"] == "error";
            events.push((id, event));
            if outcome {
                return End::Outcome;
            }
        }
    }
}

/// Starts a search on `api` (not in the background) and answers its `X-Search-Id` and its
/// open stream.
async fn start(api: &str, token: &str, body: &Value) -> (String, reqwest::Response) {
    let response = reqwest::Client::new()
        .post(format!("{api}/api/leads/search-stream"))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("search-stream");
    assert_eq!(response.status(), 200, "{body}");
    let id = response
        .headers()
        .get("x-search-id")
        .and_then(|v| v.to_str().ok())
        .expect("the answer names its search in X-Search-Id")
        .to_owned();
    (id, response)
}

/// What one client saw of its search.
#[derive(Debug, Default)]
struct Followed {
    events: Vec<(u64, Value)>,
    /// Events it had when its first API stopped.
    before_stop: usize,
    reconnects: usize,
}

/// Follows search `id` as a client would: reads `first`; on `reconnect` goes on at
/// `other` after the last event number it has.
async fn follow(id: String, first: reqwest::Response, other: String, token: String) -> Followed {
    let mut followed = Followed::default();
    let mut end = read(first, &mut followed.events).await;
    loop {
        match end {
            End::Outcome => return followed,
            End::Reconnect(named) => assert_eq!(named, id, "`reconnect` names the search"),
            End::Dropped => panic!("search {id}: the stream closed without an outcome or `reconnect`"),
        }
        if followed.reconnects == 0 {
            followed.before_stop = followed.events.len();
        }
        followed.reconnects += 1;
        let mut request = reqwest::Client::new()
            .get(format!("{other}/api/leads/searches/{id}/events"))
            .bearer_auth(&token);
        if let Some((last, _)) = followed.events.last() {
            request = request.header("last-event-id", last.to_string());
        }
        let response = request.send().await.expect("reconnect");
        assert_eq!(response.status(), 200, "search {id} reconnects to the other API");
        end = read(response, &mut followed.events).await;
    }
}

async fn history_status(api: &str, token: &str, id: &str) -> String {
    let entry: Value = reqwest::Client::new()
        .get(format!("{api}/api/leads/searches/{id}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("history")
        .json()
        .await
        .expect("JSON");
    entry["status"].as_str().expect("status").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_stopping_api_hands_its_searches_to_reconnecting_clients_and_cancels_an_abandoned_one() {
    leadgen_core::install_crypto_provider();
    let deployment = Deployment::new(PAGE).await;
    let grace = [("LEADGEN_RECONNECT_GRACE_SECS", GRACE_SECS)];
    let stopping = ApiProcess::start_with(&this_api(), &deployment, &grace).await;
    let staying = ApiProcess::start_with(&this_api(), &deployment, &grace).await;
    let token = sign_in(&deployment.db.url).await;
    let saved = reqwest::Client::new()
        .post(format!("{}/api/user/api-key", stopping.base))
        .bearer_auth(&token)
        .json(&json!({"api_key": KEY}))
        .send()
        .await
        .expect("save key");
    assert_eq!(saved.status(), 200, "the Places key is saved");

    // No worker yet: each search waits in the queue, and its answer names it already.
    // Every search asks Google three pages (over 40 places): the two that run first are
    // still running when the abandoned one's grace period ends, and the abandoned one
    // would not be over after its first page either.
    let kinds = ["restaurant", "cafe"];
    let city = deployment
        .sim
        .cities()
        .iter()
        .map(|c| c.name.to_string())
        .find(|name| {
            kinds
                .iter()
                .all(|k| deployment.sim.world().places_for(name, k).len() > 40)
        })
        .expect("a city with over 40 restaurants and cafes");
    let mut started = Vec::new();
    // The queue is first come, first served: two followed searches run first, then the
    // abandoned one (the third) and two more wait behind them (two slots).
    for (i, kind) in ["restaurant", "cafe", "restaurant", "cafe", "restaurant"]
        .into_iter()
        .enumerate()
    {
        let body = json!({"businessType": kind, "location": city});
        let (id, response) = start(&stopping.base, &token, &body).await;
        started.push((i == 2, kind, id, response));
    }
    let (_, _, first_id, first) = &mut started[0];
    let nothing_yet = tokio::time::timeout(Duration::from_millis(500), first.chunk()).await;
    assert!(
        nothing_yet.is_err(),
        "no event while no worker runs, yet the id is known: {first_id} ({nothing_yet:?})"
    );

    let mut clients = Vec::new();
    let mut abandoned = None;
    for (abandons, kind, id, response) in started {
        if abandons {
            // Its client hears `reconnect` and goes away.
            abandoned = Some((
                id.clone(),
                tokio::spawn(async move { read(response, &mut Vec::new()).await }),
            ));
        } else {
            let task = tokio::spawn(follow(id.clone(), response, staying.base.clone(), token.clone()));
            clients.push((kind, id, task));
        }
    }
    let (abandoned_id, abandoned_client) = abandoned.expect("the abandoned search");

    let worker = WorkerProcess::start_on(
        &Target {
            database_url: &deployment.db.url,
            prefix: &deployment.prefix,
            places_url: &deployment.sim.base_url,
        },
        Launch {
            extra: vec![("LEADGEN_WORKER_CONCURRENCY", "2".into())],
            binary: Some(worker_binary()),
            ..Launch::default()
        },
    );
    // Mid-flight: two searches running with their first page of leads sent, three waiting.
    let deadline = Instant::now() + Duration::from_secs(30);
    while worker.jobs_running().await < 2.0 {
        assert!(Instant::now() < deadline, "the worker runs two searches within 30 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(PAGE + Duration::from_secs(1)).await;
    stopping.stop().await;

    assert_eq!(
        abandoned_client.await.expect("client"),
        End::Reconnect(abandoned_id.clone()),
        "the abandoned search's stream ended with `reconnect` too"
    );
    let followed = join_all(clients.into_iter().map(|(kind, id, task)| async move {
        let followed = tokio::time::timeout(Duration::from_secs(90), task)
            .await
            .unwrap_or_else(|_| panic!("{kind} ends within 90 s of the stop"))
            .expect("client task");
        (kind, id, followed)
    }))
    .await;

    for (kind, id, f) in &followed {
        assert_eq!(
            f.reconnects, 1,
            "{kind}: its stream was on the stopping API and went on at the other"
        );
        assert_leads_once(&deployment.sim, kind, &city, &f.events);
        let start = f.events.iter().find(|(_, e)| e["type"] == "start").expect("start");
        assert_eq!(start.1["searchId"], id.as_str(), "{kind}: the header named this search");
        assert_eq!(history_status(&staying.base, &token, id).await, "complete", "{kind}");
    }
    let queued_at_stop = followed.iter().filter(|(_, _, f)| f.before_stop == 0).count();
    assert!(
        queued_at_stop >= 1,
        "a search still waiting in the queue at the stop was picked up by the id in its header: {:?}",
        followed.iter().map(|(k, _, f)| (k, f.before_stop)).collect::<Vec<_>>()
    );
    assert!(
        followed.iter().any(|(_, _, f)| f.before_stop > 1),
        "a running search streamed leads through the stopping API first"
    );

    // Nobody came back for the abandoned one: cancelled once its grace was over.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let status = history_status(&staying.base, &token, &abandoned_id).await;
        if status == "cancelled" {
            break;
        }
        assert!(
            Instant::now() < deadline && status != "complete",
            "the abandoned search is cancelled after the grace period, not {status}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    worker.stop_gracefully().await;
    staying.stop().await;
}
