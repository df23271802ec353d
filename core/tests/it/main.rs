//! Integration tests of `leadgen-core` against real databases. Every test that touches the
//! store runs twice, on SQLite and on Postgres, each on a fresh database.

mod aggregate;
mod area_plans;
mod backends;
mod bus;
mod caps;
mod doc_links;
mod estimate_probes;
mod estimate_time;
mod exclude;
mod import_loops;
mod keys;
mod located_areas;
mod place_memory;
mod places;
mod plan_runs;
mod resumed_meter;
mod rotation;
mod runner_doubles;
mod saved_searches;
mod store;
mod usage;
mod workspaces;
