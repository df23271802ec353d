//! The search job's side of enrichment: queue each sent lead's website as an
//! `EnrichJobV1` (read by any worker of the fleet), then, once the pagination is done,
//! gather the `lead_enriched` events those jobs published so `complete` carries the
//! enriched leads.
//!
//! Sites are queued fairly by host ([`HostTurns`]): at most
//! [`SITES_PER_HOST_IN_QUEUE`] of one host are in the queue at a time for a search, and
//! the next waits for one of them to answer. A chain's hundred branches share one
//! website host, which reads only a few pages at a time; queued all at once they would
//! fill the fleet's enrichment slots ahead of every other host's site, and the last rows
//! would starve (#26).
//!
//! The wait ends when every site has answered, or when no site has answered for
//! [`wait_after_last`] since the last one was queued or answered (results still flowing
//! keep it going, so a long search's last sites are read too, #26), and at the latest
//! [`MAX_WAIT`] after it began. A lead whose site did not answer by then says
//! `not_read` (`not_reached_in_time`); a lead without a website says `no_website`.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    time::Duration,
};

use leadgen_core::{
    bus::EventBus,
    enrich::{Contacts, NotRead, ReadStatus},
    ids::SearchId,
    jobs::EnrichJobV1,
    lead::{BusinessFound, Lead, LeadEnriched, SearchEvent},
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

/// Sites of one host a search keeps in the queue at once: the crawler's own per-host
/// limit (`CrawlLimits::per_host_concurrency`), so a host's turn is never idle and never
/// holds more of the fleet's slots than it can use.
pub const SITES_PER_HOST_IN_QUEUE: usize = 4;

/// One lead's website, waiting for its host's turn or queued.
#[derive(Debug, Clone)]
struct Site {
    place_id: String,
    website: String,
}

/// Per host of one search: how many sites are queued and which wait for a turn.
#[derive(Debug, Default)]
struct HostTurns {
    per_host: usize,
    queued: HashMap<String, usize>,
    waiting: HashMap<String, VecDeque<Site>>,
    /// The host of each site offered, by place id.
    host_of: HashMap<String, String>,
}

impl HostTurns {
    fn new(per_host: usize) -> Self {
        Self {
            per_host: per_host.max(1),
            ..Self::default()
        }
    }

    /// The crawler's per-host key; a site that is not a URL is its own host (the crawler
    /// refuses it at once).
    fn host(website: &str) -> String {
        url::Url::parse(website).map_or_else(|_| website.to_owned(), |url| leadgen_core::enrich::host_key(&url))
    }

    /// Takes `site` in: returns it when its host has a turn free (now counted as
    /// queued), or keeps it waiting.
    fn offer(&mut self, site: Site) -> Option<Site> {
        let host = Self::host(&site.website);
        self.host_of.insert(site.place_id.clone(), host.clone());
        let queued = self.queued.entry(host.clone()).or_default();
        if *queued < self.per_host {
            *queued += 1;
            Some(site)
        } else {
            self.waiting.entry(host).or_default().push_back(site);
            None
        }
    }

    /// `place_id` answered (or could not be queued): a site still waiting leaves the
    /// line, a queued one gives its host's turn to the next waiting, which is returned.
    fn answered(&mut self, place_id: &str) -> Option<Site> {
        let host = self.host_of.remove(place_id)?;
        let line = self.waiting.entry(host.clone()).or_default();
        if let Some(at) = line.iter().position(|site| site.place_id == place_id) {
            line.remove(at);
            return None;
        }
        match line.pop_front() {
            Some(next) => Some(next),
            None => {
                if let Some(queued) = self.queued.get_mut(&host) {
                    *queued = queued.saturating_sub(1);
                }
                None
            }
        }
    }
}

/// Queues the sites of one search's leads, fairly by host, and gathers their results.
pub struct Dispatch<'a> {
    queue: &'a JobQueue<EnrichJobV1>,
    bus: &'a EventBus,
    search_id: &'a SearchId,
    /// Place ids whose site this run took in (queued or waiting for its host's turn).
    offered: HashSet<String>,
    /// Place ids whose site this run queued.
    queued: HashSet<String>,
    turns: HostTurns,
    /// Results read so far, by place id.
    found: HashMap<String, Contacts>,
    /// The last event number read.
    after: u64,
    /// When the last site was queued.
    last: Option<Instant>,
    /// How long without a new result the wait ends ([`wait_after_last`]; shorter in tests).
    wait: Duration,
    /// The longest wait ([`MAX_WAIT`]; shorter in tests).
    max_wait: Duration,
}

impl<'a> Dispatch<'a> {
    /// Queues onto `queue`; reads `search_id`'s results on `bus`.
    pub fn new(queue: &'a JobQueue<EnrichJobV1>, bus: &'a EventBus, search_id: &'a SearchId) -> Self {
        Self {
            queue,
            bus,
            search_id,
            offered: HashSet::new(),
            queued: HashSet::new(),
            turns: HostTurns::new(SITES_PER_HOST_IN_QUEUE),
            found: HashMap::new(),
            after: 0,
            last: None,
            wait: wait_after_last(),
            max_wait: MAX_WAIT,
        }
    }

    /// Queues the website of each lead in `events` (those just published), after
    /// handing the turns of sites that answered meanwhile to their hosts' next.
    pub async fn queue_leads(&mut self, events: &[SearchEvent]) {
        self.read_results().await;
        for event in events {
            if let SearchEvent::BusinessFound(BusinessFound { lead, .. }) = event {
                self.offer(lead).await;
            }
        }
    }

    async fn offer(&mut self, lead: &Lead) {
        let website = lead.website.trim();
        if website.is_empty() || self.offered.contains(&lead.place_id) || self.found.contains_key(&lead.place_id) {
            return;
        }
        self.offered.insert(lead.place_id.clone());
        let site = Site {
            place_id: lead.place_id.clone(),
            website: website.to_owned(),
        };
        if let Some(site) = self.turns.offer(site) {
            self.push(site).await;
        }
    }

    /// Queues `site`; when the queue refuses it, its turn goes to the next site of its host.
    async fn push(&mut self, mut site: Site) {
        loop {
            let job = EnrichJobV1 {
                search_id: self.search_id.clone(),
                place_id: site.place_id.clone(),
                website: site.website.clone(),
                not_after_ms: now_unix_ms() + JOB_LIFETIME.as_millis() as i64,
            };
            match self.queue.push(job).await {
                Ok(()) => {
                    self.queued.insert(site.place_id);
                    self.last = Some(Instant::now());
                    return;
                }
                Err(e) => {
                    // The lead goes out without contacts; the site's address is not logged.
                    tracing::warn!(error = %e, "could not queue a site for enrichment");
                    match self.turns.answered(&site.place_id) {
                        Some(next) => site = next,
                        None => return,
                    }
                }
            }
        }
    }

    /// Reads the results published since the last read; each answered site's turn goes
    /// to the next of its host. Returns how many new results came.
    async fn read_results(&mut self) -> usize {
        let answered = read_new(self.bus, self.search_id, &mut self.after, &mut self.found).await;
        for place_id in &answered {
            if let Some(next) = self.turns.answered(place_id) {
                self.push(next).await;
            }
        }
        answered.len()
    }

    /// Waits for the sites of `leads` (see the module's doc) and returns what each
    /// published, by place id. A retried search (`retry`) queues again the sites an
    /// earlier run sent but whose result is not in the event buffer.
    pub async fn collect(mut self, leads: &[Lead], retry: bool) -> HashMap<String, Contacts> {
        self.read_results().await;
        if retry {
            for lead in leads {
                self.offer(lead).await;
            }
        }
        let cap = Instant::now() + self.max_wait;
        let mut idle_deadline = self.last.map_or_else(Instant::now, |last| last + self.wait);
        while !self.offered.iter().all(|id| self.found.contains_key(id)) && Instant::now() < idle_deadline.min(cap) {
            tokio::time::sleep(POLL).await;
            if self.read_results().await > 0 {
                // Sites are still being read: the rest are worth the wait.
                idle_deadline = Instant::now() + self.wait;
            }
        }
        let missing = self.offered.iter().filter(|id| !self.found.contains_key(*id)).count();
        if missing > 0 {
            tracing::info!(missing, "completing without some sites' contacts (not read in time)");
        }
        self.found
    }
}

/// Adds the results read since event number `after` to `found`; returns the place ids
/// that answered for the first time.
async fn read_new(
    bus: &EventBus,
    search_id: &SearchId,
    after: &mut u64,
    found: &mut HashMap<String, Contacts>,
) -> Vec<String> {
    let mut answered = Vec::new();
    match bus.replay(search_id, *after).await {
        Ok(envelopes) => {
            for envelope in envelopes {
                *after = (*after).max(envelope.id);
                if let SearchEvent::LeadEnriched(LeadEnriched { place_id, contacts }) = envelope.event
                    && let std::collections::hash_map::Entry::Vacant(slot) = found.entry(place_id)
                {
                    answered.push(slot.key().clone());
                    slot.insert(contacts);
                }
            }
        }
        Err(e) => tracing::warn!(error = %e, "could not read the search's events"),
    }
    answered
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
        SearchEvent::BusinessFound(BusinessFound {
            name: lead.name.clone(),
            found: 1,
            total: 1,
            lead,
        })
    }

    #[tokio::test]
    async fn sites_are_queued_once_and_their_results_gathered() {
        let (queue, _source) = crate::queue::in_process::<EnrichJobV1>();
        let bus = EventBus::Memory(MemoryBus::new());
        let search: SearchId = "s1".into();
        let leads = vec![
            lead("a", "https://a.example"),
            lead("b", ""),
            lead("c", "https://c.example"),
        ];
        let mut dispatch = Dispatch::new(&queue, &bus, &search);
        let events: Vec<SearchEvent> = leads.iter().cloned().map(found).collect();
        dispatch.queue_leads(&events).await;
        dispatch.queue_leads(&events[..1]).await;
        assert_eq!(queue.depth().await.ok(), Some(2), "one job per lead with a website");

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
                &SearchEvent::LeadEnriched(LeadEnriched {
                    place_id: id.into(),
                    contacts,
                }),
            )
            .await
            .expect("publish");
        }
        let started = Instant::now();
        let got = dispatch.collect(&leads, false).await;
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
        let (queue, _source) = crate::queue::in_process::<EnrichJobV1>();
        let bus = EventBus::Memory(MemoryBus::new());
        let search: SearchId = "s3".into();
        let leads: Vec<Lead> = (0..6)
            .map(|i| lead(&format!("p{i}"), &format!("https://{i}.example")))
            .collect();
        let idle = Duration::from_millis(300);
        let mut dispatch = Dispatch {
            wait: idle,
            max_wait: Duration::from_secs(10),
            ..Dispatch::new(&queue, &bus, &search)
        };
        let events: Vec<SearchEvent> = leads.iter().cloned().map(found).collect();
        dispatch.queue_leads(&events).await;
        // Five sites answer one every 200 ms (a slow backlog, each within the idle
        // limit of the one before); the sixth never does.
        let publisher = {
            let bus = bus.clone();
            let search = search.clone();
            tokio::spawn(async move {
                for i in 0..5 {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    let event = SearchEvent::LeadEnriched(LeadEnriched {
                        place_id: format!("p{i}"),
                        contacts: Contacts::default().read(),
                    });
                    bus.publish(&search, &event).await.expect("publish");
                }
            })
        };
        let started = Instant::now();
        let got = dispatch.collect(&leads, false).await;
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
        let (queue, _source) = crate::queue::in_process::<EnrichJobV1>();
        let bus = EventBus::Memory(MemoryBus::new());
        let search: SearchId = "s2".into();
        let leads = vec![lead("a", "https://a.example")];
        let limit = Duration::from_millis(300);
        let mut dispatch = Dispatch {
            wait: limit,
            ..Dispatch::new(&queue, &bus, &search)
        };
        dispatch.queue_leads(&[found(leads[0].clone())]).await;
        let started = Instant::now();
        let got = dispatch.collect(&leads, false).await;
        assert!(got.is_empty(), "nothing answered");
        let waited = started.elapsed();
        assert!(
            waited >= limit - Duration::from_millis(50) && waited < limit + Duration::from_millis(200),
            "{waited:?}"
        );
    }

    #[tokio::test]
    async fn a_chain_waits_its_hosts_turn_and_another_host_goes_first() {
        let (queue, _source) = crate::queue::in_process::<EnrichJobV1>();
        let bus = EventBus::Memory(MemoryBus::new());
        let search: SearchId = "s4".into();
        // Ten branches of one chain on one host (two spellings of it), then one shop of its own.
        let mut leads: Vec<Lead> = (0..10)
            .map(|i| {
                let host = if i % 2 == 0 {
                    "chain.example"
                } else {
                    "CHAIN.example:443"
                };
                lead(&format!("c{i}"), &format!("https://{host}/branch/{i}"))
            })
            .collect();
        leads.push(lead("solo", "https://solo.example"));
        let mut dispatch = Dispatch {
            wait: Duration::from_millis(300),
            ..Dispatch::new(&queue, &bus, &search)
        };
        let events: Vec<SearchEvent> = leads.iter().cloned().map(found).collect();
        dispatch.queue_leads(&events).await;
        assert_eq!(
            queue.depth().await.ok(),
            Some(SITES_PER_HOST_IN_QUEUE as i64 + 1),
            "the chain's first {SITES_PER_HOST_IN_QUEUE} and the solo shop are queued; the rest wait"
        );
        assert!(
            dispatch.queued.contains("solo"),
            "the other host is not behind the chain"
        );
        assert!(!dispatch.queued.contains("c4"));

        // Each queued site answers in turn, as the fleet would; each answer queues the
        // chain's next branch, until all are read.
        let answered = bus.clone();
        let reader = {
            let search = search.clone();
            tokio::spawn(async move {
                for id in (0..10).map(|i| format!("c{i}")).chain(["solo".to_owned()]) {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    let event = SearchEvent::LeadEnriched(LeadEnriched {
                        place_id: id,
                        contacts: Contacts::default().read(),
                    });
                    answered.publish(&search, &event).await.expect("publish");
                }
            })
        };
        let got = dispatch.collect(&leads, false).await;
        reader.await.expect("reader");
        assert_eq!(got.len(), 11, "every site read, the chain's last branch too");
        assert_eq!(queue.depth().await.ok(), Some(11), "each site queued once");
    }

    #[test]
    fn a_site_that_answers_before_its_turn_leaves_the_line() {
        let mut turns = HostTurns::new(1);
        let site = |id: &str| Site {
            place_id: id.into(),
            website: "https://one.example/".into(),
        };
        assert!(turns.offer(site("a")).is_some(), "a takes the host's turn");
        assert!(turns.offer(site("b")).is_none(), "b waits");
        assert!(turns.offer(site("c")).is_none(), "c waits");
        assert!(
            turns.answered("b").is_none(),
            "b answered (a retried run read it): it leaves the line"
        );
        assert_eq!(
            turns.answered("a").map(|s| s.place_id),
            Some("c".to_owned()),
            "a's turn goes to c"
        );
        assert!(turns.answered("c").is_none(), "nobody left");
        assert!(turns.offer(site("d")).is_some(), "the host's turn is free again");
    }
}
