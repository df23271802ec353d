//! Polygon areas (#30 item 5) end to end: refusals naming `area.polygon`, full and quick
//! searches sending only places strictly inside (against the simulator's ground truth),
//! tiles wholly outside left unprobed, the completeness meter counting the polygon as
//! Google's `customArea`, and a saved search keeping its polygon; in both modes.

use std::collections::{BTreeSet, HashSet};

use leadgen_testkit::places_sim::{City, LatLng, PlacesSim, Sku};
use serde_json::{Value, json};

use super::env::{Mode, SearchEnv, found_ids, last_of};
use crate::both_modes;

/// The point at fractions (`y` of the latitude span, `x` of the longitude span) of the
/// city's viewport.
fn at(city: &City, y: f64, x: f64) -> LatLng {
    let v = city.viewport;
    LatLng::new(
        v.low.latitude + y * (v.high.latitude - v.low.latitude),
        v.low.longitude + x * (v.high.longitude - v.low.longitude),
    )
}

fn points(ring: &[LatLng]) -> Value {
    ring.iter()
        .map(|p| json!({"latitude": p.latitude, "longitude": p.longitude}))
        .collect()
}

/// A "C" over the city, open to the east, given clockwise and closed: the outer square
/// spans 0.1 to 0.9 of the viewport each way; the notch, 0.35 to 0.65 of the latitude and
/// from 0.5 of the longitude eastwards, is outside. Returns the ring and whether a point
/// lies strictly inside it (by the rectangles it is made of, not by Leadgen's geometry).
fn c_shape(city: &City) -> (Vec<LatLng>, impl Fn(LatLng) -> bool) {
    let ring = vec![
        at(city, 0.1, 0.1),
        at(city, 0.9, 0.1),
        at(city, 0.9, 0.9),
        at(city, 0.65, 0.9),
        at(city, 0.65, 0.5),
        at(city, 0.35, 0.5),
        at(city, 0.35, 0.9),
        at(city, 0.1, 0.9),
        at(city, 0.1, 0.1),
    ];
    let (outer_low, outer_high) = (at(city, 0.1, 0.1), at(city, 0.9, 0.9));
    let (notch_low, notch_high) = (at(city, 0.35, 0.5), at(city, 0.65, 0.9));
    let inside = move |p: LatLng| {
        let in_outer = p.latitude > outer_low.latitude
            && p.latitude < outer_high.latitude
            && p.longitude > outer_low.longitude
            && p.longitude < outer_high.longitude;
        let in_notch =
            p.latitude >= notch_low.latitude && p.latitude <= notch_high.latitude && p.longitude >= notch_low.longitude;
        in_outer && !in_notch
    };
    (ring, inside)
}

/// The densest city with at most `max` places of `place_type`.
fn city_with(sim: &PlacesSim, place_type: &str, max: usize) -> &'static City {
    sim.cities()
        .iter()
        .filter(|c| sim.world().places_for(c.name, place_type).len() <= max)
        .max_by_key(|c| sim.world().places_for(c.name, place_type).len())
        .expect("a city")
}

both_modes!(
    a_full_search_of_a_polygon_sends_every_place_strictly_inside_and_counts_it,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let city = city_with(&env.sim, "dentist", 400);
        let (ring, inside) = c_shape(city);
        let all = env.sim.world().places_for(city.name, "dentist");
        let truth: BTreeSet<String> = all
            .iter()
            .filter(|p| inside(p.location))
            .map(|p| p.id.clone())
            .collect();
        assert!(truth.len() > 60, "more than one query's cap inside: {}", truth.len());
        assert!(truth.len() < all.len(), "the city holds dentists outside the C");
        let (status, events) = env
            .stream_body(json!({"businessType": "dentist", "coverage": "full", "area": {"polygon": points(&ring)}}))
            .await;
        assert_eq!(status, 200);
        let ids = found_ids(&events);
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len(), "no lead twice");
        assert_eq!(
            ids.into_iter().collect::<BTreeSet<_>>(),
            truth,
            "every dentist inside the C, none from its notch or beyond"
        );
        let complete = last_of(&events, "complete");
        assert_eq!(complete["results"].as_array().map(Vec::len), Some(truth.len()));
        assert_eq!(
            complete["usage"]["usage"]["leadsToday"].as_u64(),
            Some(truth.len() as u64),
            "places outside were not counted toward the allowance"
        );
        // The meter sent the clockwise ring as Google wants it (counterclockwise, closed:
        // the simulator refuses anything else) and counted what lies inside.
        assert_eq!(
            complete["completeness"],
            json!({"found": truth.len(), "expected": truth.len(), "source": "google_aggregate"}),
            "{complete}"
        );
        assert_eq!(env.sim.stats().billable(Sku::PlacesAggregate), 1);
        assert!(
            last_of(&events, "start")["location"]
                .as_str()
                .is_some_and(|l| l.starts_with("polygon of 8 points")),
            "a search given by polygon is labelled by it"
        );
    }
);

both_modes!(
    tiles_wholly_outside_a_polygon_are_neither_probed_nor_fetched,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let city = city_with(&env.sim, "restaurant", 400);
        // The south-east half of the city's box, cut along its diagonal.
        let triangle = [at(city, 0.0, 0.0), at(city, 0.0, 1.0), at(city, 1.0, 1.0)];
        let body = |area: Value| json!({"businessType": "restaurant", "coverage": "full", "area": area});
        let (_, events) = env.stream_body(body(json!({"polygon": points(&triangle)}))).await;
        let half = found_ids(&events).len();
        let stats = env.sim.stats();
        let (probes, pages) = (
            stats.billable(Sku::TextSearchEssentialsIdsOnly),
            stats.billable(Sku::TextSearchEnterprise),
        );
        env.sim.reset();
        let (low, high) = (at(city, 0.0, 0.0), at(city, 1.0, 1.0));
        let (_, events) = env
            .stream_body(body(json!({
                "low": {"latitude": low.latitude, "longitude": low.longitude},
                "high": {"latitude": high.latitude, "longitude": high.longitude},
            })))
            .await;
        let whole = found_ids(&events).len();
        let stats = env.sim.stats();
        assert!(half > 0 && half < whole, "{half} of {whole}");
        assert!(
            probes < stats.billable(Sku::TextSearchEssentialsIdsOnly),
            "fewer probes than the bounding box: {probes} vs {}",
            stats.billable(Sku::TextSearchEssentialsIdsOnly)
        );
        // Most of the diagonal's tiles are partly inside, so they are fetched: never more
        // pages than the box (fewer where whole tiles lie outside).
        assert!(
            pages <= stats.billable(Sku::TextSearchEnterprise),
            "no more lead pages than the bounding box: {pages} vs {}",
            stats.billable(Sku::TextSearchEnterprise)
        );
    }
);

both_modes!(
    a_quick_search_of_a_polygon_sends_only_places_inside,
    |mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let city = city_with(&env.sim, "cafe", 50);
        let (ring, inside) = c_shape(city);
        let all = env.sim.world().places_for(city.name, "cafe");
        let truth: BTreeSet<String> = all
            .iter()
            .filter(|p| inside(p.location))
            .map(|p| p.id.clone())
            .collect();
        assert!(!truth.is_empty() && truth.len() < all.len());
        let (status, events) = env
            .stream_body(json!({"businessType": "cafe", "area": {"polygon": points(&ring)}}))
            .await;
        assert_eq!(status, 200);
        let ids: BTreeSet<String> = found_ids(&events).into_iter().collect();
        assert_eq!(ids, truth, "the box's places inside the ring, no others");
        assert_eq!(
            last_of(&events, "complete")["usage"]["usage"]["leadsToday"].as_u64(),
            Some(truth.len() as u64)
        );
        // The estimate of the same search counts the polygon too.
        let (status, estimate) = env
            .app
            .post(
                "/api/leads/estimate",
                Some(&env.token),
                Some(json!({"businessType": "cafe", "area": {"polygon": points(&ring)}})),
            )
            .await;
        assert_eq!(status, 200, "{estimate}");
        assert_eq!(
            estimate["completeness"],
            json!({"expected": truth.len(), "source": "google_aggregate"})
        );
    }
);

both_modes!(a_saved_search_keeps_its_polygon, |mode| async move {
    let env = SearchEnv::start(mode, PlacesSim::builder(), 0, vec![]).await;
    let city = &env.sim.cities()[0];
    let (ring, _) = c_shape(city);
    let search = json!({"businessType": "dentist", "coverage": "full", "area": {"polygon": points(&ring)}});
    let (status, saved) = env
        .app
        .post(
            "/api/leads/saved-searches",
            Some(&env.token),
            Some(json!({"name": "The C", "search": search})),
        )
        .await;
    assert_eq!(status, 200, "{saved}");
    assert_eq!(saved["search"]["area"], json!({"polygon": points(&ring)}));
    let id = saved["id"].as_str().expect("id");
    let (status, kept) = env
        .app
        .get(&format!("/api/leads/saved-searches/{id}"), Some(&env.token))
        .await;
    assert_eq!(status, 200, "{kept}");
    assert_eq!(
        kept["search"]["area"],
        json!({"polygon": points(&ring)}),
        "read back as saved"
    );
    // A bad ring is refused on save, naming the field.
    let (status, refused) = env
        .app
        .post(
            "/api/leads/saved-searches",
            Some(&env.token),
            Some(json!({"name": "Line", "search": {
                "businessType": "dentist",
                "area": {"polygon": points(&[at(city, 0.1, 0.1), at(city, 0.5, 0.5), at(city, 0.9, 0.9)])}
            }})),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["message"].as_str().is_some_and(|m| m.contains("area.polygon")),
        "{refused}"
    );
});

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_polygons_are_refused_naming_area_polygon() {
    let env = SearchEnv::start(Mode::Embedded, PlacesSim::builder(), 0, vec![]).await;
    let p = |lat: f64, lng: f64| json!({"latitude": lat, "longitude": lng});
    let square = [p(30.2, -97.8), p(30.2, -97.7), p(30.3, -97.7), p(30.3, -97.8)];
    let circle: Vec<Value> = (0..501)
        .map(|i| {
            let a = f64::from(i) / 501.0 * std::f64::consts::TAU;
            p(30.25 + 0.05 * a.sin(), -97.75 + 0.05 * a.cos())
        })
        .collect();
    let cases = [
        (
            json!({"polygon": [p(30.2, -97.8), p(30.3, -97.7)]}),
            "area.polygon must have at least 3 distinct points",
        ),
        (
            json!({"polygon": [p(30.2, -97.8), p(30.3, -97.7), p(30.2, -97.8)]}),
            "at least 3 distinct points",
        ),
        (json!({"polygon": circle}), "area.polygon may have at most 500 points"),
        (
            json!({"polygon": [p(30.2, -97.8), p(30.3, -97.7), p(95.0, -97.7)]}),
            "area.polygon[2] must have a latitude from -90 to 90",
        ),
        (
            json!({"polygon": [p(30.2, -97.8), p(30.3, -97.7), p(30.2, -97.7), p(30.3, -97.8)]}),
            "area.polygon must not cross or touch itself: its edge from point 0 and its edge from point 2 meet",
        ),
        (
            json!({"polygon": [p(30.2, -97.8), p(30.25, -97.75), p(30.3, -97.7)]}),
            "area.polygon encloses no area",
        ),
        (
            json!({"polygon": [p(30.0, -100.0), p(30.0, -90.0), p(31.0, -95.0)]}),
            "area.polygon is too large",
        ),
        (
            json!({"polygon": square, "center": p(30.25, -97.75), "radiusMeters": 500}),
            "area must be a rectangle {low, high}, a circle {center, radiusMeters} or a polygon",
        ),
        (
            json!({"polygon": square, "low": p(30.2, -97.8), "high": p(30.3, -97.7)}),
            "area must be a rectangle {low, high}, a circle {center, radiusMeters} or a polygon",
        ),
    ];
    for (area, expected) in cases {
        let body = json!({"businessType": "dentist", "coverage": "full", "area": area});
        for path in ["/api/leads/search-stream", "/api/leads/estimate", "/api/leads/search"] {
            let (status, answer) = env.app.post(path, Some(&env.token), Some(body.clone())).await;
            assert_eq!(status, 400, "{path} {area}: {answer}");
            let message = answer["message"].as_str().unwrap_or_default();
            assert!(message.contains(expected), "{path} {area}: {message}");
        }
    }
    assert_eq!(env.sim.stats().search_text_requests, 0, "nothing reached Google");
    // A valid ring, open or closed, either way round, is accepted.
    for ring in [
        square.to_vec(),
        [&square[..], &square[..1]].concat(),
        square.iter().rev().cloned().collect(),
    ] {
        let body = json!({"businessType": "dentist", "area": {"polygon": ring}});
        let (status, answer) = env.app.post("/api/leads/estimate", Some(&env.token), Some(body)).await;
        assert_eq!(status, 200, "{answer}");
    }
}
