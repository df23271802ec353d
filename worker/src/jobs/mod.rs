//! Job handlers, one file per job.

pub mod search;
