//! TEMPORARY STUB of the guarded outbound client (owned by the enrich-lib branch, which
//! replaces this file when merged). Only the signatures the pipeline uses are here.

/// Which hosts are exempt from the address refusal.
#[derive(Debug, Clone, Default)]
pub struct OutboundPolicy {
    /// Exempt `host:port` pairs.
    pub allowed_hosts: Vec<String>,
}

impl OutboundPolicy {
    /// A policy exempting `allowed_hosts`.
    pub fn new(allowed_hosts: Vec<String>) -> Self {
        Self { allowed_hosts }
    }
}

/// Caps on one fetch.
#[derive(Debug, Clone, Default)]
pub struct FetchLimits {
    _private: (),
}

/// The guarded client.
#[derive(Debug, Clone)]
pub struct GuardedClient {
    _policy: OutboundPolicy,
}

impl GuardedClient {
    /// A client under `policy` and `limits`.
    pub fn new(policy: OutboundPolicy, _limits: FetchLimits) -> Self {
        Self { _policy: policy }
    }
}
