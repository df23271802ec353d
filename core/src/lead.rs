//! What a search produces: leads, and the events that stream them. Leads exist only in
//! flight (events, job memory, a short replay buffer); they are never written to the
//! database.

use serde::{Deserialize, Serialize};

use crate::{enrich::Contacts, ids::SearchId};

/// One business found. The contract's `LeadItem`: the stream's events, the answer of
/// `POST /api/leads/search` and the leads a client sends back share this one shape.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "LeadItem", rename_all = "camelCase")
)]
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
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub rating: Option<f64>,
    /// Number of ratings, when rated.
    #[cfg_attr(feature = "openapi", oai(nullable))]
    pub review_count: Option<u32>,
    /// Street line, e.g. `1204 Oak St`; absent when Google gives none (empty parts are
    /// left out, so a lead without them keeps its old shape).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "openapi", oai(default, skip_serializing_if_is_empty))]
    pub street: String,
    /// City (locality); absent when Google gives none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "openapi", oai(default, skip_serializing_if_is_empty))]
    pub city: String,
    /// State or region as Google abbreviates it, e.g. `TX`; absent when none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "openapi", oai(default, skip_serializing_if_is_empty))]
    pub state: String,
    /// Postal code; absent when none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "openapi", oai(default, skip_serializing_if_is_empty))]
    pub postal_code: String,
    /// Google's category for it, in words, e.g. `Dentist`; absent when none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "openapi", oai(default, skip_serializing_if_is_empty))]
    pub category: String,
    /// The place on Google Maps; absent when Google gives none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "openapi", oai(default, skip_serializing_if_is_empty))]
    pub maps_url: String,
    /// Latitude of the place (degrees, WGS 84), from Google's `location`; absent, with
    /// `longitude`, when Google gives none or the lead predates positions (issue #30
    /// item 5), so older leads keep their shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub latitude: Option<f64>,
    /// Longitude of the place (degrees, WGS 84); present exactly when `latitude` is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub longitude: Option<f64>,
    /// What the business's own website publishes: only in an enriched search's results
    /// (absent everywhere else, so unenriched leads keep their shape).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub contacts: Option<Contacts>,
}

/// What was searched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Object),
    oai(rename = "SearchEcho", rename_all = "camelCase")
)]
pub struct SearchParams {
    /// Catalogue value.
    pub business_type: String,
    /// Location as searched.
    pub location: String,
}

/// How a long (full-coverage) search is going: sent alongside `business_found`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Object), oai(rename_all = "camelCase"))]
pub struct SearchProgress {
    /// Rectangles probed (free IDs-only queries).
    pub areas_probed: u32,
    /// Rectangles whose leads were fetched.
    pub areas_fetched: u32,
    /// Rectangles planned for fetching so far.
    pub areas_planned: u32,
    /// Leads sent so far.
    pub leads: u32,
    /// Places found so far by the probes (before filters).
    pub places_found: u32,
    /// Requests Google bills so far.
    pub billable_requests: u32,
    /// US dollars spent so far on the user's key.
    pub cost_usd: f64,
    /// US dollars expected at the end (exact once every area is probed).
    pub estimated_cost_usd: f64,
    /// Places of the area expected at the end (exact once every area is probed). Where
    /// the tiles reach past the area (a circle, a polygon, a postal code's viewport), the
    /// probes' places are counted in the share of those fetched so far that lie inside it.
    pub estimated_places: u32,
    /// Found so far of what Google counts in the area (the completeness meter), when the
    /// meter is on and the type is one of Google's; absent until the count answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub completeness: Option<crate::search::SearchCompleteness>,
}

/// One event of a search: the `data:` of an SSE frame of `POST /api/leads/search-stream`
/// and `GET /api/leads/searches/{id}/events`, what the bus and the replay buffer carry, and
/// (in the contract) a union told apart by `type`, the spec's event names. Declared here
/// once: the contract's schemas and the web app's types are generated from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Union),
    oai(discriminator_name = "type", one_of)
)]
pub enum SearchEvent {
    /// The search started.
    #[cfg_attr(feature = "openapi", oai(mapping = "start"))]
    Start(SearchStarted),
    /// A new business was found.
    #[cfg_attr(feature = "openapi", oai(mapping = "business_found"))]
    BusinessFound(BusinessFound),
    /// What a lead's own website publishes (an enriched search; one per lead with a
    /// website, once its site has been read or given up on).
    #[cfg_attr(feature = "openapi", oai(mapping = "lead_enriched"))]
    LeadEnriched(LeadEnriched),
    /// How a long (full-coverage) search is going.
    #[cfg_attr(feature = "openapi", oai(mapping = "progress"))]
    Progress(SearchProgress),
    /// The search finished.
    #[cfg_attr(feature = "openapi", oai(mapping = "complete"))]
    Complete(SearchComplete),
    /// The search failed; `message` says why in plain words.
    #[cfg_attr(feature = "openapi", oai(mapping = "error"))]
    Error(SearchFailed),
    /// This stream ends but the search goes on: the API process serving it is stopping
    /// (a deploy). Reconnect with `GET /api/leads/searches/{searchId}/events` and the last
    /// event number seen as `Last-Event-ID`. Sent by the API, never stored on the bus; its
    /// frame has no `id:` (it is not one of the search's numbered events).
    #[cfg_attr(feature = "openapi", oai(mapping = "reconnect"))]
    Reconnect(SearchReconnect),
}

/// `reconnect`: the stream ends, the search does not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Object), oai(rename_all = "camelCase"))]
pub struct SearchReconnect {
    /// The search to reconnect to.
    pub search_id: SearchId,
    /// Why, in plain words.
    pub message: String,
}

/// `start`: the search started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Object), oai(rename_all = "camelCase"))]
pub struct SearchStarted {
    /// Catalogue value.
    pub business_type: String,
    /// Location as typed.
    pub location: String,
    /// The search's id: its history entry, and where to reconnect
    /// (`GET /api/leads/searches/{id}/events`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub search_id: Option<SearchId>,
}

/// `business_found`: a new business was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Object))]
pub struct BusinessFound {
    /// Its name (the spec's live list shows names).
    pub name: String,
    /// Businesses found so far, this one included.
    pub found: u32,
    /// Results Google has returned so far (grows page by page).
    pub total: u32,
    /// The lead itself.
    pub lead: Lead,
}

/// `lead_enriched`: what a lead's own website publishes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Object), oai(rename_all = "camelCase"))]
pub struct LeadEnriched {
    /// The lead's Google place id.
    pub place_id: String,
    /// Emails, social profiles and the contact page found (empty when none, or when the
    /// site could not be read), and how reading it went.
    #[serde(flatten)]
    #[cfg_attr(feature = "openapi", oai(flatten))]
    pub contacts: Contacts,
}

/// `complete`: the search finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Object), oai(rename_all = "camelCase"))]
pub struct SearchComplete {
    /// Every lead, in order.
    pub results: Vec<Lead>,
    /// What was searched.
    pub search: SearchParams,
    /// Usage after this search.
    pub usage: crate::usage::UsageReport,
    /// What it cost the user's Google key (absent in events of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub cost: Option<crate::search::SearchCost>,
    /// Why it ended before covering everything, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub stop_reason: Option<StopReason>,
    /// What the user should know about the results, in plain words (why it stopped
    /// early, or a spot where Google lists more places than it returns).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub notice: Option<String>,
    /// Found of what Google counts in the area (the completeness meter; full coverage
    /// with the meter on and one of Google's types).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub completeness: Option<crate::search::SearchCompleteness>,
    /// For a search with an `exclude`: the matching places it found, those left out
    /// included (absent for `exclude: none`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub found_count: Option<u32>,
    /// For a search with an `exclude`: the places new to the workspace's memory, the ones
    /// sent (absent for `exclude: none`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", oai(skip_serializing_if_is_none))]
    pub new_count: Option<u32>,
}

/// `error`: the search failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(poem_openapi::Object))]
pub struct SearchFailed {
    /// What went wrong, in plain words.
    pub message: String,
}

impl SearchEvent {
    /// Whether the search ends with this event (and so its stream). A `reconnect` ends
    /// only the stream.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Complete(_) | Self::Error(_))
    }

    /// A `business_found` event.
    pub fn business_found(lead: Lead, found: u32, total: u32) -> Self {
        Self::BusinessFound(BusinessFound {
            name: lead.name.clone(),
            found,
            total,
            lead,
        })
    }

    /// A `lead_enriched` event.
    pub fn lead_enriched(place_id: impl Into<String>, contacts: Contacts) -> Self {
        Self::LeadEnriched(LeadEnriched {
            place_id: place_id.into(),
            contacts,
        })
    }

    /// An `error` event.
    pub fn error(message: impl Into<String>) -> Self {
        Self::Error(SearchFailed {
            message: message.into(),
        })
    }
}

/// Why a search ended before it covered everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(poem_openapi::Enum),
    oai(rename = "StopReason", rename_all = "snake_case")
)]
pub enum StopReason {
    /// The next request would have spent more than `maxCostUsd`.
    MaxCost,
    /// The user's lead allowance ran out.
    Allowance,
    /// The next request would have passed the workspace's monthly spend cap.
    SpendCap,
}

impl StopReason {
    /// The wire word: `max_cost`, `allowance`, `spend_cap`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MaxCost => "max_cost",
            Self::Allowance => "allowance",
            Self::SpendCap => "spend_cap",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_serialize_with_the_specs_names() {
        let start = SearchEvent::Start(SearchStarted {
            business_type: "cafe".into(),
            location: "Austin".into(),
            search_id: None,
        });
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
            city: "Austin".into(),
            contacts: None,
            ..Lead::default()
        };
        let found = SearchEvent::BusinessFound(BusinessFound {
            name: "Blue Cup".into(),
            found: 1,
            total: 20,
            lead,
        });
        let json = serde_json::to_value(&found).expect("json");
        assert_eq!(json["type"], "business_found");
        assert_eq!(json["lead"]["placeId"], "ChIJ1");
        assert_eq!(json["lead"]["reviewCount"], 12);
        assert_eq!(json["lead"]["city"], "Austin");
        assert!(json["lead"].get("postalCode").is_none(), "an empty part is left out");
        assert!(
            json["lead"].get("contacts").is_none(),
            "unenriched leads keep their shape"
        );
        assert!(SearchEvent::Error(SearchFailed { message: "x".into() }).is_terminal());
        assert!(!found.is_terminal());
    }

    #[test]
    fn a_lead_enriched_event_is_flat_and_reads_back() {
        let event = SearchEvent::LeadEnriched(LeadEnriched {
            place_id: "ChIJ1".into(),
            contacts: Contacts {
                emails: vec!["hello@bluecup.example".into()],
                socials: crate::enrich::Socials {
                    instagram: Some("https://instagram.com/bluecup".into()),
                    ..Default::default()
                },
                contact_page: Some("https://bluecup.example/contact".into()),
                ..Contacts::default()
            }
            .read(),
        });
        let json = serde_json::to_value(&event).expect("json");
        assert_eq!(json["type"], "lead_enriched");
        assert_eq!(json["placeId"], "ChIJ1");
        assert_eq!(json["emails"], serde_json::json!(["hello@bluecup.example"]));
        assert_eq!(json["socials"]["instagram"], "https://instagram.com/bluecup");
        assert_eq!(json["socials"]["x"], serde_json::Value::Null);
        assert_eq!(json["contactPage"], "https://bluecup.example/contact");
        assert_eq!(json["status"], "found");
        assert!(json.get("reason").is_none(), "a reason only when not read");
        let not_read = serde_json::to_value(SearchEvent::LeadEnriched(LeadEnriched {
            place_id: "ChIJ2".into(),
            contacts: Contacts::not_read(crate::enrich::NotRead::RobotsTxt),
        }))
        .expect("json");
        assert_eq!(
            (&not_read["status"], &not_read["reason"]),
            (&"not_read".into(), &"robots_txt".into())
        );
        assert_eq!(serde_json::from_value::<SearchEvent>(json).expect("read"), event);
        assert!(!event.is_terminal());
    }
}
