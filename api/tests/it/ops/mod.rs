//! Operations: metrics from both processes, graceful stop, rolling worker restarts.

mod metrics;
mod rolling_restart;
mod shutdown;
