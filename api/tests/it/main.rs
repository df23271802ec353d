//! Integration tests of the HTTP API, in process (`poem::test::TestClient`) against real
//! databases (each case on SQLite and on Postgres), the Places simulator, and a real OIDC
//! provider from npm.

mod billing;
mod contract;
mod edges;
mod health;
mod invitations;
mod isolation;
mod keys;
mod oidc;
mod ops;
mod place_memory;
mod plain_errors;
mod rate_limits;
mod rotate_key;
mod saved_searches;
mod search;
mod sessions;
mod sheets;
mod site;
mod spend;
mod support;
mod tokens;
mod web;
mod webhooks;
mod workspaces;
