//! The simulator's HTTP server.

use std::{
    net::SocketAddr,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use poem::{
    EndpointExt, Request, Response, Route, Server, handler,
    http::StatusCode,
    listener::{Acceptor, Listener, TcpListener},
    web::{Data, Json},
};
use serde::Serialize;
use serde_json::{Value, json};

use super::errors::{self, KeyFault};

/// Requests the simulator has answered, for tests and the billing figures.
#[derive(Debug, Default, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SimStats {
    /// Every `searchText` request received.
    pub search_text_requests: u64,
    /// Requests answered with 200 (the ones Google would bill).
    pub billable_requests: u64,
}

#[derive(Default)]
struct Counters {
    search_text: AtomicU64,
    billable: AtomicU64,
}

/// A running simulator.
pub struct PlacesSim {
    /// Base URL to put in `LEADGEN_PLACES_BASE_URL`.
    pub base_url: String,
    counters: Arc<Counters>,
    _task: tokio::task::JoinHandle<()>,
}

impl PlacesSim {
    /// Starts a simulator on `addr` (port 0 picks a free one).
    pub async fn start(addr: SocketAddr) -> std::io::Result<Self> {
        let acceptor = TcpListener::bind(addr).into_acceptor().await?;
        let local = acceptor
            .local_addr()
            .first()
            .and_then(|a| a.as_socket_addr().copied())
            .ok_or_else(|| std::io::Error::other("no local address"))?;
        let counters = Arc::new(Counters::default());
        let app = Route::new()
            .at("/v1/places:searchText", poem::post(search_text))
            .at("/_sim/stats", poem::get(stats))
            .data(counters.clone());
        let task = tokio::spawn(async move {
            let _ = Server::new_with_acceptor(acceptor).run(app).await;
        });
        Ok(Self {
            base_url: format!("http://{local}"),
            counters,
            _task: task,
        })
    }

    /// Counters so far.
    pub fn stats(&self) -> SimStats {
        read_stats(&self.counters)
    }
}

impl Drop for PlacesSim {
    fn drop(&mut self) {
        self._task.abort();
    }
}

fn read_stats(c: &Counters) -> SimStats {
    SimStats {
        search_text_requests: c.search_text.load(Ordering::Relaxed),
        billable_requests: c.billable.load(Ordering::Relaxed),
    }
}

#[handler]
fn stats(counters: Data<&Arc<Counters>>) -> Json<SimStats> {
    Json(read_stats(&counters))
}

fn well_formed_key(key: &str) -> bool {
    key.starts_with("AIza")
        && key.len() >= 35
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[handler]
async fn search_text(req: &Request, body: poem::Body, counters: Data<&Arc<Counters>>) -> Response {
    counters.search_text.fetch_add(1, Ordering::Relaxed);
    let key = req.header("x-goog-api-key").unwrap_or_default().to_owned();
    if key.is_empty() {
        return errors::missing_key();
    }
    if !well_formed_key(&key) {
        return errors::invalid_key();
    }
    if let Some(fault) = KeyFault::of(&key) {
        return fault.response();
    }
    let Some(mask) = req.header("x-goog-fieldmask").filter(|m| !m.trim().is_empty()) else {
        return errors::missing_field_mask();
    };
    let Ok(request) = serde_json::from_slice::<Value>(&body.into_vec().await.unwrap_or_default()) else {
        return errors::invalid_argument("Invalid JSON payload received.");
    };
    let Some(query) = request
        .get("textQuery")
        .and_then(Value::as_str)
        .filter(|q| !q.trim().is_empty())
    else {
        return errors::invalid_argument("Empty text_query.");
    };
    counters.billable.fetch_add(1, Ordering::Relaxed);
    let place = json!({
        "id": format!("ChIJsim{:016x}", fnv(query)),
        "displayName": { "text": format!("{query} (simulated)"), "languageCode": "en" },
        "formattedAddress": "1 Simulated Street, Springfield",
    });
    let masked = apply_field_mask(&json!({ "places": [place] }), mask);
    Response::builder()
        .status(StatusCode::OK)
        .content_type("application/json; charset=UTF-8")
        .body(masked.to_string())
}

/// Keeps only the fields named by a Google field mask (`places.id,places.displayName`;
/// `*` keeps all).
pub fn apply_field_mask(response: &Value, mask: &str) -> Value {
    let paths: Vec<Vec<&str>> = mask.split(',').map(|p| p.trim().split('.').collect()).collect();
    if paths.iter().any(|p| p == &["*"]) {
        return response.clone();
    }
    let mut out = json!({});
    for path in &paths {
        copy_path(response, &mut out, path);
    }
    out
}

fn copy_path(from: &Value, to: &mut Value, path: &[&str]) {
    let Some((head, rest)) = path.split_first() else {
        *to = from.clone();
        return;
    };
    match from {
        Value::Array(items) => {
            // First path through this array: one empty object per item, which later
            // paths fill in further.
            if to.as_array().is_none_or(|t| t.len() != items.len()) {
                *to = Value::Array(items.iter().map(|_| json!({})).collect());
            }
            if let Value::Array(targets) = to {
                for (item, target) in items.iter().zip(targets.iter_mut()) {
                    copy_path(item, target, path);
                }
            }
        }
        Value::Object(map) => {
            if let Some(child) = map.get(*head) {
                let slot = to
                    .as_object_mut()
                    .map(|o| o.entry(head.to_string()).or_insert(Value::Null));
                if let Some(slot) = slot {
                    if rest.is_empty() {
                        *slot = child.clone();
                    } else {
                        if slot.is_null() {
                            *slot = if child.is_array() {
                                Value::Array(vec![])
                            } else {
                                json!({})
                            };
                        }
                        copy_path(child, slot, rest);
                    }
                }
            }
        }
        _ => {}
    }
}

fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_mask_keeps_only_named_fields() {
        let full = json!({"places": [{"id": "a", "displayName": {"text": "A"}, "rating": 4.5}], "nextPageToken": "t"});
        assert_eq!(apply_field_mask(&full, "places.id"), json!({"places": [{"id": "a"}]}));
        assert_eq!(
            apply_field_mask(&full, "places.displayName,nextPageToken"),
            json!({"places": [{"displayName": {"text": "A"}}], "nextPageToken": "t"})
        );
        assert_eq!(apply_field_mask(&full, "*"), full);
    }
}
