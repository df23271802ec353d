//! The search job's side of enrichment: queue each sent lead's website as an
//! `EnrichJobV1` (read by any worker of the fleet), then, once the pagination is done,
//! gather the `lead_enriched` events those jobs published so `complete` carries the
//! enriched leads.
//!
//! The wait ends when every queued site has answered, or when no site has answered for
//! [`wait_after_last`] since the last one was queued or answered (results still flowing
//! keep it going, so a long search's last sites are read too, #26), and at the latest
//! [`MAX_WAIT`] after it began. A lead whose site did not answer by then says
//! `not_read` (`not_reached_in_time`); a lead without a website says `no_website`.

use std::{
    collections::{HashMap, HashSet},
    time::Duration,
};

use leadgen_core::{
    bus::EventBus,
    enrich::{Contacts, NotRead, ReadStatus},
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

/// The longest `complete` waits for a search's sites, however fast they come: a bound
/// on how long a search holds its worker slot after its last page.
pub const MAX_WAIT: Duration = Duration::from_secs(600);

/// How long a queued site may wait before it is not worth reading: its search has
/// completed without it by then (the longest wait, and a margin).
const JOB_LIFETIME: Duration = Duration::from_secs(660);

/// How often the wait looks for new results (one replay-buffer read each time).
const POLL: Duration = Duration::from_millis(25);

/// Queues the sites of one search's leads.
pub struct Dispatch<'a> {
    queue: &'a JobQueue<EnrichJobV1>,
    /// Place ids whose site this run queued.
    queued: HashSet<String>,
    /// When the last site was queued.
    last: Option<Instant>,
    /// How long without a new result the wait ends ([`wait_after_last`]; shorter in tests).
    wait: Duration,
    /// The longest wait ([`MAX_WAIT`]; shorter in tests).
    max_wait: Duration,
}

impl<'a> Dispatch<'a> {
    /// Queues onto `queue`.
    pub fn new(queue: &'a JobQueue<EnrichJobV1>) -> Self {
        Self {
            queue,
            queued: HashSet::new(),
            last: None,
            wait: wait_after_last(),
            max_wait: MAX_WAIT,
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
        let cap = Instant::now() + self.max_wait;
        let mut idle_deadline = self.last.map_or_else(Instant::now, |last| last + self.wait);
        while !waiting.iter().all(|id| found.contains_key(*id)) && Instant::now() < idle_deadline.min(cap) {
            tokio::time::sleep(POLL).await;
            let before = found.len();
            read_new(bus, search_id, &mut after, &mut found).await;
            if found.len() > before {
                // Sites are still being read: the rest are worth the wait.
                idle_deadline = Instant::now() + self.wait;
            }
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

/// Gives every lead its contacts: what its site published (`found` or `none`), why it
/// was not read, or `no_website`, so an enriched search's results all say how it went.
pub fn attach(leads: &mut [Lead], mut found: HashMap<String, Contacts>) {
    for lead in leads {
        let contacts = match found.remove(&lead.place_id) {
            Some(contacts) => contacts,
            None if lead.website.trim().is_empty() => Contacts::no_website(),
            None => Contacts::not_read(NotRead::NotReachedInTime),
        };
        leadgen_core::telemetry::metrics::metrics().enrichment_lead(match contacts.status {
            ReadStatus::Found => "found",
            ReadStatus::None => "none",
            ReadStatus::NotRead => "not_read",
            ReadStatus::NoWebsite => "no_website",
        });
        lead.contacts = Some(contacts);
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
        }
        .read();
        for id in ["a", "c"] {
            let contacts = if id == "a" {
                contacts.clone()
            } else {
                Contacts::default().read()
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
        let counted = |outcome: &str| {
            leadgen_core::telemetry::metrics::metrics()
                .enrichment_leads
                .get_or_create(&leadgen_core::telemetry::metrics::OutcomeLabels {
                    outcome: outcome.to_owned(),
                })
                .get()
        };
        let (found_before, no_site_before) = (counted("found"), counted("no_website"));
        let mut leads = leads;
        attach(&mut leads, got);
        // Other tests in this binary attach too: at least these leads are counted.
        assert!(counted("found") > found_before && counted("no_website") > no_site_before);
        assert_eq!(leads[0].contacts.as_ref(), Some(&contacts));
        assert_eq!(leads[0].contacts.as_ref().map(|c| c.status), Some(ReadStatus::Found));
        assert_eq!(
            leads[1].contacts.as_ref().map(|c| c.status),
            Some(ReadStatus::NoWebsite),
            "no website: says so"
        );
        assert_eq!(leads[2].contacts.as_ref().map(|c| c.status), Some(ReadStatus::None));
    }

    #[tokio::test]
    async fn results_still_coming_keep_the_wait_going_and_the_rest_say_why() {
        let (queue, _source) = crate::queue::memory::<EnrichJobV1>();
        let bus = EventBus::Memory(MemoryBus::new());
        let search: SearchId = "s3".into();
        let leads: Vec<Lead> = (0..6)
            .map(|i| lead(&format!("p{i}"), &format!("https://{i}.example")))
            .collect();
        let idle = Duration::from_millis(300);
        let mut dispatch = Dispatch {
            wait: idle,
            max_wait: Duration::from_secs(10),
            ..Dispatch::new(&queue)
        };
        let events: Vec<SearchEvent> = leads.iter().cloned().map(found).collect();
        dispatch.queue_leads(&search, &events).await;
        // Five sites answer one every 200 ms (a slow backlog, each within the idle
        // limit of the one before); the sixth never does.
        let publisher = {
            let bus = bus.clone();
            let search = search.clone();
            tokio::spawn(async move {
                for i in 0..5 {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    let event = SearchEvent::LeadEnriched {
                        place_id: format!("p{i}"),
                        contacts: Contacts::default().read(),
                    };
                    bus.publish(&search, &event).await.expect("publish");
                }
            })
        };
        let started = Instant::now();
        let got = dispatch.collect(&bus, &search, &leads, false).await;
        publisher.await.expect("publisher");
        assert_eq!(
            got.len(),
            5,
            "every site read while results kept coming, {:?} in",
            started.elapsed()
        );
        assert!(
            started.elapsed() > Duration::from_millis(1000),
            "it waited past the first idle limit: {:?}",
            started.elapsed()
        );
        let mut leads = leads;
        attach(&mut leads, got);
        assert_eq!(
            leads[5].contacts.as_ref().map(|c| (c.status, c.reason)),
            Some((ReadStatus::NotRead, Some(NotRead::NotReachedInTime))),
            "the one never read says why"
        );
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
