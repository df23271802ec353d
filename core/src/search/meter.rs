//! The completeness meter's readings, as events and answers carry them: plain types that
//! name nothing else of the search, so the events (`lead`) can hold them without an
//! import loop through the search's query and options (`completeness` does the counting).

use serde::{Deserialize, Serialize};

/// Where an expected count comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "CompletenessSource", rename_all = "snake_case")
)]
pub enum CompletenessSource {
    /// Google's Places Aggregate API (`computeInsights`, `INSIGHT_COUNT`).
    GoogleAggregate,
}

/// How many places of the type the area holds, by a count independent of the search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "Completeness", rename_all = "camelCase")
)]
pub struct Completeness {
    /// Places of the type in the area, whatever their rating filter aside (open or
    /// closed, as Text Search lists both): what a full search of the area can find.
    pub expected: u32,
    /// Who counted.
    pub source: CompletenessSource,
}

impl Completeness {
    /// The meter's reading once a search has found `found` of the places counted.
    pub fn with_found(self, found: u32) -> SearchCompleteness {
        SearchCompleteness {
            found,
            expected: self.expected,
            source: self.source,
        }
    }
}

/// The completeness meter's reading on a running or finished search: "found `found` of
/// about `expected`" (`progress` and `complete` carry it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "SearchCompleteness", rename_all = "camelCase")
)]
pub struct SearchCompleteness {
    /// Places of the search's type and area it has found so far, before Leadgen's own
    /// filters (website, phone, reviews), which the count does not know.
    pub found: u32,
    /// Places of the type in the area by the independent count.
    pub expected: u32,
    /// Who counted.
    pub source: CompletenessSource,
}
