//! The search job's side of enrichment: queue each sent lead's website as an
//! `EnrichJobV1` (read by any worker of the fleet), then, once the pagination is done,
//! gather the `lead_enriched` events those jobs published so `complete` carries the
//! enriched leads.
//!
//! The wait is bounded: it ends when every queued site has answered, or
//! [`wait_after_last`] after the last site was queued, whichever comes first; a lead whose
//! site did not answer by then is sent without contacts (an empty set), as are leads
//! without a website.

use std::{
    collections::{HashMap, HashSet},
    time::Duration,
};

use leadgen_core::{
    bus::EventBus,
    enrich::Contacts,
    ids::SearchId,
    jobs::EnrichJobV1,
    lead::{Lead, SearchEvent},
    time::now_unix_ms,
};
use tokio::time::Instant;

use crate::JobQueue;

/// Beyond the crawler's budget for one site (`CrawlLimits::site_budget`), how long
/// `complete` waits for the stragglers after the last site was queued: a margin for the
/// queue, so only a site that waited in a busy queue is given up on.
pub const QUEUE_MARGIN: Duration = Duration::from_millis(1_500);

/// How long after the last site was queued `complete` waits at most: the production
/// crawler's site budget and [`QUEUE_MARGIN`].
pub fn wait_after_last() -> Duration {
    leadgen_core::enrich::CrawlLimits::default().site_budget + QUEUE_MARGIN
}

/// How long a queued site may wait before it is not worth reading: its search has
/// completed without it by then.
const JOB_LIFETIME: Duration = Duration::from_secs(60);

/// How often the wait looks for new results (one replay-buffer read each time).
const POLL: Duration = Duration::from_millis(25);

/// Queues the sites of one search's leads.
pub struct Dispatch<'a> {
    queue: &'a JobQueue<EnrichJobV1>,
    /// Place ids whose site this run queued.
    queued: HashSet<String>,
    /// When the last site was queued.
    last: Option<Instant>,
    /// How long after `last` the wait ends ([`wait_after_last`]; shorter in tests).
    wait: Duration,
}

impl<'a> Dispatch<'a> {
    /// Queues onto `queue`.
    pub fn new(queue: &'a JobQueue<EnrichJobV1>) -> Self {
        Self {
            queue,
            queued: HashSet::new(),
            last: None,
            wait: wait_after_last(),
        }
    }

    /// Queues the website of each lead in `events` (those just published).
    pub async fn queue_leads(&mut self, search_id: &SearchId, events: &[SearchEvent]) {
        for event in events {
            if let SearchEvent::BusinessFound { lead, .. } = event {
                self.queue_site(search_id, lead).await;
            }
        }
    }

    async fn queue_site(&mut self, search_id: &SearchId, lead: &Lead) {
        let website = lead.website.trim();
        if website.is_empty() || self.queued.contains(&lead.place_id) {
            return;
        }
        let job = EnrichJobV1 {
            search_id: search_id.clone(),
            place_id: lead.place_id.clone(),
            website: website.to_owned(),
            not_after_ms: now_unix_ms() + JOB_LIFETIME.as_millis() as i64,
        };
        match self.queue.push(job).await {
            Ok(()) => {
                self.queued.insert(lead.place_id.clone());
                self.last = Some(Instant::now());
            }
            // The lead goes out without contacts; the site's address is not logged.
            Err(e) => tracing::warn!(error = %e, "could not queue a site for enrichment"),
        }
    }

    /// Waits for the sites of `leads` (see the module's doc) and returns what each
    /// published, by place id. A retried search (`retry`) queues again the sites an
    /// earlier run sent but whose result is not in the event buffer.
    pub async fn collect(
        mut self,
        bus: &EventBus,
        search_id: &SearchId,
        leads: &[Lead],
        retry: bool,
    ) -> HashMap<String, Contacts> {
        let mut found = HashMap::new();
        let mut after = 0;
        read_new(bus, search_id, &mut after, &mut found).await;
        if retry {
            for lead in leads {
                if !found.contains_key(&lead.place_id) && !self.queued.contains(&lead.place_id) {
                    self.queue_site(search_id, lead).await;
                }
            }
        }
        let waiting: HashSet<&str> = self.queued.iter().map(String::as_str).collect();
        let deadline = self.last.map_or_else(Instant::now, |last| last + self.wait);
        while !waiting.iter().all(|id| found.contains_key(*id)) && Instant::now() < deadline {
            tokio::time::sleep(POLL).await;
            read_new(bus, search_id, &mut after, &mut found).await;
        }
        let missing = waiting.iter().filter(|id| !found.contains_key(**id)).count();
        if missing > 0 {
            tracing::info!(missing, "completing without some sites' contacts (not read in time)");
        }
        found
    }
}

/// Adds the results read since event number `after` to `found`.
async fn read_new(bus: &EventBus, search_id: &SearchId, after: &mut u64, found: &mut HashMap<String, Contacts>) {
    match bus.replay(search_id, *after).await {
        Ok(envelopes) => {
            for envelope in envelopes {
                *after = (*after).max(envelope.id);
                if let SearchEvent::LeadEnriched { place_id, contacts } = envelope.event {
                    found.entry(place_id).or_insert(contacts);
                }
            }
        }
        Err(e) => tracing::warn!(error = %e, "could not read the search's events"),
    }
}

/// Gives every lead its contacts: what its site published, or an empty set (no website,
/// or no answer in time), so an enriched search's results all carry `contacts`.
pub fn attach(leads: &mut [Lead], mut found: HashMap<String, Contacts>) {
    for lead in leads {
        lead.contacts = Some(found.remove(&lead.place_id).unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use leadgen_core::bus::memory::MemoryBus;

    use super::*;

    fn lead(id: &str, website: &str) -> Lead {
        Lead {
            name: format!("Shop {id}"),
            address: String::new(),
            phone: String::new(),
            website: website.into(),
            place_id: id.into(),
            rating: None,
            review_count: None,
            contacts: None,
            ..Default::default()
        }
    }

    fn found(lead: Lead) -> SearchEvent {
        SearchEvent::BusinessFound {
            name: lead.name.clone(),
            found: 1,
            total: 1,
            lead,
        }
    }

    #[tokio::test]
    async fn sites_are_queued_once_and_their_results_gathered() {
        let (queue, _source) = crate::queue::memory::<EnrichJobV1>();
        let bus = EventBus::Memory(MemoryBus::new());
        let search: SearchId = "s1".into();
        let leads = vec![
            lead("a", "https://a.example"),
            lead("b", ""),
            lead("c", "https://c.example"),
        ];
        let mut dispatch = Dispatch::new(&queue);
        let events: Vec<SearchEvent> = leads.iter().cloned().map(found).collect();
        dispatch.queue_leads(&search, &events).await;
        dispatch.queue_leads(&search, &events[..1]).await;
        assert_eq!(queue.pending_in_process(), Some(2), "one job per lead with a website");

        let contacts = Contacts {
            emails: vec!["hi@a.example".into()],
            ..Contacts::default()
        };
        for id in ["a", "c"] {
            let contacts = if id == "a" {
                contacts.clone()
            } else {
                Contacts::default()
            };
            bus.publish(
                &search,
                &SearchEvent::LeadEnriched {
                    place_id: id.into(),
                    contacts,
                },
            )
            .await
            .expect("publish");
        }
        let started = Instant::now();
        let got = dispatch.collect(&bus, &search, &leads, false).await;
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "no wait once every site answered"
        );
        let mut leads = leads;
        attach(&mut leads, got);
        assert_eq!(leads[0].contacts.as_ref(), Some(&contacts));
        assert_eq!(
            leads[1].contacts,
            Some(Contacts::default()),
            "no website: empty contacts"
        );
        assert_eq!(leads[2].contacts, Some(Contacts::default()));
    }

    #[tokio::test]
    async fn the_wait_ends_after_the_last_site_was_queued_plus_the_limit() {
        let (queue, _source) = crate::queue::memory::<EnrichJobV1>();
        let bus = EventBus::Memory(MemoryBus::new());
        let search: SearchId = "s2".into();
        let leads = vec![lead("a", "https://a.example")];
        let limit = Duration::from_millis(300);
        let mut dispatch = Dispatch {
            wait: limit,
            ..Dispatch::new(&queue)
        };
        dispatch.queue_leads(&search, &[found(leads[0].clone())]).await;
        let started = Instant::now();
        let got = dispatch.collect(&bus, &search, &leads, false).await;
        assert!(got.is_empty(), "nothing answered");
        let waited = started.elapsed();
        assert!(
            waited >= limit - Duration::from_millis(50) && waited < limit + Duration::from_millis(200),
            "{waited:?}"
        );
    }
}
