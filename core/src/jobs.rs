//! Job payloads shared by the producer (API) and the consumer (workers). A payload whose
//! shape changes gets a new versioned type and queue, so old and new processes never
//! misread each other during a rolling upgrade.

use serde::{Deserialize, Serialize};

/// Queue of [`SearchJobV1`] (suffix of the Redis key prefix).
pub const SEARCH_QUEUE: &str = "search.v1";

/// Run one lead search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchJobV1 {
    /// The search's id (its event channel).
    pub search_id: String,
    /// Whose key to use and whose usage to settle.
    pub user_id: String,
    /// Catalogue value.
    pub business_type: String,
    /// Location as typed (trimmed).
    pub location: String,
    /// Leads the search may deliver (reserved before queueing).
    pub lead_budget: u32,
}
