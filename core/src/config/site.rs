//! What an operator says about their own deployment on the public pages (issue #26 item
//! 10): support and chat links, the legal entity, address, jurisdiction and arbitration
//! rules, the landing page's figures. Each defaults to the spec's placeholder, so an
//! unconfigured server shows exactly the spec's pages.

use serde::{Deserialize, Deserializer, de::Error};
use url::Url;

use super::de;

/// One figure of the landing page ("2.3M+", "Leads generated").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketingFigure {
    /// The number, as shown.
    pub value: String,
    /// What it counts.
    pub label: String,
}

/// What the public pages say of the operator.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SiteInfo {
    /// `LEADGEN_SUPPORT_EMAIL`: where "Contact support" and the legal pages' email go.
    /// Default `support@leadgen.app`.
    #[serde(deserialize_with = "email")]
    pub support_email: String,
    /// `LEADGEN_HELP_CENTER_URL`: the Help Center. Unset: the spec's "coming soon" alert.
    #[serde(deserialize_with = "link")]
    pub help_center_url: Option<Url>,
    /// `LEADGEN_LIVE_CHAT_URL`: live chat. Unset: the spec's "coming soon" alert.
    #[serde(deserialize_with = "link")]
    pub live_chat_url: Option<Url>,
    /// `LEADGEN_LEGAL_ENTITY`: who the terms and the privacy policy are with. Default `Leadgen`.
    #[serde(deserialize_with = "text")]
    pub legal_entity: String,
    /// `LEADGEN_BUSINESS_ADDRESS`: its postal address. Default `[Business Address]`.
    #[serde(deserialize_with = "text")]
    pub business_address: String,
    /// `LEADGEN_JURISDICTION`: the law the terms are under. Default `[Jurisdiction]`.
    #[serde(deserialize_with = "text")]
    pub jurisdiction: String,
    /// `LEADGEN_ARBITRATION_RULES`: the rules of arbitration. Default `[Arbitration Rules]`.
    #[serde(deserialize_with = "text")]
    pub arbitration_rules: String,
    /// `LEADGEN_MARKETING_FIGURES`: the landing page's figures, `value=label` pairs
    /// separated by `;` (`2.3M+=Leads generated;500+=Agencies`), or `none` to show none
    /// (empty). Default: the spec's three.
    #[serde(deserialize_with = "marketing_figures")]
    pub marketing_figures: Vec<MarketingFigure>,
    /// `LEADGEN_MAP_STYLE_URL`: the MapLibre style (its `style.json`) the search form's map
    /// draws areas on: an https URL (http for a tile server on the operator's own network),
    /// or `none` for a plain background with no tiles and no request anywhere else. Its
    /// origin is the one the Content-Security-Policy lets the map fetch from, so the
    /// style's tiles, sprites and glyphs must be there too. Default [`DEFAULT_MAP_STYLE`].
    #[serde(deserialize_with = "map_style")]
    pub map_style_url: Option<Url>,
}

/// OpenFreeMap's "liberty" style: free, keyless, street-level, and every tile, sprite and
/// glyph on the style's own origin (see docs/decisions.md, "Drawing the search area").
pub const DEFAULT_MAP_STYLE: &str = "https://tiles.openfreemap.org/styles/liberty";

/// The spec's figures (section 2).
const SPEC_FIGURES: &str = "2.3M+=Leads generated;500+=Agencies;99.9%=Uptime";
/// Longest text a setting may hold: these are shown on public pages.
const MAX_TEXT: usize = 300;

impl Default for SiteInfo {
    fn default() -> Self {
        Self {
            support_email: "support@leadgen.app".into(),
            help_center_url: None,
            live_chat_url: None,
            legal_entity: "Leadgen".into(),
            business_address: "[Business Address]".into(),
            jurisdiction: "[Jurisdiction]".into(),
            arbitration_rules: "[Arbitration Rules]".into(),
            marketing_figures: figures(SPEC_FIGURES).expect("the spec's figures read"),
            map_style_url: Some(Url::parse(DEFAULT_MAP_STYLE).expect("the default style is a URL")),
        }
    }
}

impl SiteInfo {
    /// The origin the map's style, tiles, sprites and glyphs come from
    /// (`https://tiles.openfreemap.org`), for the Content-Security-Policy; none without a style.
    pub fn map_origin(&self) -> Option<String> {
        self.map_style_url
            .as_ref()
            .map(|url| url.origin().ascii_serialization())
    }
}

fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let value = de::text(d)?;
    if value.chars().count() > MAX_TEXT {
        return Err(D::Error::custom(format_args!("is at most {MAX_TEXT} characters")));
    }
    Ok(value)
}

fn email<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let value = text(d)?;
    if !value.contains('@') || value.contains(char::is_whitespace) {
        return Err(D::Error::invalid_value(
            serde::de::Unexpected::Str(&value),
            &"an email address",
        ));
    }
    Ok(value)
}

fn link<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Url>, D::Error> {
    let Some(value) = de::optional_text(d)? else {
        return Ok(None);
    };
    match Url::parse(&value) {
        Ok(url) if matches!(url.scheme(), "https" | "http" | "mailto") => Ok(Some(url)),
        _ => Err(D::Error::invalid_value(
            serde::de::Unexpected::Str(&value),
            &"an https, http or mailto link",
        )),
    }
}

fn map_style<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Url>, D::Error> {
    let value = text(d)?;
    if value.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    match Url::parse(&value) {
        // A host is what the Content-Security-Policy allows; a URL without one has no origin.
        Ok(url) if matches!(url.scheme(), "https" | "http") && url.host().is_some() => Ok(Some(url)),
        _ => Err(D::Error::invalid_value(
            serde::de::Unexpected::Str(&value),
            &"an https or http URL of a MapLibre style, or none",
        )),
    }
}

fn marketing_figures<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<MarketingFigure>, D::Error> {
    figures(&text(d)?).map_err(D::Error::custom)
}

/// `value=label;value=label`, or `none`.
fn figures(text: &str) -> Result<Vec<MarketingFigure>, String> {
    if text.eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    text.split(';')
        .map(str::trim)
        .filter(|pair| !pair.is_empty())
        .map(|pair| match pair.split_once('=') {
            Some((value, label)) if !value.trim().is_empty() && !label.trim().is_empty() => Ok(MarketingFigure {
                value: value.trim().to_owned(),
                label: label.trim().to_owned(),
            }),
            _ => Err(format!(
                "'{pair}' is not value=label (e.g. 500+=Agencies); separate figures with ';', or set none"
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::config::{Config, ConfigError};

    fn site(vars: &[(&str, &str)]) -> Result<SiteInfo, ConfigError> {
        let map: HashMap<&str, &str> = vars.iter().copied().collect();
        Config::from_lookup(|name| map.get(name).map(|v| (*v).to_owned())).map(|c| c.site)
    }

    #[test]
    fn unset_is_the_specs_placeholders() {
        let site = site(&[]).expect("defaults");
        assert_eq!(site, SiteInfo::default());
        assert_eq!(site.support_email, "support@leadgen.app");
        assert_eq!(site.help_center_url, None);
        assert_eq!(site.business_address, "[Business Address]");
        assert_eq!(site.jurisdiction, "[Jurisdiction]");
        assert_eq!(site.arbitration_rules, "[Arbitration Rules]");
        let figures: Vec<(&str, &str)> = site
            .marketing_figures
            .iter()
            .map(|f| (f.value.as_str(), f.label.as_str()))
            .collect();
        assert_eq!(
            figures,
            [("2.3M+", "Leads generated"), ("500+", "Agencies"), ("99.9%", "Uptime")]
        );
    }

    #[test]
    fn an_operator_sets_real_values_or_hides_the_figures() {
        let site = site(&[
            ("LEADGEN_HELP_CENTER_URL", "https://help.agency.example"),
            ("LEADGEN_BUSINESS_ADDRESS", "1 Main St, Leeds"),
            ("LEADGEN_MARKETING_FIGURES", "NONE"),
        ])
        .expect("valid");
        assert_eq!(
            site.help_center_url.map(String::from).as_deref(),
            Some("https://help.agency.example/")
        );
        assert_eq!(site.business_address, "1 Main St, Leeds");
        assert!(site.marketing_figures.is_empty());
    }

    #[test]
    fn bad_values_name_their_variable() {
        let bad = |name: &str, value: &str| site(&[(name, value)]).expect_err("refused").variable;
        assert_eq!(
            bad("LEADGEN_LIVE_CHAT_URL", "javascript:alert(1)"),
            "LEADGEN_LIVE_CHAT_URL"
        );
        assert_eq!(
            bad("LEADGEN_MARKETING_FIGURES", "500+ Agencies"),
            "LEADGEN_MARKETING_FIGURES"
        );
        assert_eq!(bad("LEADGEN_SUPPORT_EMAIL", "nobody"), "LEADGEN_SUPPORT_EMAIL");
        assert_eq!(bad("LEADGEN_LEGAL_ENTITY", &"x".repeat(301)), "LEADGEN_LEGAL_ENTITY");
        assert_eq!(
            bad("LEADGEN_MAP_STYLE_URL", "tiles.example/style.json"),
            "LEADGEN_MAP_STYLE_URL"
        );
        assert_eq!(
            bad("LEADGEN_MAP_STYLE_URL", "data:application/json,{}"),
            "LEADGEN_MAP_STYLE_URL"
        );
    }

    #[test]
    fn the_map_style_defaults_to_a_keyless_one_and_names_its_origin() {
        let default = site(&[]).expect("defaults");
        assert_eq!(default.map_style_url.as_ref().map(Url::as_str), Some(DEFAULT_MAP_STYLE));
        assert_eq!(default.map_origin().as_deref(), Some("https://tiles.openfreemap.org"));

        let own = site(&[(
            "LEADGEN_MAP_STYLE_URL",
            "https://maps.agency.example:8443/styles/streets.json",
        )])
        .expect("valid");
        assert_eq!(own.map_origin().as_deref(), Some("https://maps.agency.example:8443"));

        let blank = site(&[("LEADGEN_MAP_STYLE_URL", "None")]).expect("valid");
        assert_eq!((blank.map_origin(), blank.map_style_url), (None, None));
    }
}
