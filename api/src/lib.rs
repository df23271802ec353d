//! Leadgen's HTTP API: sign-in, users' keys, searches, and the web app, on poem and
//! poem-openapi. `main.rs` is the command line around it.

pub mod app;
pub mod auth;
pub mod billing;
pub mod body_limit;
pub mod commands;
pub mod compression;
pub mod error;
pub mod method_not_allowed;
pub mod openapi_contract;
pub mod openapi_document;
pub mod openapi_examples;
pub mod openapi_readers;
pub mod openapi_rules;
pub mod openapi_workspaces;
pub mod payload_errors;
pub mod probing_after_estimates;
pub mod rate_limits;
pub mod relay;
pub mod routes;
pub mod security_headers;
pub mod server;
pub mod sse;
pub mod state;
pub mod stream_slots;
pub mod telemetry;
pub mod text;
pub mod web;
