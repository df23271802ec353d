//! Where a running search stands, so that a retried job (its worker died or was stopped)
//! resumes instead of starting over: the pages it already fetched are not fetched again
//! (Google bills each request to the user's key) and the leads it already sent are not
//! sent again.
//!
//! A checkpoint holds no lead data: counts and Google's opaque page token only. It is
//! written with the page's events in one step (see `EventBus::publish_page`), so the
//! events a subscriber can see and the checkpoint never disagree. The leads already sent
//! come back from the bus's short-lived replay buffer, where they are anyway.

use serde::{Deserialize, Serialize};

use super::{cost::Requests, tiling::Rect};
use crate::lead::{BusinessFound, Lead, SearchEvent};

/// Progress of a paged Text Search query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Checkpoint {
    /// `pages` pages fetched and their leads published; `next_page_token` fetches the
    /// next one (`None`: the query has no more pages).
    Pages {
        /// Pages fetched so far.
        pages: u32,
        /// Places Google returned on those pages (the `total` of `business_found`).
        places_seen: u32,
        /// Leads sent so far (after filters and de-duplication): what the progress card,
        /// the history and the results all count. Absent in checkpoints written before
        /// it was kept (read as 0 until the next page).
        #[serde(default)]
        leads: u32,
        /// Google's token for the next page.
        next_page_token: Option<String>,
    },
    /// A full-coverage search: its area and the tiles whose leads went out. A resumed run
    /// probes again (free, and Google answers the same, so the plan is the same) and
    /// fetches only tiles not listed here, so no tile is billed twice.
    Tiles {
        /// The located area (so a resumed run does not pay to locate again).
        area: Rect,
        /// Tiles fetched and delivered.
        done: Vec<DoneTile>,
        /// Requests made so far, by SKU.
        requests: Requests,
    },
}

/// A tile whose leads went out: its bounds and how many leads it gave (no lead data).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DoneTile {
    /// The rectangle fetched.
    pub rect: Rect,
    /// Leads it gave (after filters).
    pub leads: u32,
}

/// How far a running search has got, as its checkpoint tells (counts only).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Progress {
    /// Leads sent so far (issue #26 item 8: the history counted the places Google listed,
    /// before filters and de-duplication, while the progress card counted leads).
    pub found: u32,
    /// Requests made so far, by SKU.
    pub requests: Requests,
}

impl Checkpoint {
    /// Where the search stands.
    pub fn progress(&self) -> Progress {
        match self {
            Self::Pages { pages, leads, .. } => Progress {
                found: *leads,
                // Every page of a quick search is a lead-mask (Enterprise) request.
                requests: Requests {
                    enterprise: *pages,
                    ..Requests::default()
                },
            },
            Self::Tiles { done, requests, .. } => Progress {
                found: done.iter().map(|tile| tile.leads).sum(),
                requests: *requests,
            },
        }
    }

    /// The stored form (JSON).
    pub fn encode(&self) -> String {
        // A plain struct of strings and numbers always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a stored checkpoint; `None` for one this version does not understand (the
    /// search then starts over, which is safe, only dearer).
    pub fn decode(stored: &str) -> Option<Self> {
        serde_json::from_str(stored).ok()
    }
}

/// What a resumed search starts from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resume {
    /// The last checkpoint; `None` starts from the first page.
    pub checkpoint: Option<Checkpoint>,
    /// Leads already sent to the client, in order.
    pub delivered: Vec<Lead>,
}

impl Resume {
    /// A fresh start.
    pub fn fresh() -> Self {
        Self::default()
    }

    /// The leads of the `business_found` events among `events` (a search's replay
    /// buffer), first occurrence of each place only, in order.
    pub fn delivered_from<'a>(events: impl IntoIterator<Item = &'a SearchEvent>) -> Vec<Lead> {
        let mut seen = std::collections::HashSet::new();
        events
            .into_iter()
            .filter_map(|event| match event {
                SearchEvent::BusinessFound(BusinessFound { lead, .. }) if seen.insert(lead.place_id.clone()) => {
                    Some(lead.clone())
                }
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lead::SearchStarted;

    #[test]
    fn progress_counts_what_a_checkpoint_says_and_nothing_else() {
        let pages = Checkpoint::Pages {
            pages: 2,
            places_seen: 37,
            leads: 29,
            next_page_token: Some("tok".into()),
        };
        assert_eq!(
            pages.progress(),
            Progress {
                found: 29,
                requests: Requests {
                    enterprise: 2,
                    ..Requests::default()
                }
            }
        );
        let rect = Rect {
            low: crate::search::tiling::LatLng { lat: 29.5, lng: -95.8 },
            high: crate::search::tiling::LatLng { lat: 30.1, lng: -95.0 },
        };
        let tiles = Checkpoint::Tiles {
            area: rect,
            done: vec![DoneTile { rect, leads: 12 }, DoneTile { rect, leads: 30 }],
            requests: Requests {
                ids_only: 9,
                pro: 1,
                enterprise: 4,
                aggregate: 0,
                details: 0,
            },
        };
        let progress = tiles.progress();
        assert_eq!(progress.found, 42);
        assert_eq!(
            (
                progress.requests.ids_only,
                progress.requests.pro,
                progress.requests.enterprise
            ),
            (9, 1, 4)
        );
    }

    #[test]
    fn round_trips_and_tolerates_unknown_shapes() {
        let checkpoint = Checkpoint::Pages {
            pages: 2,
            places_seen: 40,
            leads: 33,
            next_page_token: Some("tok".into()),
        };
        let stored = checkpoint.encode();
        assert_eq!(
            stored,
            r#"{"kind":"pages","pages":2,"placesSeen":40,"leads":33,"nextPageToken":"tok"}"#
        );
        assert_eq!(Checkpoint::decode(&stored), Some(checkpoint));
        // Written by an earlier version: no lead count yet.
        let older =
            Checkpoint::decode(r#"{"kind":"pages","pages":1,"placesSeen":20,"nextPageToken":null}"#).expect("readable");
        assert_eq!(older.progress().found, 0);
        assert_eq!(
            Checkpoint::decode(r#"{"kind":"tiles","done":[]}"#),
            None,
            "no area: unreadable"
        );
        assert_eq!(Checkpoint::decode(r#"{"kind":"hexagons"}"#), None);
        let rect = Rect {
            low: crate::search::tiling::LatLng { lat: 1.0, lng: 2.0 },
            high: crate::search::tiling::LatLng { lat: 3.0, lng: 4.0 },
        };
        let tiles = Checkpoint::Tiles {
            area: rect,
            done: vec![DoneTile { rect, leads: 7 }],
            requests: Requests {
                ids_only: 9,
                pro: 1,
                enterprise: 1,
                aggregate: 0,
                details: 2,
            },
        };
        assert_eq!(Checkpoint::decode(&tiles.encode()), Some(tiles));
        assert_eq!(Checkpoint::decode("not json"), None);
    }

    #[test]
    fn delivered_leads_come_from_business_found_events_once_each() {
        let lead = |id: &str| Lead {
            name: format!("n{id}"),
            address: String::new(),
            phone: String::new(),
            website: String::new(),
            place_id: id.into(),
            rating: None,
            review_count: None,
            contacts: None,
            ..Default::default()
        };
        let found = |id: &str, n: u32| {
            SearchEvent::BusinessFound(BusinessFound {
                name: format!("n{id}"),
                found: n,
                total: n,
                lead: lead(id),
            })
        };
        let events = [
            SearchEvent::Start(SearchStarted {
                business_type: "cafe".into(),
                location: "x".into(),
                search_id: None,
            }),
            found("a", 1),
            found("b", 2),
            found("a", 3),
        ];
        let ids: Vec<String> = Resume::delivered_from(&events)
            .into_iter()
            .map(|l| l.place_id)
            .collect();
        assert_eq!(ids, ["a", "b"]);
    }
}
