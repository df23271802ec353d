//! A simulator of Google Places API (New) Text Search, speaking Google's documented wire
//! format over a deterministic synthetic world.
//!
//! - `POST /v1/places:searchText` with the `X-Goog-Api-Key` and `X-Goog-FieldMask`
//!   headers (or the `key` and `fields` query parameters); Google's error envelope
//!   (`{"error": {code, message, status, details}}`) with `ErrorInfo`, `RetryInfo` and
//!   `BadRequest` details.
//! - Only the masked fields come back; unknown mask paths get 400. A search without
//!   results answers `{}`.
//! - Pages of up to 20 (`pageSize`), 60 places at most, opaque `nextPageToken`s bound to
//!   the request that produced them.
//! - `includedType` must be a Table A type ([`is_table_a`]); `locationRestriction`
//!   (rectangle) filters, `locationBias` (rectangle or circle) ranks.
//! - A per-key requests-per-minute quota answers 429 `RESOURCE_EXHAUSTED`.
//! - `POST /v1:computeInsights`: Google's Places Aggregate API over the same world
//!   (`insights.rs`): counts and place ids in a circle, a region or a polygon, by type,
//!   operating status and rating, with the same key checks; billed as "Places Aggregate".
//! - Each 200 is counted under the SKU Google would bill ([`Sku`]); read the counts with
//!   [`PlacesSim::stats`] or `GET /_sim/stats`.
//!
//! Keys: any well-formed key (`AIza` + at least 31 more of `[A-Za-z0-9_-]`) is accepted.
//! A key containing a marker triggers a behaviour: the error markers of [`KeyFault`]
//! (`INVALIDKEY`, `SERVICEDISABLED`, `BILLINGDISABLED`, `QUOTAZERO`, `BLOCKED`), and
//! [`FLAKY_MARKER`] (first try of each body answers 503) and [`SLOW_MARKER`] (answers
//! after the slow delay).
//!
//! The world: [`cities()`] (15 US cities with viewports and ZIP codes) each hold 25 to
//! 120 businesses of every catalogue type ([`catalogue::TYPES`]), generated lazily from
//! the seed, except in the dense metro ([`METRO_CITY`], Houston), where `dentist` holds
//! 1,500 and `restaurant` 3,000 ([`DEFAULT_METRO_DENSITY`]), mostly in clusters. A text
//! query is read as "<what> in <location>" (a city, "City, ST", or a ZIP code); a query
//! naming only a location answers that city or ZIP code as a place ([`AreaPlace`]).
//! [`World`] tells a test what any query returns, and [`World::truth`] (or
//! `GET /_sim/truth`) every business of a type in a rectangle, uncapped.

pub mod catalogue;
mod cities;
mod config;
mod errors;
mod faults;
mod geo;
mod insights;
mod locate;
mod mask;
mod metro;
mod names;
mod pagination;
mod place_types;
mod query;
mod request;
mod rng;
mod server;
mod sku;
mod stats;
mod world;

pub use cities::{City, cities};
pub use config::{DEFAULT_RPM_QUOTA, DEFAULT_SEED, DEFAULT_SLOW_DELAY, PlacesSimBuilder, SimConfig};
pub use errors::KeyFault;
pub use faults::{FLAKY_MARKER, SLOW_MARKER};
pub use geo::{Area, Circle, LatLng, Viewport};
pub use insights::MAX_PLACE_INSIGHTS;
pub use locate::AreaPlace;
pub use mask::apply_field_mask;
pub use metro::{DEFAULT_METRO_DENSITY, METRO_CITY, MetroDensity};
pub use place_types::{TABLE_A, is_table_a};
pub use request::MAX_PAGE_SIZE;
pub use server::PlacesSim;
pub use sku::{Sku, Usd, mask_sku, place_field_sku};
pub use stats::{SimStats, max_in_window};
pub use world::{MAX_RESULTS, Place, TextSearch, World};
