//! What a search produces: leads, and the events that stream them. Leads exist only in
//! flight (events, job memory, a short replay buffer); they are never written to the
//! database.

use serde::{Deserialize, Serialize};

/// One business found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Lead {
    /// Business name.
    pub name: String,
    /// Formatted address.
    pub address: String,
    /// National phone number; empty when Google has none.
    pub phone: String,
    /// Website; empty when Google has none.
    pub website: String,
    /// Google place id.
    pub place_id: String,
    /// Average rating (1 to 5), when rated.
    pub rating: Option<f64>,
    /// Number of ratings, when rated.
    pub review_count: Option<u32>,
}

/// What was searched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchParams {
    /// Catalogue value.
    pub business_type: String,
    /// Location as typed (trimmed).
    pub location: String,
}

/// One event of a search, as streamed to the browser (the spec's event names).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SearchEvent {
    /// The search started.
    #[serde(rename_all = "camelCase")]
    Start {
        /// Catalogue value.
        business_type: String,
        /// Location as typed.
        location: String,
    },
    /// A new business was found.
    BusinessFound {
        /// Its name (the spec's live list shows names).
        name: String,
        /// How many businesses have been found so far, this one included.
        found: u32,
        /// How many results Google has returned so far (grows page by page).
        total: u32,
        /// The lead itself.
        lead: Lead,
    },
    /// The search finished.
    Complete {
        /// Every lead, in order.
        results: Vec<Lead>,
        /// What was searched.
        search: SearchParams,
        /// Usage after this search.
        usage: crate::usage::UsageReport,
    },
    /// The search failed; `message` says why in plain words.
    Error {
        /// What went wrong.
        message: String,
    },
}

impl SearchEvent {
    /// Whether the stream ends with this event.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Complete { .. } | Self::Error { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialize_with_the_specs_names() {
        let start = SearchEvent::Start {
            business_type: "cafe".into(),
            location: "Austin".into(),
        };
        assert_eq!(
            serde_json::to_value(&start).expect("json"),
            serde_json::json!({"type": "start", "businessType": "cafe", "location": "Austin"})
        );
        let lead = Lead {
            name: "Blue Cup".into(),
            address: "1 Main St".into(),
            phone: String::new(),
            website: String::new(),
            place_id: "ChIJ1".into(),
            rating: Some(4.5),
            review_count: Some(12),
        };
        let found = SearchEvent::BusinessFound {
            name: "Blue Cup".into(),
            found: 1,
            total: 20,
            lead,
        };
        let json = serde_json::to_value(&found).expect("json");
        assert_eq!(json["type"], "business_found");
        assert_eq!(json["lead"]["placeId"], "ChIJ1");
        assert_eq!(json["lead"]["reviewCount"], 12);
        assert!(SearchEvent::Error { message: "x".into() }.is_terminal());
        assert!(!found.is_terminal());
    }
}
