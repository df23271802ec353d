//! Idempotent requests as Stripe documents them: the first answer to a POST with an
//! `Idempotency-Key` is saved for 24 hours; the same key with the same endpoint and
//! parameters replays it, with other parameters or another endpoint it is an
//! `idempotency_error`. Like Stripe, only answers from an endpoint that ran are saved: a
//! request rejected by validation can be retried with the same key.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use serde_json::{Map, Value};

use super::errors::ApiError;

/// How long Stripe keeps an idempotency key.
pub const IDEMPOTENCY_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// A saved first answer.
#[derive(Debug, Clone)]
pub(crate) struct Saved {
    pub path: String,
    pub params: Map<String, Value>,
    pub status: u16,
    pub body: Value,
    /// The `Request-Id` of the first request, sent back as `Original-Request`.
    pub request_id: String,
    at: Instant,
}

/// What to do with a request carrying a key.
#[derive(Debug)]
pub(crate) enum Lookup {
    /// First use (or expired): run the endpoint, then [`Idempotency::save`].
    Fresh,
    /// Same request again: send the saved answer.
    Replay(Saved),
    /// Same key, different request.
    Conflict(ApiError),
}

/// Saved answers by key.
#[derive(Debug, Default)]
pub(crate) struct Idempotency {
    saved: HashMap<String, Saved>,
}

impl Idempotency {
    pub fn check(&mut self, key: &str, path: &str, params: &Map<String, Value>) -> Lookup {
        let now = Instant::now();
        self.saved.retain(|_, s| now.duration_since(s.at) < IDEMPOTENCY_TTL);
        match self.saved.get(key) {
            None => Lookup::Fresh,
            Some(saved) if saved.path != path => {
                Lookup::Conflict(ApiError::idempotency_other_endpoint(key, &saved.path, path))
            }
            Some(saved) if &saved.params != params => Lookup::Conflict(ApiError::idempotency_other_params(key)),
            Some(saved) => Lookup::Replay(saved.clone()),
        }
    }

    pub fn save(
        &mut self,
        key: &str,
        path: &str,
        params: Map<String, Value>,
        status: u16,
        body: Value,
        request_id: &str,
    ) {
        self.saved.insert(
            key.to_owned(),
            Saved {
                path: path.to_owned(),
                params,
                status,
                body,
                request_id: request_id.to_owned(),
                at: Instant::now(),
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn params(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn replays_same_request_and_rejects_others() {
        let mut idem = Idempotency::default();
        let p = params(json!({"email": "a@x"}));
        assert!(matches!(idem.check("k", "/v1/customers", &p), Lookup::Fresh));
        idem.save("k", "/v1/customers", p.clone(), 200, json!({"id": "cus_1"}), "req_1");
        match idem.check("k", "/v1/customers", &p) {
            Lookup::Replay(saved) => {
                assert_eq!(saved.body["id"], "cus_1");
                assert_eq!(saved.request_id, "req_1");
            }
            other => panic!("expected replay, got {other:?}"),
        }
        match idem.check("k", "/v1/customers", &params(json!({"email": "b@x"}))) {
            Lookup::Conflict(e) => assert_eq!(e.kind, "idempotency_error"),
            other => panic!("expected conflict, got {other:?}"),
        }
        match idem.check("k", "/v1/checkout/sessions", &p) {
            Lookup::Conflict(e) => assert!(e.message.contains("same endpoint")),
            other => panic!("expected conflict, got {other:?}"),
        }
    }
}
