//! The simulator's state. Objects are kept as the JSON Stripe would send, because that JSON
//! is what the simulator exists to get right: every answer and every event is a copy of it.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{clock, config::SimConfig, idempotency::Idempotency, ids};

/// One request to `/v1/*`, as a test wants to check it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordedRequest {
    /// `GET` or `POST`.
    pub method: String,
    /// The path without the query, e.g. `/v1/checkout/sessions`.
    pub path: String,
    /// The `Idempotency-Key` header, if sent.
    pub idempotency_key: Option<String>,
    /// The `Stripe-Version` header, if sent.
    pub stripe_version: Option<String>,
    /// Form parameters (POST body, or GET query), percent-decoded, in the order sent.
    pub params: Vec<(String, String)>,
    /// The status code answered.
    pub status: u16,
    /// Whether the answer was a replay of an earlier idempotent request.
    pub replayed: bool,
}

impl RecordedRequest {
    /// The value of the form parameter `key` (e.g. `"metadata[user_id]"`), if sent.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// A price bought in a Checkout Session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineItem {
    pub price: String,
    pub quantity: u64,
}

/// A Checkout Session and what Stripe keeps about it that the object does not show.
#[derive(Debug, Clone)]
pub(crate) struct CheckoutRecord {
    pub json: Value,
    pub line_items: Vec<LineItem>,
    /// `subscription_data[metadata]`, copied onto the subscription when it is created.
    pub subscription_metadata: Map<String, Value>,
    /// IDs of the line item objects, fixed at creation so repeated reads agree.
    pub line_item_ids: Vec<String>,
}

/// Everything the simulator knows, behind one lock.
#[derive(Debug)]
pub(crate) struct Store {
    pub config: SimConfig,
    /// The simulator's own base URL, for page links.
    pub base_url: String,
    /// When the catalogue (prices, products) was "created".
    pub catalogue_created: i64,
    /// The one customer portal configuration sessions refer to.
    pub portal_configuration: String,
    pub customers: Vec<Value>,
    pub checkout_sessions: Vec<CheckoutRecord>,
    pub portal_sessions: Vec<Value>,
    pub subscriptions: Vec<Value>,
    pub invoices: Vec<Value>,
    pub payment_methods: Vec<Value>,
    pub events: Vec<Value>,
    pub deliveries: Vec<(String, u16)>,
    pub requests: Vec<RecordedRequest>,
    pub idempotency: Idempotency,
}

impl Store {
    pub fn new(config: SimConfig, base_url: String) -> Self {
        Self {
            config,
            base_url,
            catalogue_created: clock::now(),
            portal_configuration: ids::portal_configuration(),
            customers: Vec::new(),
            checkout_sessions: Vec::new(),
            portal_sessions: Vec::new(),
            subscriptions: Vec::new(),
            invoices: Vec::new(),
            payment_methods: Vec::new(),
            events: Vec::new(),
            deliveries: Vec::new(),
            requests: Vec::new(),
            idempotency: Idempotency::default(),
        }
    }

    pub fn customer(&self, id: &str) -> Option<&Value> {
        find(&self.customers, id)
    }

    pub fn customer_mut(&mut self, id: &str) -> Option<&mut Value> {
        self.customers.iter_mut().find(|v| v["id"] == id)
    }

    pub fn session(&self, id: &str) -> Option<&CheckoutRecord> {
        self.checkout_sessions.iter().find(|r| r.json["id"] == id)
    }

    pub fn session_mut(&mut self, id: &str) -> Option<&mut CheckoutRecord> {
        self.checkout_sessions.iter_mut().find(|r| r.json["id"] == id)
    }

    pub fn portal_session(&self, id: &str) -> Option<&Value> {
        find(&self.portal_sessions, id)
    }

    pub fn subscription(&self, id: &str) -> Option<&Value> {
        find(&self.subscriptions, id)
    }

    pub fn subscription_mut(&mut self, id: &str) -> Option<&mut Value> {
        self.subscriptions.iter_mut().find(|v| v["id"] == id)
    }

    pub fn invoice(&self, id: &str) -> Option<&Value> {
        find(&self.invoices, id)
    }

    pub fn payment_method(&self, id: &str) -> Option<&Value> {
        find(&self.payment_methods, id)
    }

    pub fn event(&self, id: &str) -> Option<&Value> {
        find(&self.events, id)
    }

    /// Whether new events will be sent: a URL is configured and delivery is switched on.
    pub fn delivering(&self) -> bool {
        self.config.webhooks_enabled && self.config.webhook_url.is_some()
    }
}

fn find<'a>(list: &'a [Value], id: &str) -> Option<&'a Value> {
    list.iter().find(|v| v["id"] == id)
}
