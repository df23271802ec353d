//! Operations: metrics from both processes, graceful stop, rolling worker restarts, and
//! the worker fleet run as Kubernetes runs it (one PID and hostname namespace per pod).

mod faults;
mod metrics;
mod pods;
mod prune;
mod redis_hygiene;
mod rolling_restart;
mod shutdown;
pub mod worker_process;
