//! What the public pages say of the operator (issue #26 item 10): `GET /api/site`.
//! Each value defaults to the spec's placeholder; an operator sets the real ones
//! (`LEADGEN_SUPPORT_EMAIL`, `LEADGEN_HELP_CENTER_URL`, ... in docs/operations.md).

use poem::web::Data;
use poem_openapi::{Object, OpenApi, payload::Json, types::Example};

use super::ApiTags;
use crate::state::AppState;

/// One figure of the landing page.
#[derive(Debug, Object)]
pub struct MarketingFigure {
    /// The number, as shown ("2.3M+").
    pub value: String,
    /// What it counts ("Leads generated").
    pub label: String,
}

/// The operator's facts for the public pages.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", example)]
pub struct SiteConfig {
    /// Where "Contact support" and the legal pages' email go.
    pub support_email: String,
    /// The Help Center; null: the app says it is coming soon.
    #[oai(nullable)]
    pub help_center_url: Option<String>,
    /// Live chat; null: the app says it is coming soon.
    #[oai(nullable)]
    pub live_chat_url: Option<String>,
    /// Who the terms and the privacy policy are with.
    pub legal_entity: String,
    /// Its postal address.
    pub business_address: String,
    /// The law the terms are under.
    pub jurisdiction: String,
    /// The rules of arbitration.
    pub arbitration_rules: String,
    /// The landing page's figures; empty: none shown.
    pub marketing_figures: Vec<MarketingFigure>,
    /// The MapLibre style (a `style.json` URL) the search form's map draws areas on; null:
    /// a plain background without tiles.
    #[oai(nullable)]
    pub map_style_url: Option<String>,
}

impl Example for SiteConfig {
    fn example() -> Self {
        Self {
            support_email: "support@leadgen.app".into(),
            help_center_url: None,
            live_chat_url: None,
            legal_entity: "Leadgen".into(),
            business_address: "[Business Address]".into(),
            jurisdiction: "[Jurisdiction]".into(),
            arbitration_rules: "[Arbitration Rules]".into(),
            marketing_figures: vec![MarketingFigure {
                value: "500+".into(),
                label: "Agencies".into(),
            }],
            map_style_url: Some("https://tiles.openfreemap.org/styles/liberty".into()),
        }
    }
}

/// The public site facts.
pub struct SiteApi;

#[OpenApi(tag = "ApiTags::Site")]
impl SiteApi {
    /// The operator's facts for the public pages
    ///
    /// Support and chat links, the legal entity, its address, jurisdiction and arbitration
    /// rules, and the landing page's figures, as the operator set them (the spec's
    /// placeholders when unset), and the style of the search form's map. Public: no
    /// credential needed.
    #[oai(path = "/site", method = "get", operation_id = "get_site_config")]
    async fn get_site_config(&self, state: Data<&AppState>) -> Json<SiteConfig> {
        let site = &state.config.site;
        Json(SiteConfig {
            support_email: site.support_email.clone(),
            help_center_url: site.help_center_url.as_ref().map(ToString::to_string),
            live_chat_url: site.live_chat_url.as_ref().map(ToString::to_string),
            legal_entity: site.legal_entity.clone(),
            business_address: site.business_address.clone(),
            jurisdiction: site.jurisdiction.clone(),
            arbitration_rules: site.arbitration_rules.clone(),
            marketing_figures: site
                .marketing_figures
                .iter()
                .map(|f| MarketingFigure {
                    value: f.value.clone(),
                    label: f.label.clone(),
                })
                .collect(),
            map_style_url: site.map_style_url.as_ref().map(ToString::to_string),
        })
    }
}
