//! Full coverage of an area: the pure planner (no I/O) that decides which rectangles to
//! probe and which to fetch, so that every match is found for close to the least Google
//! bills.
//!
//! Google's Text Search answers at most 60 places a query (3 pages of 20). The planner
//! probes rectangles with the free IDs-only field mask; a rectangle whose probe fills the
//! cap may hold more, so it is split and its parts probed. A rectangle under the
//! cap is a leaf: the probe listed every match in it. Leads are then fetched with the
//! billable lead mask, and the planner groups neighbouring leaves into one rectangle where
//! their matches fit in the cap, because each fetch costs `ceil(n / 20)` requests and many
//! small leaves round up badly. The floor is `ceil(N / 20)` for N matches.
//!
//! How: a saturated region is split into a grid of near-square cells sized so each is
//! expected to hold about `CELL_TARGET` places (one page to probe). Its expected count comes
//! from its 60 listed places used as a sample: Google ranks places the same way whatever the
//! rectangle, so the cells under the cap say how many places each sampled one stands for,
//! and a saturated cell holding `k` of the sample is sized for `k` times that. Once a region
//! is fully probed, its leaves are grouped into fetches by a dynamic programme over
//! rectangles cut straight across along leaf edges (fewest pages, then fewest fetches);
//! regions with more than `FLAT_LIMIT` distinct leaf edges group their parts separately.
//! Split sizes are decided only when every sibling has answered, so the plan does not
//! depend on the order answers are recorded in (only the order of the ids and fetches
//! does).
//!
//! Repairs: the grouping may also plan a *chain*, slabs cut straight across a rectangle
//! (two or more, each under the cap), reckoned at the pages of their total plus a small
//! price each. The chain is then settled edge by edge: each edge is moved by a strip,
//! whose depth is found by probing strips (interpolating on their counts, a page each,
//! in places expected from the counts of the leaves the strip crosses rather than in depth),
//! so that the slab before it fills its pages; a slab that shed a strip holds what it held
//! less what the strip's probe listed (both lists are complete: the counts add up, so it
//! is not probed again). Every fetch is a union of probed rectangles, or such a union less
//! a probed strip. Measured on the synthetic worlds of the tests: 1.03-1.125x the floor
//! (the product's ceiling is 1.143x: $2.00 per 1,000 leads), for 0.10-0.15 probe requests a
//! place (the earlier strip-carving planner: 1.05-1.08x, but 0.45-0.85 probe requests a
//! place, which at a key's 10 requests a second made it three times slower).
//!
//! The runner drives it: `next_probe` → probe (concurrently, under the key's rate gate) →
//! `record`; `fetch_plan` grows as regions are grouped. Probes go depth first (by their
//! place in the tree), so regions are answered through one after the other rather than all
//! at once, and a complete region is grouped and fetched while the rest is probed as soon
//! as its parent is sure to be too large to group as a whole (its cells' edges only grow).
//! A region that may still be grouped as a whole waits for its neighbours (that is what
//! keeps the plan near the floor), so on a metro most fetches still come once most of it
//! is probed. The first leads do not wait: once the area's probe shows more than the cap,
//! [`Planner::early_page`] asks for the area's first page with the lead mask (one billable
//! request; its places are fetched again with their regions, so it costs one request more
//! than the plan, and the runner delivers each place once). `clock` (tests) models the
//! runner on the simulator's metro: the first lead after 4 requests (1.2 s at 10 a second
//! and 300 ms a request), where it came after 177 (19.5 s) before.
//! `full.rs` runs it for full-coverage searches.
//!
//! A finished plan is remembered (`memory`, issue #30 item 2): its fetches' rectangles and
//! how many places each listed, and the rectangles no fetch covers. A later search of the
//! same area and query runs from it ([`Plans::from_memory`]): the remembered rectangles
//! are fetched at once (the first lead after one request), the empty ones and the halves
//! of the full ones are probed, and a rectangle that now answers at the cap is planned
//! afresh, so recall does not depend on the world standing still. `clock` measures the
//! repeat at 79 lead pages and 12 probe requests for the dentists (9.6 s, where the first
//! search takes 29.7 s).
//!
//! Layout: `geometry` (points and rectangles), `probe` (what a probe answers and what a
//! fetch costs), the planner's `state`, its face (`planner`: probes, answers and what is
//! found), its splitting rules (`split`), the grouping of complete regions into fetches
//! (`grouping`, over `flat`'s dynamic programme), the repair of chains (`repair`), and
//! what is remembered and a search from it (`memory`, which drives planners as [`Plans`]).
//! Imports form no loop: `state` uses only `geometry` and `probe`, and the rules import the
//! state and `flat`, never the face (they call each other's methods on the planner).

#[cfg(test)]
mod clock;
mod flat;
mod geometry;
mod grouping;
mod memory;
mod planner;
mod probe;
mod repair;
mod split;
mod state;
#[cfg(test)]
mod tests;

pub use geometry::{LatLng, MIN_SIDE, Rect};
pub use memory::{Plans, Remembered, RememberedFetch, Tile};
pub use probe::{CAP, Fetch, PAGE, Probe, ProbeId, ProbeQueue};
pub use state::Planner;
