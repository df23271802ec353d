//! `GET /api/site` (#26 item 10): the spec's placeholders by default, the operator's
//! values when set, for anyone (the public pages read it before sign-in).

use crate::support::{Backend, TestApp};

#[tokio::test]
async fn unset_the_public_pages_keep_the_specs_placeholders() {
    let app = TestApp::start(Backend::Sqlite, vec![]).await;
    let (status, site) = app.get("/api/site", None).await;
    assert_eq!(status, 200, "{site}");
    assert_eq!(site["supportEmail"], "support@leadgen.app");
    assert!(
        site["helpCenterUrl"].is_null() && site["liveChatUrl"].is_null(),
        "{site}"
    );
    assert_eq!(site["businessAddress"], "[Business Address]");
    assert_eq!(site["jurisdiction"], "[Jurisdiction]");
    assert_eq!(site["arbitrationRules"], "[Arbitration Rules]");
    assert_eq!(site["marketingFigures"][0]["value"], "2.3M+");
    assert_eq!(site["marketingFigures"].as_array().map(Vec::len), Some(3));
    assert_eq!(site["mapStyleUrl"], "https://tiles.openfreemap.org/styles/liberty");
}

#[tokio::test]
async fn an_operators_values_reach_the_public_pages() {
    let app = TestApp::start(
        Backend::Sqlite,
        vec![
            ("LEADGEN_SUPPORT_EMAIL", "help@agency.example".into()),
            ("LEADGEN_HELP_CENTER_URL", "https://help.agency.example/".into()),
            ("LEADGEN_LIVE_CHAT_URL", "https://chat.agency.example/".into()),
            ("LEADGEN_LEGAL_ENTITY", "Agency Leads Ltd".into()),
            ("LEADGEN_BUSINESS_ADDRESS", "1 Park Row, Leeds LS1 5HN".into()),
            ("LEADGEN_JURISDICTION", "England and Wales".into()),
            ("LEADGEN_ARBITRATION_RULES", "the LCIA Rules".into()),
            ("LEADGEN_MARKETING_FIGURES", "none".into()),
            ("LEADGEN_MAP_STYLE_URL", "none".into()),
        ],
    )
    .await;
    let (status, site) = app.get("/api/site", None).await;
    assert_eq!(status, 200, "{site}");
    assert_eq!(site["supportEmail"], "help@agency.example");
    assert_eq!(site["helpCenterUrl"], "https://help.agency.example/");
    assert_eq!(site["liveChatUrl"], "https://chat.agency.example/");
    assert_eq!(site["legalEntity"], "Agency Leads Ltd");
    assert_eq!(site["businessAddress"], "1 Park Row, Leeds LS1 5HN");
    assert_eq!(site["jurisdiction"], "England and Wales");
    assert_eq!(site["arbitrationRules"], "the LCIA Rules");
    assert_eq!(site["marketingFigures"], serde_json::json!([]));
    assert!(site["mapStyleUrl"].is_null(), "{site}");
}
