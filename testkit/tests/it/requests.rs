//! What Google answers to requests it refuses: missing headers, bad masks, bad bodies.

use serde_json::json;

use crate::{
    http::{KEY, search, send},
    sim,
};

#[tokio::test]
async fn missing_key_is_403_and_missing_mask_is_400_like_google() {
    let sim = sim().await;
    let body = json!({"textQuery": "Restaurant in Austin"}).to_string();

    let no_key = send(
        &sim.base_url,
        "POST",
        "/v1/places:searchText",
        &[("X-Goog-FieldMask", "places.id")],
        &body,
    )
    .await;
    assert_eq!(no_key.status, 403);
    assert_eq!(no_key.error_status(), "PERMISSION_DENIED");
    assert_eq!(no_key.error_message(), "The request is missing a valid API key.");
    assert_eq!(no_key.body["error"]["code"], 403);
    assert!(
        no_key
            .header("content-type")
            .is_some_and(|c| c.starts_with("application/json"))
    );

    let no_mask = send(
        &sim.base_url,
        "POST",
        "/v1/places:searchText",
        &[("X-Goog-Api-Key", KEY)],
        &body,
    )
    .await;
    assert_eq!(no_mask.status, 400);
    assert_eq!(no_mask.error_status(), "INVALID_ARGUMENT");
    assert!(
        no_mask
            .error_message()
            .starts_with("FieldMask is a required parameter."),
        "{}",
        no_mask.body
    );

    let bad_key = search(&sim.base_url, "AIza-too-short", "places.id", &json!({"textQuery": "x"})).await;
    assert_eq!(bad_key.status, 400);
    assert_eq!(bad_key.body["error"]["details"][0]["reason"], "API_KEY_INVALID");

    // Google's system parameters: key and fields may also travel in the query string.
    let by_query = send(
        &sim.base_url,
        "POST",
        &format!("/v1/places:searchText?key={KEY}&fields=places.id"),
        &[],
        &body,
    )
    .await;
    assert_eq!(by_query.status, 200, "{}", by_query.body);
    assert_eq!(by_query.places().len(), 20);
}

#[tokio::test]
async fn key_markers_answer_googles_documented_errors() {
    let sim = sim().await;
    let body = json!({"textQuery": "Restaurant in Austin"});
    for (key, status, reason) in [
        ("AIzaSyA_INVALIDKEY_456789abcdefghijklmno", 400, "API_KEY_INVALID"),
        ("AIzaSyA_SERVICEDISABLED_9abcdefghijklmno", 403, "SERVICE_DISABLED"),
        ("AIzaSyA_BILLINGDISABLED_9abcdefghijklmno", 403, "BILLING_DISABLED"),
        (
            "AIzaSyA_BLOCKED_0123456789abcdefghijklmno",
            403,
            "API_KEY_SERVICE_BLOCKED",
        ),
        ("AIzaSyA_QUOTAZERO_0123456789abcdefghijklm", 429, "RATE_LIMIT_EXCEEDED"),
    ] {
        let reply = search(&sim.base_url, key, "places.id", &body).await;
        assert_eq!(reply.status, status, "{key}");
        assert_eq!(reply.body["error"]["details"][0]["reason"], reason, "{key}");
        assert_eq!(
            reply.body["error"]["details"][0]["@type"],
            "type.googleapis.com/google.rpc.ErrorInfo"
        );
    }
    assert_eq!(sim.stats().billable_requests, 0, "errors are not billed");
}

#[tokio::test]
async fn unknown_mask_paths_and_body_fields_are_invalid_argument() {
    let sim = sim().await;
    let body = json!({"textQuery": "Restaurant in Austin"});

    let bad_path = search(&sim.base_url, KEY, "places.id,places.phone", &body).await;
    assert_eq!(bad_path.status, 400);
    assert_eq!(bad_path.error_status(), "INVALID_ARGUMENT");
    let violation = &bad_path.body["error"]["details"][0];
    assert_eq!(violation["@type"], "type.googleapis.com/google.rpc.BadRequest");
    assert_eq!(
        violation["fieldViolations"][0]["description"],
        "Error expanding 'fields' parameter. Cannot find matching fields for path 'places.phone'."
    );
    // Place Details spells fields without the prefix; Text Search does not accept that.
    assert_eq!(search(&sim.base_url, KEY, "id,displayName", &body).await.status, 400);

    let typo = search(
        &sim.base_url,
        KEY,
        "places.id",
        &json!({"textQuery": "x", "includedTypes": ["cafe"]}),
    )
    .await;
    assert_eq!(typo.status, 400);
    assert!(
        typo.body["error"]["details"][0]["fieldViolations"][0]["description"]
            .as_str()
            .is_some_and(|d| d.contains("Unknown name \"includedTypes\"")),
        "{}",
        typo.body
    );

    let empty = search(&sim.base_url, KEY, "places.id", &json!({"textQuery": "  "})).await;
    assert_eq!((empty.status, empty.error_status()), (400, "INVALID_ARGUMENT"));

    let negative = search(
        &sim.base_url,
        KEY,
        "places.id",
        &json!({"textQuery": "x", "pageSize": -1}),
    )
    .await;
    assert_eq!((negative.status, negative.error_status()), (400, "INVALID_ARGUMENT"));
}

#[tokio::test]
async fn included_type_outside_table_a_is_refused_as_google_does() {
    let sim = sim().await;
    for table_b in [
        "food",
        "health",
        "finance",
        "general_contractor",
        "point_of_interest",
        "spaceship",
    ] {
        let reply = search(
            &sim.base_url,
            KEY,
            "places.id",
            &json!({"textQuery": "Food in Austin", "includedType": table_b}),
        )
        .await;
        assert_eq!(reply.status, 400, "{table_b}");
        assert_eq!(reply.error_status(), "INVALID_ARGUMENT");
        assert!(
            reply
                .error_message()
                .starts_with(&format!("Invalid included_type: '{table_b}'.")),
            "{}",
            reply.body
        );
    }
    // The same catalogue values work as text alone.
    let text_only = search(
        &sim.base_url,
        KEY,
        "places.types",
        &json!({"textQuery": "General Contractor in Austin"}),
    )
    .await;
    assert_eq!(text_only.status, 200);
    assert!(!text_only.places().is_empty());
    assert!(text_only.places().iter().all(|p| {
        p["types"]
            .as_array()
            .is_some_and(|t| t.contains(&json!("general_contractor")))
    }));
}
