//! The store: users, workspaces, encrypted secrets, sessions and pending sign-ins, on Postgres
//! (distributed mode) or SQLite (embedded mode).
//!
//! One implementation serves both through sqlx's `Any` driver: every statement is written
//! once in the SQL both dialects share (`$n` parameters, `ON CONFLICT`, `RETURNING`),
//! with integers for flags and Unix seconds for times. Migrations differ per backend
//! (`migrations/postgres`, `migrations/sqlite`). Every query about a tenant's data takes
//! its workspace's id (a person's own rows, their id): there is no unscoped finder (rotation's listing is the one
//! operator-only exception, named as such).

mod area_plans;
mod areas;
mod audit;
mod billing;
mod delivery;
mod handle;
mod history;
mod invitations;
mod login_attempts;
mod place_memory;
mod saved_searches;
mod secrets;
mod sessions;
mod sheets;
mod spend;
mod tokens;
mod usage;
mod users;
mod webhooks;
mod workspaces;

pub use area_plans::WorkspacePlans;
pub use audit::AuditPage;
pub use billing::EventOutcome;
pub use handle::{Backend, PoolSize, Store};
pub use history::{HistoryQuery, SearchOutcomeRecord, SearchSummary};
pub use invitations::Acceptance;
pub use login_attempts::LoginAttempt;
pub use place_memory::PlaceMemoryEntry;
pub use saved_searches::{SavedDeliveryRecord, SavedSearchFields, SavedSearchRecord};
pub use secrets::{SecretKind, SecretOwner, StoredSecret};
pub use sheets::{KnownSheet, SheetOrigin};
pub use spend::LookupKind;
pub use tokens::{TokenGrant, TokenRecord};
pub use usage::{SearchRecord, SearchRun};
pub use webhooks::{DeliveryRecord, EndpointForDelivery, EndpointRecord, NewDelivery};
pub use workspaces::{MemberChange, Removal};
