//! Integration tests of the Places simulator, over real HTTP as a client sees it.

mod billing;
mod binary;
mod details;
mod faults;
mod http;
mod insights;
mod locate;
mod metro;
mod requests;
mod search;
mod truth;

use std::net::SocketAddr;

use leadgen_testkit::places_sim::PlacesSim;

/// Any free port on loopback.
fn any_port() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

/// A simulator with default settings.
async fn sim() -> PlacesSim {
    PlacesSim::start(any_port()).await.expect("sim starts")
}
