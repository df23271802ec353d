//! A simulator of Google Places API (New) Text Search, speaking Google's documented wire
//! format: `POST /v1/places:searchText` with `X-Goog-Api-Key` and `X-Goog-FieldMask`
//! headers, Google's error envelope (`{"error": {code, message, status, details}}`) and
//! `ErrorInfo` reasons.
//!
//! Keys: any well-formed key (`AIza` + at least 31 more of `[A-Za-z0-9_-]`) is accepted;
//! fault keys contain a marker (documented on [`KeyFault`]) to trigger Google's errors.

mod errors;
mod server;

pub use errors::KeyFault;
pub use server::{PlacesSim, SimStats};
