//! Stand-ins for what a worker gives `search::run` (a rate gate, an allowance, an event
//! sink), shared by the tests that drive the runner against the Places simulator.

use std::net::SocketAddr;

use leadgen_core::{
    lead::{Lead, SearchEvent},
    places::PlacesClient,
    search::{
        Checkpoint, Coverage, EventSink, LeadAllowance, RateGate, RawSearch, SearchCompleteness, SearchStopped,
        ValidSearch,
    },
};
use leadgen_testkit::places_sim::{PlacesSim, PlacesSimBuilder};

/// The Places simulator `builder` describes, on a free loopback port, and a client of it
/// (the rustls provider installed first).
pub async fn simulator(builder: PlacesSimBuilder) -> (PlacesSim, PlacesClient) {
    leadgen_core::install_crypto_provider();
    let sim = builder.start(SocketAddr::from(([127, 0, 0, 1], 0))).await.expect("sim");
    let client = PlacesClient::new(&url::Url::parse(&sim.base_url).expect("url")).expect("client");
    (sim, client)
}

/// A valid search of `business_type` in `location`.
pub fn search(business_type: &str, location: &str, coverage: Coverage) -> ValidSearch {
    ValidSearch::try_from(RawSearch {
        business_type: business_type.into(),
        location: location.into(),
        coverage,
        ..RawSearch::default()
    })
    .expect("valid")
}

/// A rate gate that never waits.
pub struct NoGate;

impl RateGate for NoGate {
    async fn until_ready(&self, _key_id: &str) {}
}

/// An allowance that grants every lead asked for.
pub struct Unlimited;

impl LeadAllowance for Unlimited {
    async fn grant(&self, wanted: u32) -> u32 {
        wanted
    }
}

/// Collects the leads sent, the last checkpoint and the last meter reading; fails its
/// `stop_at`-th emit (the worker dies: that emit's events and checkpoint are not
/// delivered).
pub struct Sink {
    pub sent: Vec<Lead>,
    pub last: Option<Checkpoint>,
    pub meter: Option<SearchCompleteness>,
    stop_at: Option<usize>,
    emits: usize,
}

impl Sink {
    pub fn new(stop_at: Option<usize>) -> Self {
        Self {
            sent: Vec::new(),
            last: None,
            meter: None,
            stop_at,
            emits: 0,
        }
    }
}

impl EventSink for Sink {
    async fn emit(&mut self, events: Vec<SearchEvent>, checkpoint: &Checkpoint) -> Result<(), SearchStopped> {
        self.emits += 1;
        if self.stop_at == Some(self.emits) {
            return Err(SearchStopped("the worker stopped".into()));
        }
        for event in events {
            match event {
                SearchEvent::BusinessFound(found) => self.sent.push(found.lead),
                SearchEvent::Progress(progress) => self.meter = progress.completeness.or(self.meter),
                _ => {}
            }
        }
        self.last = Some(checkpoint.clone());
        Ok(())
    }

    async fn cancelled(&mut self) -> bool {
        false
    }
}
