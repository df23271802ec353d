//! What an operator says about their own deployment on the public pages (issue #26 item
//! 10): support and chat links, the legal entity, address, jurisdiction and arbitration
//! rules, the landing page's figures. Each defaults to the spec's placeholder, so an
//! unconfigured server shows exactly the spec's pages.

use serde::{Deserialize, Serialize};
use url::Url;

use super::ConfigError;

/// `[site]`, as read.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SiteSettings {
    /// `LEADGEN_SUPPORT_EMAIL`: where "Contact support" and the legal pages' email go.
    /// Default `support@leadgen.app`.
    pub support_email: Option<String>,
    /// `LEADGEN_HELP_CENTER_URL`: the Help Center. Unset: the spec's "coming soon" alert.
    pub help_center_url: Option<String>,
    /// `LEADGEN_LIVE_CHAT_URL`: live chat. Unset: the spec's "coming soon" alert.
    pub live_chat_url: Option<String>,
    /// `LEADGEN_LEGAL_ENTITY`: who the terms and the privacy policy are with. Default `Leadgen`.
    pub legal_entity: Option<String>,
    /// `LEADGEN_BUSINESS_ADDRESS`: its postal address. Default `[Business Address]`.
    pub business_address: Option<String>,
    /// `LEADGEN_JURISDICTION`: the law the terms are under. Default `[Jurisdiction]`.
    pub jurisdiction: Option<String>,
    /// `LEADGEN_ARBITRATION_RULES`: the rules of arbitration. Default `[Arbitration Rules]`.
    pub arbitration_rules: Option<String>,
    /// `LEADGEN_MARKETING_FIGURES`: the landing page's figures, `value=label` pairs
    /// separated by `;` (`2.3M+=Leads generated;500+=Agencies`), or `none` to show none.
    /// Default: the spec's three.
    pub marketing_figures: Option<String>,
}

/// One figure of the landing page ("2.3M+", "Leads generated").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketingFigure {
    /// The number, as shown.
    pub value: String,
    /// What it counts.
    pub label: String,
}

/// `[site]`, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteInfo {
    /// Support address.
    pub support_email: String,
    /// Help Center, if any.
    pub help_center_url: Option<Url>,
    /// Live chat, if any.
    pub live_chat_url: Option<Url>,
    /// Legal entity.
    pub legal_entity: String,
    /// Its address.
    pub business_address: String,
    /// Governing law.
    pub jurisdiction: String,
    /// Arbitration rules.
    pub arbitration_rules: String,
    /// The landing page's figures (empty: none shown).
    pub marketing_figures: Vec<MarketingFigure>,
}

/// The spec's figures (section 2).
const SPEC_FIGURES: &str = "2.3M+=Leads generated;500+=Agencies;99.9%=Uptime";
/// Longest text a setting may hold: these are shown on public pages.
const MAX_TEXT: usize = 300;

impl SiteInfo {
    /// Checks `[site]`, naming the variable at fault.
    pub fn from_settings(s: SiteSettings) -> Result<Self, ConfigError> {
        let text = |variable: &'static str, value: Option<String>, default: &str| -> Result<String, ConfigError> {
            let value = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
            match value {
                Some(v) if v.chars().count() > MAX_TEXT => {
                    Err(ConfigError::new(variable, format!("is at most {MAX_TEXT} characters")))
                }
                Some(v) => Ok(v),
                None => Ok(default.to_owned()),
            }
        };
        let link = |variable: &'static str, value: Option<String>| -> Result<Option<Url>, ConfigError> {
            let Some(value) = value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) else {
                return Ok(None);
            };
            match Url::parse(&value) {
                Ok(url) if matches!(url.scheme(), "https" | "http" | "mailto") => Ok(Some(url)),
                _ => Err(ConfigError::new(
                    variable,
                    format!("'{value}' is not an https, http or mailto link"),
                )),
            }
        };
        let support_email = text("LEADGEN_SUPPORT_EMAIL", s.support_email, "support@leadgen.app")?;
        if !support_email.contains('@') || support_email.contains(char::is_whitespace) {
            return Err(ConfigError::new(
                "LEADGEN_SUPPORT_EMAIL",
                format!("'{support_email}' is not an email address"),
            ));
        }
        Ok(Self {
            support_email,
            help_center_url: link("LEADGEN_HELP_CENTER_URL", s.help_center_url)?,
            live_chat_url: link("LEADGEN_LIVE_CHAT_URL", s.live_chat_url)?,
            legal_entity: text("LEADGEN_LEGAL_ENTITY", s.legal_entity, "Leadgen")?,
            business_address: text("LEADGEN_BUSINESS_ADDRESS", s.business_address, "[Business Address]")?,
            jurisdiction: text("LEADGEN_JURISDICTION", s.jurisdiction, "[Jurisdiction]")?,
            arbitration_rules: text("LEADGEN_ARBITRATION_RULES", s.arbitration_rules, "[Arbitration Rules]")?,
            marketing_figures: figures(&text("LEADGEN_MARKETING_FIGURES", s.marketing_figures, SPEC_FIGURES)?)?,
        })
    }
}

impl Default for SiteInfo {
    fn default() -> Self {
        Self::from_settings(SiteSettings::default()).unwrap_or_else(|_| unreachable!("the defaults are valid"))
    }
}

/// `value=label;value=label`, or `none`.
fn figures(text: &str) -> Result<Vec<MarketingFigure>, ConfigError> {
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
            _ => Err(ConfigError::new(
                "LEADGEN_MARKETING_FIGURES",
                format!("'{pair}' is not value=label (e.g. 500+=Agencies); separate figures with ';', or set none"),
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_is_the_specs_placeholders() {
        let site = SiteInfo::default();
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
        let site = SiteInfo::from_settings(SiteSettings {
            help_center_url: Some("https://help.agency.example".into()),
            business_address: Some("1 Main St, Leeds".into()),
            marketing_figures: Some("NONE".into()),
            ..SiteSettings::default()
        })
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
        let bad = |settings: SiteSettings| SiteInfo::from_settings(settings).expect_err("refused").variable;
        assert_eq!(
            bad(SiteSettings {
                live_chat_url: Some("javascript:alert(1)".into()),
                ..SiteSettings::default()
            }),
            "LEADGEN_LIVE_CHAT_URL"
        );
        assert_eq!(
            bad(SiteSettings {
                marketing_figures: Some("500+ Agencies".into()),
                ..SiteSettings::default()
            }),
            "LEADGEN_MARKETING_FIGURES"
        );
        assert_eq!(
            bad(SiteSettings {
                support_email: Some("nobody".into()),
                ..SiteSettings::default()
            }),
            "LEADGEN_SUPPORT_EMAIL"
        );
    }
}
