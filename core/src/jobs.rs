//! Job payloads shared by the producer (API) and the consumer (workers). A payload whose
//! shape changes gets a new versioned type and queue, so old and new processes never
//! misread each other during a rolling upgrade. Where a job kind's handler lives and how
//! it is registered: `worker/src/jobs/` (see docs/architecture.md).

use serde::{Deserialize, Serialize, de::DeserializeOwned};

/// What a queue carries for one job kind.
pub trait JobPayload: Serialize + DeserializeOwned + Clone + Send + Sync + Unpin + 'static {
    /// The queue's name after `LEADGEN_REDIS_PREFIX.`, version included (`search.v1`).
    const QUEUE: &'static str;
}

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

impl JobPayload for SearchJobV1 {
    const QUEUE: &'static str = SEARCH_QUEUE;
}
