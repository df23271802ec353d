//! Job payloads shared by the producer (API) and the consumer (workers). A payload whose
//! shape changes gets a new versioned type and queue, so old and new processes never
//! misread each other during a rolling upgrade. Where a job kind's handler lives and how
//! it is registered: `worker/src/jobs/` (see docs/architecture.md).

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::search::ValidSearch;

/// What a queue carries for one job kind.
pub trait JobPayload: Serialize + DeserializeOwned + Clone + Send + Sync + Unpin + 'static {
    /// The queue's name after `LEADGEN_REDIS_PREFIX.`, version included (`search.v1`).
    const QUEUE: &'static str;
}

/// Queue of [`SearchJobV1`] (suffix of the Redis key prefix).
pub const SEARCH_QUEUE: &str = "search.v1";

/// Run one lead search.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchJobV1 {
    /// The search's id (its event channel).
    pub search_id: crate::ids::SearchId,
    /// Who asked for it.
    pub user_id: crate::ids::UserId,
    /// The workspace whose key, usage and history it runs in. Absent in a job an older
    /// release queued: then its user's personal workspace ([`SearchJobV1::workspace`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<crate::ids::WorkspaceId>,
    /// What to search: validated by the API, and again when read off the queue (the
    /// JSON keeps its flat `business_type` and `location`).
    #[serde(flatten)]
    pub search: ValidSearch,
    /// Leads the search may deliver (reserved before queueing).
    pub lead_budget: u32,
    /// Whether it is a saved search's run (whose new leads are then delivered): said by
    /// whoever queues it, so the worker does not look it up after every search. Absent
    /// in a job an older release queued: then the worker asks the store.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_run: Option<bool>,
}

impl JobPayload for SearchJobV1 {
    const QUEUE: &'static str = SEARCH_QUEUE;
}

/// The workspace of a job: the one it names, or (queued by a release before workspaces)
/// its user's personal workspace, the same rule the store reads rows by.
macro_rules! workspace_of_job {
    ($($job:ty),+) => {
        $(impl $job {
            /// The workspace this job acts in.
            pub fn workspace(&self) -> crate::ids::WorkspaceId {
                self.workspace_id
                    .clone()
                    .unwrap_or_else(|| crate::ids::WorkspaceId::personal(&self.user_id))
            }
        })+
    };
}
workspace_of_job!(SearchJobV1, WebhookJobV1, DeliveryJobV1);

/// Queue of [`WebhookJobV1`].
pub const WEBHOOK_QUEUE: &str = "webhook.v1";

/// Deliver one webhook message to one endpoint (retried by the queue; idempotent by
/// `message_id`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WebhookJobV1 {
    /// Who made the endpoint (the workspace rule below falls back to theirs).
    pub user_id: crate::ids::UserId,
    /// The endpoint's workspace (every look-up is scoped by it); absent in a job an older
    /// release queued ([`WebhookJobV1::workspace`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<crate::ids::WorkspaceId>,
    /// The endpoint.
    pub endpoint_id: crate::ids::EndpointId,
    /// The `webhook-id`: the same for every attempt and every endpoint of one event.
    pub message_id: String,
    /// The event's name (`search.completed`), for the delivery log.
    pub event_type: String,
    /// The exact body to send and sign. It may hold leads: it lives in the queue only
    /// (memory or Redis) until delivered or given up, never in the database or logs.
    pub body: String,
    /// The saved search whose run this `saved_search.new_places` message reports: each
    /// attempt's outcome is recorded on it (`lastDelivery.webhook`). Absent otherwise, and
    /// in a job an older release queued (one that predates it delivers the same message
    /// and records nothing on the saved search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_search_id: Option<crate::ids::SavedSearchId>,
}

impl JobPayload for WebhookJobV1 {
    const QUEUE: &'static str = WEBHOOK_QUEUE;
}

/// Queue of [`EnrichJobV1`].
pub const ENRICH_QUEUE: &str = "enrich.v1";

/// Read one lead's website for emails and social profiles (an enriched search queues one
/// per lead with a website, as the lead is sent). Its own queue, so sites are read by the
/// whole fleet beside the Places pagination, never in its way.
///
/// It carries the website, which is lead data: like the search's events it lives only in
/// flight (the queue deletes a finished job's data within seconds; nothing reaches the
/// database or the logs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnrichJobV1 {
    /// The search whose event stream gets the result.
    pub search_id: crate::ids::SearchId,
    /// The lead's Google place id (the `lead_enriched` event names it).
    pub place_id: String,
    /// The website to read, as Google gave it.
    pub website: String,
    /// Unix time in milliseconds after which nobody waits for the result any more (the
    /// search has completed without it): a job taken later is dropped unread.
    pub not_after_ms: i64,
}

impl JobPayload for EnrichJobV1 {
    const QUEUE: &'static str = ENRICH_QUEUE;
}

/// Queue of [`PruneJobV1`].
pub const PRUNE_QUEUE: &str = "prune.v1";

/// Delete what has expired from the store: session records expired more than a day ago,
/// sign-ins abandoned at the provider, invitations expired a month ago and audit events
/// past their retention (`LEADGEN_AUDIT_RETENTION_DAYS`). Queued by the workers' schedule (after start,
/// then hourly; at most about once an hour for the whole fleet, see
/// `worker/src/jobs/prune.rs`). Idempotent: it deletes by age, so a second run finds
/// nothing to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PruneJobV1 {
    /// Unix seconds when it was queued (for the log: it prunes as of when it runs).
    pub queued_at: i64,
}

impl JobPayload for PruneJobV1 {
    const QUEUE: &'static str = PRUNE_QUEUE;
}

/// Queue of [`ScheduleJobV1`].
pub const SCHEDULE_QUEUE: &str = "schedule.v1";

/// Start the saved searches that are due (issue #29 item 4): each due run is claimed with
/// a conditional update, so it starts once however many of these jobs run at once, and a
/// run missed while nothing was up starts once (its next run is computed from now).
/// Queued by every worker's timer about twice a minute (`worker/src/jobs/schedule.rs`).
/// Idempotent: a second job finds the runs it would start already claimed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleJobV1 {
    /// Unix seconds when it was queued (for the log: it starts what is due when it runs).
    pub queued_at: i64,
}

impl JobPayload for ScheduleJobV1 {
    const QUEUE: &'static str = SCHEDULE_QUEUE;
}

/// Queue of [`DeliveryJobV1`].
pub const DELIVERY_QUEUE: &str = "delivery.v1";

/// Deliver a finished full search the way its owner chose (issue #26 item 2): its CSV
/// mailed to the account's address, or a new tab in their spreadsheet. The leads are
/// read from the search's event buffer (held `LEADGEN_RESULTS_REPLAY_MINUTES`), so the
/// payload carries none. Idempotent by search: a delivery already recorded `sent` is
/// not made again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryJobV1 {
    /// Who ran the search (the email delivery goes to their address, the Sheets one
    /// through their Google account).
    pub user_id: crate::ids::UserId,
    /// The search's workspace; absent in a job an older release queued
    /// ([`DeliveryJobV1::workspace`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace_id: Option<crate::ids::WorkspaceId>,
    /// Which search.
    pub search_id: crate::ids::SearchId,
    /// How, as chosen when the search finished.
    pub kind: crate::delivery::DeliveryKind,
    /// The spreadsheet, for a delivery to Sheets.
    pub spreadsheet_id: Option<String>,
    /// Set when the search is a saved search's run (issue #29 item 5): its new leads go
    /// where the saved search says, and the outcome is recorded on the saved search rather
    /// than in the search's history. Absent in a job an older release queued. A release
    /// that predates it ignores it and delivers the run like any full search (its leads
    /// are the same: a run's results are what it found new), so no new queue is needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_search: Option<SavedSearchDelivery>,
}

/// What a saved search's delivery needs beyond an ordinary one, fixed when the run ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedSearchDelivery {
    /// The saved search.
    pub id: crate::ids::SavedSearchId,
    /// Its name (the email's subject says it).
    pub name: String,
    /// The address an email delivery goes to (the chosen member's or the creator's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email_to: Option<String>,
    /// The tab a Sheets delivery appends to (made, with a header, if missing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<String>,
}

impl JobPayload for DeliveryJobV1 {
    const QUEUE: &'static str = DELIVERY_QUEUE;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_job_keeps_its_wire_shape_and_refuses_an_invalid_search() {
        let job = SearchJobV1 {
            search_id: "s1".into(),
            user_id: "u1".into(),
            workspace_id: None,
            search: ValidSearch::parse(Some("cafe"), Some("Austin")).expect("valid"),
            lead_budget: 60,
            saved_run: None,
        };
        let json = serde_json::to_value(&job).expect("json");
        let mut raw = crate::search::RawSearch::from(job.search.clone());
        raw.enrich = true;
        let enriched = SearchJobV1 {
            search: ValidSearch::try_from(raw).expect("valid"),
            ..job.clone()
        };
        let enriched_json = serde_json::to_value(&enriched).expect("json");
        assert_eq!(enriched_json["enrich"], true, "an enriched search says so");
        assert!(
            serde_json::from_value::<SearchJobV1>(enriched_json)
                .expect("read")
                .search
                .enrich()
        );
        assert_eq!(
            json,
            serde_json::json!({"search_id": "s1", "user_id": "u1", "business_type": "cafe", "location": "Austin", "lead_budget": 60})
        );
        assert_eq!(serde_json::from_value::<SearchJobV1>(json.clone()).expect("read"), job);
        // Who queues a job says whether it is a saved search's run; an older release's
        // job (no field) leaves the worker to ask.
        let run = SearchJobV1 {
            saved_run: Some(true),
            ..job.clone()
        };
        let run_json = serde_json::to_value(&run).expect("json");
        assert_eq!(run_json["saved_run"], true);
        assert_eq!(
            serde_json::from_value::<SearchJobV1>(run_json).expect("read").saved_run,
            Some(true)
        );
        assert_eq!(
            serde_json::from_value::<SearchJobV1>(json.clone())
                .expect("read")
                .saved_run,
            None
        );
        let bad = serde_json::json!({"search_id": "s1", "user_id": "u1", "business_type": "cafe", "location": "", "lead_budget": 60});
        assert!(serde_json::from_value::<SearchJobV1>(bad).is_err());
    }

    #[test]
    fn a_job_acts_in_its_workspace_or_else_its_users_personal_one() {
        // Queued by a release before workspaces: no workspace_id on the wire.
        let old = serde_json::json!({"search_id": "s1", "user_id": "u1", "business_type": "cafe", "location": "Austin", "lead_budget": 60});
        let job = serde_json::from_value::<SearchJobV1>(old).expect("read");
        assert_eq!(job.workspace(), crate::ids::WorkspaceId::from("u1"));
        let shared = SearchJobV1 {
            workspace_id: Some("w9".into()),
            ..job
        };
        let json = serde_json::to_value(&shared).expect("json");
        assert_eq!(json["workspace_id"], "w9");
        let back = serde_json::from_value::<SearchJobV1>(json).expect("read");
        assert_eq!(back.workspace(), crate::ids::WorkspaceId::from("w9"));
        let hook = WebhookJobV1 {
            user_id: "u2".into(),
            workspace_id: None,
            endpoint_id: "e1".into(),
            message_id: "m".into(),
            event_type: "test".into(),
            body: "{}".into(),
            saved_search_id: None,
        };
        assert_eq!(hook.workspace(), crate::ids::WorkspaceId::from("u2"));
    }
}
