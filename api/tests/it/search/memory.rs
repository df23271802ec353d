//! Place memory and `exclude` end to end (issue #29), in both modes: every place a
//! search sends is remembered by id (and by nothing else), a search with `exclude: seen`
//! sends none of them and says how many it found and how many were new, turning the
//! memory off records and excludes nothing, and forgetting empties it.

use leadgen_testkit::places_sim::PlacesSim;
use serde_json::{Value, json};

use super::{
    env::{Mode, SearchEnv},
    no_lead_at_rest::place_memory_columns_and_text,
};
use crate::both_modes;

fn complete(events: &[(u64, Value)]) -> &Value {
    let last = &events.last().expect("events").1;
    assert_eq!(last["type"], "complete", "{last}");
    last
}

fn place_ids(complete: &Value) -> Vec<String> {
    complete["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|l| l["placeId"].as_str().expect("placeId").to_owned())
        .collect()
}

both_modes!(
    searches_remember_ids_only_and_exclude_leaves_them_out,
    |mode: Mode| async move {
        let env = SearchEnv::start(mode, PlacesSim::builder(), 1, vec![]).await;
        let city = env.dense_city("restaurant", 40);
        let first = env.stream("restaurant", &city).await.1;
        let first = complete(&first);
        assert!(first.get("newCount").is_none(), "no counts without an exclude");
        let sent = place_ids(first);
        assert!(sent.len() >= 40);

        // The memory holds each sent id, with times, and nothing of the leads.
        let (columns, stored) = place_memory_columns_and_text(mode, &env.app._db.url).await;
        assert_eq!(
            columns,
            [
                "workspace_id",
                "place_id",
                "first_seen_at",
                "last_seen_at",
                "last_exported_at"
            ]
        );
        for id in &sent {
            assert!(stored.contains(id.as_str()), "{id} is remembered");
        }
        for lead in first["results"].as_array().expect("results") {
            for field in [
                "name",
                "address",
                "phone",
                "website",
                "street",
                "city",
                "postalCode",
                "category",
                "mapsUrl",
            ] {
                if let Some(value) = lead[field].as_str().filter(|v| v.len() > 3) {
                    assert!(!stored.contains(value), "the memory holds a lead's {field}: {value}");
                }
            }
            if let Some(rating) = lead["rating"].as_f64() {
                assert!(!stored.contains(&format!("|{rating}|")), "a rating");
            }
        }

        // The same search, excluding what was seen: nothing is sent, all of it was found.
        let body = json!({"businessType": "restaurant", "location": city, "exclude": "seen"});
        let second = env.stream_body(body.clone()).await.1;
        let second = complete(&second);
        assert_eq!(place_ids(second), Vec::<String>::new());
        assert_eq!(second["newCount"], 0);
        assert_eq!(second["foundCount"].as_u64(), Some(sent.len() as u64));
        // The history keeps both counts of the excluding search, and none of the first.
        let (status, history) = env.app.get("/api/leads/searches", Some(&env.token)).await;
        assert_eq!(status, 200, "{history}");
        let entries = history["searches"].as_array().expect("searches");
        assert_eq!(entries.len(), 2, "{history}");
        assert_eq!(
            (&entries[0]["foundCount"], &entries[0]["newCount"]),
            (&json!(sent.len()), &json!(0)),
            "newest first: {history}"
        );
        assert!(entries[1].get("foundCount").is_none() && entries[1].get("newCount").is_none());
        // The answer of the non-streaming operation carries them too.
        let (status, answer) = crate::workspaces::call(
            &env.app,
            "POST",
            "/api/leads/search",
            &env.token,
            None,
            Some(body.clone()),
        )
        .await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["results"], json!([]));
        assert_eq!(answer["newCount"], 0);

        // Off: a search excludes nothing.
        let workspace = env.workspace().await;
        let path = format!("/api/workspaces/{workspace}");
        let (status, info) = crate::workspaces::call(
            &env.app,
            "PATCH",
            &path,
            &env.token,
            None,
            Some(json!({"placeMemory": false})),
        )
        .await;
        assert_eq!(status, 200, "{info}");
        assert_eq!(info["placeMemory"], false);
        let off = env.stream_body(body.clone()).await.1;
        assert_eq!(
            place_ids(complete(&off)).len(),
            sent.len(),
            "nothing left out while off"
        );
        crate::workspaces::call(
            &env.app,
            "PATCH",
            &path,
            &env.token,
            None,
            Some(json!({"placeMemory": true})),
        )
        .await;

        // Forgetting: the memory is empty, and the next excluding search sends everything.
        let (status, forgotten) = crate::workspaces::call(
            &env.app,
            "DELETE",
            &format!("{path}/place-memory"),
            &env.token,
            None,
            None,
        )
        .await;
        assert_eq!(status, 200, "{forgotten}");
        assert_eq!(forgotten["forgotten"].as_u64(), Some(sent.len() as u64));
        assert_eq!(place_memory_columns_and_text(mode, &env.app._db.url).await.1, "");
        let after = env.stream_body(body).await.1;
        let after = complete(&after);
        assert_eq!(place_ids(after).len(), sent.len());
        assert_eq!(after["newCount"].as_u64(), Some(sent.len() as u64));
    }
);
