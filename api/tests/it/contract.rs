//! The published contract says what each operation really answers: 404 only where
//! something is looked up, 502 only where an upstream is called, 401 wherever a session is
//! needed, and no operation lists every status "just in case".

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// Operation id → documented statuses.
fn documented() -> BTreeMap<String, BTreeSet<String>> {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("openapi JSON");
    let mut out = BTreeMap::new();
    for (_, item) in doc["paths"].as_object().expect("paths") {
        for (_, op) in item.as_object().expect("operations") {
            let id = op["operationId"].as_str().expect("operationId").to_owned();
            let statuses = op["responses"]
                .as_object()
                .expect("responses")
                .keys()
                .cloned()
                .collect();
            out.insert(id, statuses);
        }
    }
    out
}

/// Operations that take the bearer scheme.
fn secured() -> BTreeSet<String> {
    let doc: Value = serde_json::from_str(&leadgen_api::app::openapi_json()).expect("openapi JSON");
    let mut out = BTreeSet::new();
    for (_, item) in doc["paths"].as_object().expect("paths") {
        for (_, op) in item.as_object().expect("operations") {
            if op.get("security").is_some() {
                out.insert(op["operationId"].as_str().expect("operationId").to_owned());
            }
        }
    }
    out
}

const SHEETS: [&str; 5] = [
    "get_sheets_auth_status",
    "list_sheets",
    "validate_sheet",
    "list_worksheets",
    "export_to_sheets",
];

#[test]
fn statuses_are_documented_only_where_they_can_happen() {
    let ops = documented();
    let with = |status: &str| -> BTreeSet<&str> {
        ops.iter()
            .filter(|(_, s)| s.contains(status))
            .map(|(id, _)| id.as_str())
            .collect()
    };
    // Google or Stripe is called: the searches, the key test, Stripe and Sheets.
    let upstream: BTreeSet<&str> = [
        "search_leads",
        "estimate_search",
        "test_api_key",
        "create_checkout_session",
        "create_portal_session",
        "get_subscription_status",
    ]
    .into_iter()
    .chain(SHEETS)
    .collect();
    assert!(
        with("502").is_subset(&upstream),
        "502 outside upstream calls: {:?}",
        with("502")
    );
    // Looked up by id: a spreadsheet, a search, a token or a webhook endpoint.
    let lookups: BTreeSet<&str> = SHEETS
        .into_iter()
        .chain([
            "get_search",
            "stream_search_events",
            "cancel_search",
            "revoke_token",
            "delete_webhook",
            "rotate_webhook_secret",
            "test_webhook",
            "list_webhook_deliveries",
        ])
        .collect();
    assert!(
        with("404").is_subset(&lookups),
        "404 outside look-ups: {:?}",
        with("404")
    );
    // Usage limits apply to searches (and Google's per-user quota to Sheets).
    let limited: BTreeSet<&str> = ["search_leads", "search_leads_stream"]
        .into_iter()
        .chain(SHEETS)
        .collect();
    assert!(
        with("429").is_subset(&limited),
        "429 outside limited operations: {:?}",
        with("429")
    );
    assert_eq!(
        ops["get_usage"],
        ["200", "401", "403", "500"].map(String::from).into(),
        "reading usage only needs a session, or a token with `usage:read`"
    );
    // 403: an API token refused (scope, or a session needed); only where a token is taken.
    let secured = secured();
    assert!(
        with("403").is_subset(&secured.iter().map(String::as_str).collect()),
        "403 without a bearer scheme: {:?}",
        with("403")
    );
    assert!(
        ops["search_leads_stream"].contains("429") && ops["search_leads_stream"].contains("400"),
        "a search can be refused"
    );
}
