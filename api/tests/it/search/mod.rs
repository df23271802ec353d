//! The search pipeline end to end: API -> queue -> worker -> Places simulator -> bus ->
//! SSE, in embedded mode (SQLite, in-process queue and bus) and distributed mode
//! (Postgres, Redis queue and bus, workers as separate tasks with their own connections).

mod completeness;
mod coverage;
mod delivery;
mod enrich;
pub mod env;
mod errors;
mod export;
mod fleet;
mod full;
mod history;
mod locate;
mod memory;
mod monitor_delivery;
pub mod no_lead_at_rest;
mod plan_memory;
mod polygon;
mod postal;
mod spend;
mod stream;
