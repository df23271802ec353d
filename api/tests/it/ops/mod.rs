//! Operations: metrics from both processes, graceful stop, an API process stopping under
//! its clients' searches, rolling worker restarts, an upgrade from the previous release
//! with searches in flight, the `helm test` queue check, and the worker fleet run as
//! Kubernetes runs it (one PID and hostname namespace per pod).

mod api_roll;
mod faults;
mod metrics;
mod pods;
mod prune;
mod queue_check;
mod redis_hygiene;
mod rolling_restart;
mod scheduler;
mod shutdown;
mod upgrade;
pub mod worker_process;
