//! The fake web over HTTP, and places-sim pointing at it.

use std::{net::SocketAddr, time::Duration};

use serde_json::Value;

use super::*;
use crate::places_sim::PlacesSim;

fn local() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

/// The first slug of `kind` among `business-0`, `business-1`, ...
fn slug_of(kind: Kind) -> String {
    (0..)
        .map(|i| format!("business-{i}"))
        .find(|slug| Site::of(slug).kind == kind)
        .expect("every kind occurs")
}

async fn text(client: &reqwest::Client, url: &str) -> (u16, String) {
    let response = client.get(url).send().await.expect("get");
    let status = response.status().as_u16();
    (status, response.text().await.expect("body"))
}

#[tokio::test]
async fn serves_each_kind_as_its_truth_says() {
    let web = FakeWeb::builder()
        .slow_delay(Duration::from_millis(50))
        .stall_delay(Duration::from_millis(50))
        .start(local())
        .await
        .expect("start");
    let http = client();
    let base = &web.base_url;

    let mailto = Site::of(&slug_of(Kind::Mailto));
    let (status, home) = text(&http, &site_url(base, &mailto.slug)).await;
    assert_eq!(status, 200);
    assert!(home.contains(&format!("mailto:{}", mailto.email())), "{home}");
    assert!(home.contains("logo@2x.png"), "junk beside it");

    let obfuscated = Site::of(&slug_of(Kind::Obfuscated));
    let (_, home) = text(&http, &site_url(base, &obfuscated.slug)).await;
    assert!(!home.contains(&obfuscated.email()), "not on the home page");
    let (status, contact) = text(&http, &format!("{}contact", site_url(base, &obfuscated.slug))).await;
    assert_eq!(status, 200);
    assert!(contact.contains("at") && contact.contains("dot"), "{contact}");

    let down = slug_of(Kind::Down);
    assert_eq!(text(&http, &site_url(base, &down)).await.0, 503);
    let redirect = slug_of(Kind::RedirectPrivate);
    let response = http.get(site_url(base, &redirect)).send().await.expect("get");
    assert_eq!(response.status().as_u16(), 302);
    let disallowed = slug_of(Kind::Disallowed);
    assert!(site_url(base, &disallowed).contains("/members/"));
    assert_eq!(
        text(&http, &format!("{base}/sites/{disallowed}/")).await.0,
        404,
        "a site lives under one prefix only"
    );
    let (_, robots) = text(&http, &format!("{base}/robots.txt")).await;
    assert!(
        robots.contains("User-agent: LeadgenBot\nDisallow: /members/"),
        "{robots}"
    );

    let truth: Value = http
        .get(format!("{base}/_web/truth"))
        .send()
        .await
        .expect("truth")
        .json()
        .await
        .expect("json");
    let sites = truth["sites"].as_object().expect("sites");
    assert!(sites.contains_key(&mailto.slug) && sites.contains_key(&down));
    assert_eq!(sites[&mailto.slug]["emails"][0], mailto.email());
    assert_eq!(sites[&down]["emails"].as_array().map(Vec::len), Some(0));
    let one: Value = http
        .get(format!("{base}/_web/truth?site=never-visited"))
        .send()
        .await
        .expect("truth")
        .json()
        .await
        .expect("json");
    assert!(one["sites"]["never-visited"]["kind"].is_string());

    assert_eq!(web.stats().trap_hits, 0);
    http.get(format!("{base}/_web/trap")).send().await.expect("trap");
    assert_eq!(web.stats().trap_hits, 1);
}

#[tokio::test]
async fn places_sim_points_websites_at_the_fake_web() {
    let web = FakeWeb::builder()
        .slow_delay(Duration::from_millis(50))
        .stall_delay(Duration::from_millis(50))
        .start(local())
        .await
        .expect("start");
    let sim = PlacesSim::builder()
        .fake_web(&web.base_url)
        .start(local())
        .await
        .expect("sim");
    let http = client();
    let body: Value = http
        .post(format!("{}/v1/places:searchText", sim.base_url))
        .header("X-Goog-Api-Key", "AIzaSyTESTKEY0123456789012345678901234")
        .header("X-Goog-FieldMask", "places.id,places.websiteUri")
        .json(&serde_json::json!({"textQuery": "dentist in Seattle", "includedType": "dentist"}))
        .send()
        .await
        .expect("search")
        .json()
        .await
        .expect("json");
    let websites: Vec<&str> = body["places"]
        .as_array()
        .expect("places")
        .iter()
        .filter_map(|p| p["websiteUri"].as_str())
        .collect();
    assert!(!websites.is_empty());
    for website in websites {
        assert!(website.starts_with(&web.base_url), "{website}");
        let status = text(&http, website).await.0;
        assert!(
            [200, 302, 503].contains(&status) || website.contains("/members/"),
            "{website}: {status}"
        );
    }
}
