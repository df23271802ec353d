//! The dense metro over HTTP: `locationRestriction` rectangles return exactly the places
//! of a type inside them (edges included), best first, at most 60 over 3 pages, from
//! every city the rectangle touches, and `minRating` filters within them.

use std::collections::HashSet;

use leadgen_testkit::places_sim::{LatLng, MAX_RESULTS, METRO_CITY, Place, PlacesSim, Viewport};
use serde_json::{Value, json};

use crate::{
    http::{KEY, search},
    sim,
};

const MASK: &str = "places.id,places.location,places.rating,nextPageToken";

fn rect(low: (f64, f64), high: (f64, f64)) -> Viewport {
    Viewport::new(LatLng::new(low.0, low.1), LatLng::new(high.0, high.1))
}

/// Every page of a restricted search: the places of each page, in order.
async fn all_pages(sim: &PlacesSim, mut body: Value) -> Vec<Vec<Value>> {
    let mut pages = Vec::new();
    loop {
        let reply = search(&sim.base_url, KEY, MASK, &body).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        pages.push(reply.places());
        match reply.next_page_token() {
            Some(token) => body["pageToken"] = json!(token),
            None => return pages,
        }
        assert!(pages.len() <= 3, "Google stops after 3 pages");
    }
}

fn restricted(text: &str, included_type: Option<&str>, area: &Viewport) -> Value {
    let mut body = json!({"textQuery": text, "locationRestriction": {"rectangle": area}, "pageSize": 20});
    if let Some(t) = included_type {
        body["includedType"] = json!(t);
    }
    body
}

fn ids(places: &[Value]) -> Vec<String> {
    places
        .iter()
        .map(|p| p["id"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn located(place: &Value) -> LatLng {
    LatLng::new(
        place["location"]["latitude"].as_f64().unwrap_or(f64::NAN),
        place["location"]["longitude"].as_f64().unwrap_or(f64::NAN),
    )
}

/// The truth ranked as Google ranks a restricted search: most prominent first.
fn best_first(mut places: Vec<Place>) -> Vec<String> {
    places.sort_by(|a, b| b.prominence.total_cmp(&a.prominence).then_with(|| a.id.cmp(&b.id)));
    places.into_iter().map(|p| p.id).collect()
}

#[tokio::test]
async fn a_crowded_rectangle_gives_its_60_best_over_exactly_3_pages() {
    let sim = sim().await;
    let downtown = rect((29.70, -95.50), (29.80, -95.30));
    let truth = sim.world().truth("dentist", &downtown, None);
    assert!(truth.len() > 3 * MAX_RESULTS, "downtown is crowded: {}", truth.len());
    let best = best_first(truth.clone());

    for text in ["Dentist", "dentist"] {
        let pages = all_pages(&sim, restricted(text, Some("dentist"), &downtown)).await;
        assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), [20, 20, 20], "{text}");
        let found: Vec<Value> = pages.concat();
        assert!(found.iter().all(|p| downtown.contains(located(p))));
        assert_eq!(ids(&found), best[..MAX_RESULTS], "{text}: the 60 best, best first");
    }
    // The type read from the text alone gives the same answer.
    let by_text = all_pages(&sim, restricted("Dentist", None, &downtown)).await.concat();
    assert_eq!(ids(&by_text), best[..MAX_RESULTS]);
}

#[tokio::test]
async fn a_sparse_rectangle_gives_exactly_its_places_edges_included() {
    let sim = sim().await;
    // South-west Houston, outside the clusters: between one and three pages' worth.
    let sparse = rect((29.52, -95.70), (29.58, -95.58));
    let truth = sim.world().truth("dentist", &sparse, None);
    assert!((21..MAX_RESULTS).contains(&truth.len()), "{}", truth.len());
    let pages = all_pages(&sim, restricted("Dentist", Some("dentist"), &sparse)).await;
    assert_eq!(pages.len(), truth.len().div_ceil(20));
    assert_eq!(ids(&pages.concat()), best_first(truth));

    // A place on the rectangle's corner, and one on its far edges, are inside.
    let dentists = sim.world().places_for(METRO_CITY, "dentist");
    let p = &dentists[0];
    let corner = rect(
        (p.location.latitude, p.location.longitude),
        (p.location.latitude + 0.01, p.location.longitude + 0.01),
    );
    let edge = rect(
        (p.location.latitude - 0.01, p.location.longitude - 0.01),
        (p.location.latitude, p.location.longitude),
    );
    for area in [corner, edge] {
        let truth = sim.world().truth("dentist", &area, None);
        assert!(truth.len() < MAX_RESULTS);
        let found = ids(&all_pages(&sim, restricted("dentist", Some("dentist"), &area))
            .await
            .concat());
        assert!(found.contains(&p.id), "a place on the border is inside");
        assert_eq!(found, best_first(truth));
    }
}

#[tokio::test]
async fn a_rectangle_over_two_cities_finds_places_of_both() {
    let sim = sim().await;
    // Austin's southern strip and Houston's northern one.
    let across = rect((29.90, -97.70), (30.20, -95.60));
    let truth = sim.world().truth("dentist", &across, None);
    let cities: HashSet<&str> = truth.iter().map(|p| p.city).collect();
    assert_eq!(
        cities,
        HashSet::from(["Austin", METRO_CITY]),
        "the rectangle touches both"
    );
    assert!(truth.len() < MAX_RESULTS, "{}", truth.len());
    let found = all_pages(&sim, restricted("Dentist", Some("dentist"), &across))
        .await
        .concat();
    assert_eq!(ids(&found), best_first(truth));
}

#[tokio::test]
async fn min_rating_filters_within_a_restriction() {
    let sim = sim().await;
    let sparse = rect((29.52, -95.70), (29.62, -95.58));
    let rated = sim.world().truth("dentist", &sparse, Some(4.0));
    let all = sim.world().truth("dentist", &sparse, None);
    assert!(
        !rated.is_empty() && rated.len() < all.len().min(MAX_RESULTS),
        "{} of {}",
        rated.len(),
        all.len()
    );
    let mut body = restricted("Dentist", Some("dentist"), &sparse);
    body["minRating"] = json!(4.0);
    let found = all_pages(&sim, body).await.concat();
    assert!(found.iter().all(|p| p["rating"].as_f64().is_some_and(|r| r >= 4.0)));
    assert_eq!(ids(&found), best_first(rated));

    // Over a crowded rectangle, still 60 at most, every one rated high enough.
    let downtown = rect((29.70, -95.50), (29.80, -95.30));
    let mut body = restricted("Restaurant", Some("restaurant"), &downtown);
    body["minRating"] = json!(4.5);
    let crowded = all_pages(&sim, body).await.concat();
    assert_eq!(crowded.len(), MAX_RESULTS);
    assert!(crowded.iter().all(|p| p["rating"].as_f64().is_some_and(|r| r >= 4.5)));
    assert_eq!(
        ids(&crowded),
        best_first(sim.world().truth("restaurant", &downtown, Some(4.5)))[..MAX_RESULTS]
    );
}
