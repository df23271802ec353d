//! Test peers and helpers for Leadgen: a fresh database per test, and fakes that speak
//! vendors' documented wire formats (Google Places API (New), Google OAuth/Sheets/Drive, Stripe).
//!
//! This crate deliberately does not depend on `leadgen-core`: it stands in for the outside
//! world, so it must not share the code it checks.

pub mod db;
pub mod fake_web;
pub mod google_sim;
pub mod places_sim;
pub mod sim;
pub mod smtp;
pub mod stripe_sim;
