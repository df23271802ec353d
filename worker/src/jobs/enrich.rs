//! `EnrichJobV1`: read one lead's website and publish what it publishes (emails, social
//! profiles, contact page) as a `lead_enriched` event on its search's stream.
//!
//! Safe to retry: reading a site twice publishes the same event twice, and the API relay
//! forwards one `lead_enriched` per place. A site that cannot be read (down, refused,
//! disallowed by robots.txt, too slow, or taken after its search stopped waiting) still
//! gets its event, `not_read` with the reason, so the search's `complete` need not wait
//! for it and the lead says why it has no contacts.
//!
//! Nothing of the site is logged: its address and contents are lead data.

use std::sync::Arc;

use leadgen_core::{
    enrich::{Contacts, NotRead},
    jobs::EnrichJobV1,
    lead::{LeadEnriched, SearchEvent},
};
use tracing::Instrument;

use super::{Job, JobError};
use crate::WorkerDeps;

/// The enrichment job kind (see `registry`).
pub struct EnrichJob;

impl Job for EnrichJob {
    type Payload = EnrichJobV1;

    async fn run(payload: EnrichJobV1, deps: Arc<WorkerDeps>) -> Result<(), JobError> {
        let span = tracing::info_span!("enrich", search_id = %payload.search_id);
        handle(payload, &deps).instrument(span).await
    }

    /// Reading a site is light and mostly waiting, and a search queues up to 60 at
    /// once: four per search slot (the crawler's own global limit still holds).
    fn concurrency(settings: &crate::WorkerSettings) -> usize {
        settings.concurrency.saturating_mul(4)
    }
}

async fn handle(job: EnrichJobV1, deps: &WorkerDeps) -> Result<(), JobError> {
    if deps.bus.is_cancelled(&job.search_id).await.unwrap_or(false) {
        return Ok(());
    }
    let contacts = if leadgen_core::time::now_unix_ms() > job.not_after_ms {
        // Its search has given up waiting: say so rather than read it for nobody.
        tracing::debug!("enrichment taken after its search stopped waiting; not read");
        Contacts::not_read(NotRead::NotReachedInTime)
    } else {
        match deps.crawler.read_site(&job.website).await {
            Ok(contacts) => contacts,
            Err(e) => {
                // The crawler's errors name the kind of failure, never the site.
                tracing::debug!(error = %e, "site unreadable; its lead says why");
                Contacts::not_read(NotRead::from(&e))
            }
        }
    };
    let event = SearchEvent::LeadEnriched(LeadEnriched {
        place_id: job.place_id,
        contacts,
    });
    deps.bus
        .publish(&job.search_id, &event)
        .await
        .map_err(|e| JobError::Retry(format!("event bus: {e}")))?;
    Ok(())
}
