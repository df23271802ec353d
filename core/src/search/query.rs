//! A search request, validated once where it enters (the API) and trusted from then on:
//! the queue carries it and the worker runs it without checking again. A payload that
//! does not validate cannot even be read off the queue.

use serde::{Deserialize, Serialize};

use super::{
    options::{Area, Coverage, Exclude, InvalidOption, LeadFilters, parse_max_cost},
    postal::PostalCode,
};
use crate::{
    catalogue::{self, BusinessType},
    lead::SearchParams,
};

/// Longest location accepted, in characters.
pub const MAX_LOCATION: usize = 200;
/// The spec's message when a field is missing.
pub const MISSING_FIELDS: &str = "Please select a business type and enter a location";

/// Why a search request was refused; `Display` is the message for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidSearch {
    /// No business type or no location.
    #[error("{MISSING_FIELDS}")]
    MissingFields,
    /// The location is longer than [`MAX_LOCATION`].
    #[error("The location is too long: use at most {MAX_LOCATION} characters.")]
    LocationTooLong,
    /// Not a catalogue value.
    #[error("{}", catalogue::unknown_type_message(.0))]
    UnknownBusinessType(String),
    /// An option (coverage, budget, filters, area) out of range.
    #[error(transparent)]
    Option(#[from] InvalidOption),
}

/// A valid search: a catalogue business type and a trimmed, bounded location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchQuery<'a> {
    business: BusinessType,
    location: &'a str,
}

/// The owned form the job queue carries, validated again when read. A quick search with
/// no option keeps the JSON it always had (`business_type`, `location`): options are
/// left out when unset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawSearch", into = "RawSearch")]
pub struct ValidSearch {
    business: BusinessType,
    /// The location as typed; for a search given by area alone, the area's label.
    location: String,
    coverage: Coverage,
    filters: LeadFilters,
    max_cost_usd: Option<f64>,
    area: Option<Area>,
    enrich: bool,
    exclude: Exclude,
    /// The postal code the location names, when no area is given (derived, not carried).
    postal_code: Option<PostalCode>,
}

/// As typed, before validation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RawSearch {
    /// Catalogue value.
    pub business_type: String,
    /// Location as typed (may be empty when `area` is given).
    #[serde(default)]
    pub location: String,
    /// `quick` (default) or `full`.
    #[serde(default, skip_serializing_if = "Coverage::skip")]
    pub coverage: Coverage,
    /// Lead conditions.
    #[serde(default, skip_serializing_if = "LeadFilters::is_empty")]
    pub filters: LeadFilters,
    /// Budget on the user's key, US dollars.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_cost_usd: Option<f64>,
    /// Explicit area (instead of, or refining, the location).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Area>,
    /// Read each lead's own website for emails and social profiles (left out when
    /// false, so an unenriched search's queue JSON and history options stay as they were).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub enrich: bool,
    /// Places of the workspace's memory to leave out (`none` is left out of the JSON).
    #[serde(default, skip_serializing_if = "Exclude::skip")]
    pub exclude: Exclude,
}

impl TryFrom<RawSearch> for ValidSearch {
    type Error = InvalidSearch;

    fn try_from(raw: RawSearch) -> Result<Self, InvalidSearch> {
        let business_type = raw.business_type.trim();
        let location = raw.location.trim();
        if business_type.is_empty() || (location.is_empty() && raw.area.is_none()) {
            return Err(InvalidSearch::MissingFields);
        }
        if location.chars().count() > MAX_LOCATION {
            return Err(InvalidSearch::LocationTooLong);
        }
        let business = catalogue::find(business_type)
            .ok_or_else(|| InvalidSearch::UnknownBusinessType(business_type.to_owned()))?;
        // Re-check what the queue carries: a payload is only trusted once validated.
        let area = raw.area.map(Area::checked).transpose()?;
        let filters = LeadFilters::parse(
            raw.filters.min_rating,
            raw.filters.min_reviews.map(i64::from),
            None,
            None,
        )?;
        let location = match (location.is_empty(), &area) {
            (true, Some(area)) => area.label(),
            _ => location.to_owned(),
        };
        let postal_code = area.is_none().then(|| PostalCode::named_by(&location)).flatten();
        Ok(Self {
            business,
            location,
            coverage: raw.coverage,
            filters: LeadFilters {
                website: raw.filters.website,
                phone: raw.filters.phone,
                ..filters
            },
            max_cost_usd: parse_max_cost(raw.max_cost_usd)?,
            area,
            enrich: raw.enrich,
            exclude: raw.exclude,
            postal_code,
        })
    }
}

impl From<ValidSearch> for RawSearch {
    fn from(valid: ValidSearch) -> Self {
        Self {
            business_type: valid.business.value.to_owned(),
            location: valid.location,
            coverage: valid.coverage,
            filters: valid.filters,
            max_cost_usd: valid.max_cost_usd,
            area: valid.area,
            enrich: valid.enrich,
            exclude: valid.exclude,
        }
    }
}

impl ValidSearch {
    /// Validates optional fields as an API body gives them (a quick search, no options).
    pub fn parse(business_type: Option<&str>, location: Option<&str>) -> Result<Self, InvalidSearch> {
        Self::try_from(RawSearch {
            business_type: business_type.unwrap_or_default().to_owned(),
            location: location.unwrap_or_default().to_owned(),
            ..RawSearch::default()
        })
    }

    /// How much of the area to cover.
    pub fn coverage(&self) -> Coverage {
        self.coverage
    }

    /// Conditions on the leads.
    pub fn filters(&self) -> &LeadFilters {
        &self.filters
    }

    /// Budget on the user's key, US dollars.
    pub fn max_cost_usd(&self) -> Option<f64> {
        self.max_cost_usd
    }

    /// Whether each lead's website is read for emails and social profiles.
    pub fn enrich(&self) -> bool {
        self.enrich
    }

    /// Which remembered places to leave out.
    pub fn exclude(&self) -> Exclude {
        self.exclude
    }

    /// The same search leaving out `exclude` (a monitor's `onlyNew` run: `seen`).
    pub fn excluding(self, exclude: Exclude) -> Self {
        Self { exclude, ..self }
    }

    /// The explicit area, if given.
    pub fn area(&self) -> Option<&Area> {
        self.area.as_ref()
    }

    /// The postal code the location names (see `search::postal`), when no area is given:
    /// only leads whose address carries it are sent.
    pub fn postal_code(&self) -> Option<&PostalCode> {
        self.postal_code.as_ref()
    }

    /// The options beyond type and location, as the history records them (JSON: the
    /// queue's form without `business_type` and `location`).
    pub fn options_json(&self) -> String {
        let mut raw = serde_json::to_value(RawSearch::from(self.clone())).unwrap_or_default();
        if let Some(map) = raw.as_object_mut() {
            map.remove("business_type");
            map.remove("location");
        }
        raw.to_string()
    }

    /// The catalogue entry.
    pub fn business(&self) -> BusinessType {
        self.business
    }

    /// The location, trimmed.
    pub fn location(&self) -> &str {
        &self.location
    }

    /// A borrowed view.
    pub fn query(&self) -> SearchQuery<'_> {
        SearchQuery {
            business: self.business,
            location: &self.location,
        }
    }

    /// What `start` and `complete` echo.
    pub fn params(&self) -> SearchParams {
        SearchParams {
            business_type: self.business.value.to_owned(),
            location: self.location.clone(),
        }
    }
}

impl SearchQuery<'_> {
    /// The catalogue entry.
    pub fn business(&self) -> BusinessType {
        self.business
    }

    /// The location, trimmed.
    pub fn location(&self) -> &str {
        self.location
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_bounds_and_checks_the_catalogue() {
        let ok = ValidSearch::parse(Some(" dentist "), Some("  Austin, TX ")).expect("valid");
        assert_eq!((ok.business().value, ok.location()), ("dentist", "Austin, TX"));
        assert_eq!(ValidSearch::parse(None, Some("x")), Err(InvalidSearch::MissingFields));
        assert_eq!(
            ValidSearch::parse(Some("cafe"), Some("   ")),
            Err(InvalidSearch::MissingFields)
        );
        let long = "x".repeat(MAX_LOCATION + 1);
        assert_eq!(
            ValidSearch::parse(Some("cafe"), Some(&long)),
            Err(InvalidSearch::LocationTooLong)
        );
        assert!(
            ValidSearch::parse(Some("cafe"), Some(&"é".repeat(MAX_LOCATION))).is_ok(),
            "characters, not bytes"
        );
        let unknown = ValidSearch::parse(Some("spaceport"), Some("Austin")).expect_err("unknown");
        assert_eq!(unknown, InvalidSearch::UnknownBusinessType("spaceport".into()));
        assert!(
            unknown
                .to_string()
                .starts_with("Business type 'spaceport' is not a Google place type")
        );
    }

    #[test]
    fn any_google_table_a_type_is_searched_with_its_label_and_as_included_type() {
        for (value, query) in [
            ("indian_restaurant", "Indian Restaurant in Leeds"),
            ("vegan_restaurant", "Vegan Restaurant in Leeds"),
            ("electrician", "Electrician in Leeds"),
        ] {
            let valid = ValidSearch::parse(Some(value), Some("Leeds")).expect(value);
            let request = crate::search::request::first_request(&valid);
            assert_eq!(request.text_query, query);
            assert_eq!(request.included_type.as_deref(), Some(value));
            // It travels through the queue as it came.
            let json = serde_json::to_value(&valid).expect("json");
            assert_eq!(serde_json::from_value::<ValidSearch>(json).expect("read back"), valid);
        }
    }

    #[test]
    fn the_queue_form_keeps_its_json_and_refuses_what_does_not_validate() {
        let valid = ValidSearch::parse(Some("bakery"), Some("Boston")).expect("valid");
        let json = serde_json::to_value(&valid).expect("json");
        assert_eq!(
            json,
            serde_json::json!({"business_type": "bakery", "location": "Boston"})
        );
        assert_eq!(serde_json::from_value::<ValidSearch>(json).expect("read back"), valid);
        let forged = serde_json::json!({"business_type": "spaceport", "location": "Boston"});
        assert!(serde_json::from_value::<ValidSearch>(forged).is_err());
    }
}
