//! A full search streams start, 60 business_found in order, then complete.

use std::collections::HashSet;

use leadgen_testkit::places_sim::PlacesSim;
use serde_json::{Value, json};

use super::env::{KEY, Mode, SearchEnv};
use crate::both_modes;

both_modes!(
    a_sixty_lead_search_streams_in_order_without_duplicates,
    |mode: Mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let city = env.dense_city("restaurant", 60);
        let expected: Vec<Value> = env
            .sim
            .expected_places(&format!("Restaurant in {city}"), Some("restaurant"));
        assert!(expected.len() >= 60, "the simulator has 60 restaurants in {city}");

        let (status, events) = env.stream("restaurant", &format!("  {city} ")).await;
        assert_eq!(status, 200);
        assert_eq!(
            events.len(),
            62,
            "start + 60 + complete: {:?}",
            events.iter().map(|e| &e.1["type"]).collect::<Vec<_>>()
        );
        let mut start = events[0].1.clone();
        let search_id = start
            .as_object_mut()
            .and_then(|o| o.remove("searchId"))
            .expect("start carries the search's id");
        assert!(search_id.as_str().is_some_and(|id| !id.is_empty()));
        assert_eq!(
            start,
            json!({"type": "start", "businessType": "restaurant", "location": city})
        );

        let found: Vec<&Value> = events[1..61].iter().map(|(_, e)| e).collect();
        let mut ids = HashSet::new();
        for (i, event) in found.iter().enumerate() {
            assert_eq!(event["type"], "business_found");
            assert_eq!(event["found"], i as u64 + 1, "numbered in order");
            assert_eq!(event["name"], event["lead"]["name"]);
            assert!(
                ids.insert(event["lead"]["placeId"].as_str().expect("id").to_owned()),
                "no duplicates"
            );
            let want = &expected[i];
            assert_eq!(
                event["lead"]["placeId"], want["id"],
                "lead {i} is the simulator's {i}th place"
            );
            assert_eq!(event["lead"]["name"], want["displayName"]["text"]);
            assert_eq!(
                event["lead"]["phone"],
                want.get("nationalPhoneNumber").cloned().unwrap_or(json!(""))
            );
            assert_eq!(
                event["lead"]["website"],
                want.get("websiteUri").cloned().unwrap_or(json!(""))
            );
            // The address in parts, the category and the Maps link, from Google's fields.
            let part = |kind: &str, text: &str| {
                want["addressComponents"]
                    .as_array()
                    .expect("components")
                    .iter()
                    .find(|c| c["types"].as_array().is_some_and(|t| t.iter().any(|t| t == kind)))
                    .map(|c| c[text].clone())
                    .expect("a component of that kind")
            };
            let street = format!(
                "{} {}",
                part("street_number", "longText").as_str().expect("number"),
                part("route", "longText").as_str().expect("route")
            );
            assert_eq!(event["lead"]["street"], json!(street));
            assert_eq!(event["lead"]["city"], part("locality", "longText"));
            assert_eq!(event["lead"]["state"], part("administrative_area_level_1", "shortText"));
            assert_eq!(event["lead"]["postalCode"], part("postal_code", "longText"));
            assert_eq!(event["lead"]["category"], want["primaryTypeDisplayName"]["text"]);
            assert_eq!(event["lead"]["mapsUrl"], want["googleMapsUri"]);
            assert!(
                want["formattedAddress"]
                    .as_str()
                    .expect("address")
                    .starts_with(&format!("{street}, ")),
                "the street line begins the formatted address"
            );
        }
        let frame_ids: Vec<u64> = events.iter().map(|(id, _)| *id).collect();
        assert!(
            frame_ids.windows(2).all(|w| w[0] < w[1]),
            "SSE ids increase: {frame_ids:?}"
        );

        let complete = &events[61].1;
        assert_eq!(complete["type"], "complete");
        let results = complete["results"].as_array().expect("results");
        assert_eq!(results.len(), 60);
        for (result, event) in results.iter().zip(&found) {
            assert_eq!(result, &event["lead"]);
        }
        assert_eq!(
            complete["search"],
            json!({"businessType": "restaurant", "location": city})
        );
        assert_eq!(complete["usage"]["usage"]["current"], 1);
        assert_eq!(complete["usage"]["usage"]["leadsThisMonth"], 60);

        let stats = env.sim.stats();
        assert_eq!(stats.requests_for(KEY), 3, "three pages, no more");
    }
);

both_modes!(
    the_whole_search_endpoint_returns_the_same_leads,
    |mode: Mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let city = env.dense_city("dentist", 25);
        let (status, body) = env
            .app
            .post(
                "/api/leads/search",
                Some(&env.token),
                Some(json!({"businessType": "dentist", "location": city})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["success"], true);
        let expected = env.sim.expected_places(&format!("Dentist in {city}"), Some("dentist"));
        let got: Vec<&Value> = body["results"]
            .as_array()
            .expect("results")
            .iter()
            .map(|r| &r["placeId"])
            .collect();
        let want: Vec<&Value> = expected.iter().take(60).map(|p| &p["id"]).collect();
        assert_eq!(got, want);
        assert_eq!(body["usage"]["usage"]["current"], 1);
    }
);

both_modes!(
    a_text_only_type_is_searched_without_included_type,
    |mode: Mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let city = env.dense_city("restaurant", 1);
        let (status, events) = env.stream("food", &city).await;
        assert_eq!(status, 200);
        let last = &events.last().expect("events").1;
        assert_eq!(
            last["type"], "complete",
            "Google refuses includedType=food; we must not send it: {last}"
        );
        let expected = env.sim.expected_places(&format!("Food in {city}"), None);
        assert_eq!(
            last["results"].as_array().expect("results").len(),
            expected.len().min(60)
        );
    }
);
